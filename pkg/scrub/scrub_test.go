package scrub

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// TestScrub: a secret kept in a note and committed is reported without a
// change; applied, the note file is redacted and committed, the history's
// copy gets purge rules in a private file beside config.json, and neither
// the report nor the printed commands hold the secret.
func TestScrub(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	ctx := context.Background()
	home := t.TempDir()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	secret := "ghp_" + strings.Repeat("aB3dE5fG7h", 3) + "K9mN2p"
	n := note.New(note.Semantic, "Deploy token", "The deploy token is "+secret+" for the CI.")
	n.ID = note.NewID()
	if err := st.Put(ctx, n, store.KeepSecrets(true)); err != nil {
		t.Fatal(err)
	}
	clean := note.New(note.Semantic, "Plain", "Nothing secret here.")
	clean.ID = note.NewID()
	if err := st.Put(ctx, clean); err != nil {
		t.Fatal(err)
	}
	if _, err := gitsync.CommitPaths(ctx, home, "box", "add notes", 10*time.Second, layout.NoteRel(n.Type, n.ID), layout.NoteRel(clean.Type, clean.ID)); err != nil {
		t.Fatal(err)
	}
	path := layout.Home(home).Note(note.Portable, n.Type, n.ID)
	before, _ := os.ReadFile(path)

	report, err := Run(ctx, st, home, "box", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Files) != 1 || !strings.Contains(report.Files[0].Path, n.ID) {
		t.Fatalf("report files %+v, want the one note", report.Files)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a report changed the note")
	}
	if len(report.History) == 0 {
		t.Fatal("the committed secret was not found in history")
	}
	if _, err := os.Stat(filepath.Join(home, ReplacementsFile)); err == nil {
		t.Fatal("a report wrote the purge rules")
	}

	applied, err := Run(ctx, st, home, "box", true)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if strings.Contains(string(after), secret) || applied.Commit == "" {
		t.Fatalf("applied: note still holds the secret or nothing committed (commit %q):\n%s", applied.Commit, after)
	}
	rules := filepath.Join(home, ReplacementsFile)
	fi, err := os.Stat(rules)
	if err != nil || !atomicfile.HasPerm(fi, layout.FileMode) {
		t.Fatalf("purge rules: %v %v", fi, err)
	}
	if data, _ := os.ReadFile(rules); !strings.Contains(string(data), secret) {
		t.Errorf("purge rules do not name the secret")
	}
	for _, c := range applied.Commands {
		if strings.Contains(c, secret) {
			t.Errorf("a printed command holds the secret: %s", c)
		}
	}
	if again, err := Run(ctx, st, home, "box", false); err != nil || len(again.Files) != 0 {
		t.Errorf("after apply: files %+v, err %v", again.Files, err)
	}
}
