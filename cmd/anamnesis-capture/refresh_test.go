package main

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// The session that ends writes a note into its project, which makes the
// project's cached SessionStart block stale; capture renders it again, so
// the next session there prints it without opening the index. Another
// project's block is left alone.
func TestCaptureRefreshesTheProjectsBlock(t *testing.T) {
	env(t)
	ctx := context.Background()
	home := t.TempDir()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, p := range []string{quotesAPI, "github.com/acme/other"} {
		n := note.New(note.Semantic, "Fact of "+p, "Something about "+p+".")
		n.Project = p
		if _, err := st.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	keys := []blockcache.Key{{Project: quotesAPI, K: 8, Budget: 9500}, {Project: "github.com/acme/other", K: 8, Budget: 9500}}
	for _, k := range keys {
		if _, err := inject.Render(ctx, st, k, nil); err != nil {
			t.Fatal(err)
		}
	}
	otherBefore, _ := blockcache.Open(home, keys[1]).Cached()

	runCapture(t, home, nil, "--transcript", fixture(t, "82bbae79"), "--no-sync", "--project", quotesAPI)

	got, ok := blockcache.Open(home, keys[0]).Cached()
	if !ok {
		t.Fatal("after capture the project's block is not cached")
	}
	want, err := inject.Block(ctx, st, quotesAPI, 8, 9500, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != want.Block || !strings.Contains(got.Text, "[episodic]") {
		t.Fatalf("cached block:\n%s\nwant:\n%s", got.Text, want.Block)
	}
	if strings.Join(got.IDs, ",") != strings.Join(want.IDs, ",") {
		t.Errorf("cached ids %v, want %v", got.IDs, want.IDs)
	}
	if other, ok := blockcache.Open(home, keys[1]).Cached(); !ok || other.Text != otherBefore.Text {
		t.Error("another project's block was invalidated or changed")
	}
}
