package main

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/reftest"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// The cached block is valid against the reference's writer, both versions:
// after our inject cached a block, the reference writes a note that
// supersedes a shown one (in place, no stamp of ours bumped); our next
// inject shows the new note and not the superseded one.
func TestCacheSeesReferenceWriter(t *testing.T) {
	for _, version := range reftest.Versions {
		t.Run(version, func(t *testing.T) {
			reftest.Dir(t, version)
			ctx := context.Background()
			home := t.TempDir()
			s, err := store.Open(ctx, home)
			if err != nil {
				t.Fatal(err)
			}
			old := note.New(note.Semantic, "Dev server port", "The dev server listens on port 8803.")
			old.Project = "demo"
			w, err := s.Write(ctx, old)
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := runInject(t, home, nil, "--project", "demo")
			if again, _, _ := runInject(t, home, nil, "--project", "demo"); again != first || !strings.Contains(first, "8803") {
				t.Fatalf("the cached block:\n%s\n---\n%s", first, again)
			}
			supersedes := `"` + w.ID + `"`
			if version == "head" {
				supersedes = "[" + supersedes + "]"
			}
			code := `import os
from anamnesis.store import MemoryStore, Memory
st = MemoryStore(root=os.environ["REF_HOME"])
m = st.write(type="semantic", title="Dev server port moved", body="The dev server listens on port 8804.", project="demo")
m.supersedes = ` + supersedes + `
st.put(m)
`
			if out, err := reftest.Python(t, version, code, nil, "REF_HOME="+home); err != nil {
				t.Fatalf("reference %s: %v\n%s", version, err, out)
			}
			block, _, _ := runInject(t, home, nil, "--project", "demo")
			if !strings.Contains(block, "8804") || strings.Contains(block, "8803") {
				t.Errorf("after the reference's write, inject shows:\n%s", block)
			}
		})
	}
}
