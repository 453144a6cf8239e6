package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPromptReadsNoNoteDirectory: the prompt hook answers from the index
// alone, whatever the store's size. Every note directory is replaced by a
// plain file, so listing one (a walk of the store, a refresh on open) or
// reading a note file fails: the hook must still print the note.
func TestPromptReadsNoNoteDirectory(t *testing.T) {
	f := newFixture(t)
	aside := t.TempDir() // outside the home: a walk must not find the notes elsewhere
	for _, tree := range []string{"memory", "local"} {
		for _, typ := range []string{"episodic", "semantic", "procedural"} {
			d := filepath.Join(f.home, tree, typ)
			if err := os.Rename(d, filepath.Join(aside, tree+"-"+typ)); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := os.WriteFile(d, []byte("not a directory\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := f.recall(t, f.payload("s1", "How do I deploy billing to staging again?"))
	if !strings.Contains(out, "Deploying the billing service to staging") || !strings.Contains(out, "make deploy-staging") {
		t.Fatalf("with no note directory to read, the hook printed:\n%s\nlog:\n%s", out, readLog(f.home))
	}
}

func readLog(home string) string {
	b, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
	return string(b)
}
