package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
)

// After a CLI write, a global note or a delete, the next SessionStart finds
// its block current in the cache (SPEC 9: inject stays at the floor right
// after every kind of write, which it cannot if it must start `anamnesis
// block` to compute the block).
func TestWritesLeaveTheBlockCached(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("ANAMNESIS_MACHINE_ID", "m")
	ctx := context.Background()
	do := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(ctx, args, strings.NewReader(""), &out, &errb); err != nil {
			t.Fatalf("%v: %v %s", args, err, errb.String())
		}
		return strings.TrimSpace(out.String())
	}
	do("write", "--type", "semantic", "--project", "p", "--title", "first note", "--body", "one")
	do("block", "--project", "p", "--k", "8", "--max-chars", "9000")
	key := blockcache.Key{Project: "p", K: 8, Budget: 9000}
	cached := func(what string, want, not string) {
		t.Helper()
		b, ok := blockcache.Open(home, key).Cached()
		if !ok {
			t.Fatalf("after %s the block is not cached: the next SessionStart computes it", what)
		}
		if !strings.Contains(b.Text, want) || (not != "" && strings.Contains(b.Text, not)) {
			t.Fatalf("after %s the cached block is not current (want %q, not %q):\n%s", what, want, not, b.Text)
		}
	}
	cached("block", "first note", "")
	id := do("write", "--type", "procedural", "--project", "p", "--title", "second note", "--body", "two")
	cached("a write in the project", "second note", "")
	do("write", "--type", "semantic", "--title", "a global rule", "--body", "three")
	cached("a global note", "a global rule", "")
	do("rm", id)
	cached("a delete", "a global rule", "second note")
}
