package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/walktest"
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

// The prompt hook never walks the store (SPEC 9): run as Claude Code runs
// it (the real binary, under strace) on a store of 1,200 notes of a project
// and global ones, with prompts that match a few notes, and ones that every
// note matches, it lists no note directory and looks at no more than
// promptFiles note files, whatever the store's size. A prompt's hits come
// from the index with their text (store.Hit.Indexed); a note file is read
// only for the notes a background sync brought since the session started
// (at most recall.MaxNotes, read whole for the first prompt) and for a
// search hit whose text the ranking did not read (every word common; at
// most 3 hits from each of the 2 pools, the project's and the global one).
func TestPromptWalksNoDirectory(t *testing.T) {
	walktest.Available(t)
	t.Setenv("ANAMNESIS_RECALL_ENABLED", "")
	t.Setenv("ANAMNESIS_RECALL_MAX_CHARS", "")
	const promptFiles = recall.MaxNotes + 2*3
	ctx := context.Background()
	f := &fixture{home: t.TempDir(), cwd: t.TempDir()}
	f.project = project.Here(f.cwd, config.Resolve(f.home, os.Getenv)).Key
	const notes = 1200
	walktest.Notes(t, f.home, f.project, notes)
	st, err := store.Open(ctx, f.home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The session started at this mark; a sync indexed five notes since.
	mark, err := st.Watermark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := session.Started(f.home, "s1", "startup", nil, mark); err != nil {
		t.Fatal(err)
	}
	for i, proj := range []string{f.project, note.Global, f.project, f.project, note.Global} {
		n := note.New(note.Procedural, fmt.Sprintf("Deploying the quotes service, step %d", i+1),
			fmt.Sprintf("Step %d of the quotes deploy: run `make deploy-staging` with the kubeconfig context quotes-stg.", i+1))
		n.Project = proj
		if _, err := st.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	hook, err := exec.LookPath("anamnesis-recall")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, prompt, want string }{
		{"first prompt, notes synced since the start", "How do I deploy the quotes service to staging?", recall.ArrivedHeading},
		{"a prompt a few notes match", "Which kubeconfig context does the quotes deploy use?", "quotes-stg"},
		{"a prompt every note matches, one best", "What does fact 1177 about the quotes service say?", "rates for 1177 seconds"},
		// Every word common: the terms are looked up in the index, and
		// nothing clears the floor.
		{"a prompt every note matches alike", "How many seconds does the quotes service cache rates for?", ""},
	} {
		cmd := exec.Command(hook, "--home", f.home)
		cmd.Stdin = strings.NewReader(f.payload("s1", c.prompt))
		out, tr := walktest.Run(t, cmd)
		if !strings.Contains(out, c.want) {
			t.Fatalf("%s: the hook printed:\n%s\nlog:\n%s", c.name, out, readLog(f.home))
		}
		for d, n := range tr.Listed {
			t.Errorf("%s: note directory %s was listed (%d listings)", c.name, d, n)
		}
		if len(tr.Looked) > promptFiles || len(tr.Opened) > promptFiles {
			t.Errorf("%s: %d note files looked at (by program: %v), %d opened (at most %d)", c.name, len(tr.Looked), tr.By, len(tr.Opened), promptFiles)
		}
		t.Logf("%s: %d note files looked at, %d opened; printed %d characters", c.name, len(tr.Looked), len(tr.Opened), len(out))
	}
}
