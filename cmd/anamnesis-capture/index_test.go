package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// A corrupt index.db must not cost the session: capture moves it aside,
// rebuilds it and writes its note (issue 12, item 1).
func TestCaptureWithCorruptIndex(t *testing.T) {
	env(t)
	for name, breakIt := range map[string]func(db string){
		"garbage": func(db string) { os.WriteFile(db, bytes.Repeat([]byte("garbage!"), 512), 0o644) },
		"directory": func(db string) {
			os.Remove(db)
			os.MkdirAll(filepath.Join(db, "x"), 0o755)
		},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			st, err := store.Open(context.Background(), home)
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			db := filepath.Join(home, "index.db")
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
			breakIt(db)
			r := runCapture(t, home, nil, "--transcript", fixture(t, "5d18d0a2"), "--no-sync")
			if !strings.Contains(r.stdout, "capture: wrote episodic note") {
				t.Fatalf("no note written: stdout %q stderr %q log %q", r.stdout, r.stderr, r.log)
			}
			only(t, home)
			st, err = store.Open(context.Background(), home)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if c, _ := st.Count(context.Background(), store.Filter{}); c != 1 {
				t.Errorf("rebuilt index holds %d notes, want 1", c)
			}
			if !strings.Contains(r.log, "moved it to") {
				t.Errorf("the log does not say the index was moved aside: %q", r.log)
			}
		})
	}
}

// An index that cannot be opened at all still gets the note written to its
// file (and committed); the next open indexes it.
func TestCaptureWithoutIndex(t *testing.T) {
	env(t)
	home := t.TempDir()
	var out bytes.Buffer
	c := withoutIndex(home, fixture(t, "5d18d0a2"), "session-end", &out)
	for range 2 { // the second capture of the session updates the same file
		if err := c.run(context.Background(), strings.NewReader("")); err != nil {
			t.Fatalf("capture failed: %v", err)
		}
	}
	if !strings.Contains(out.String(), "capture: wrote episodic note") {
		t.Fatalf("stdout %q", out.String())
	}
	only(t, home)
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if c, _ := st.Count(context.Background(), store.Filter{}); c != 1 {
		t.Errorf("index holds %d notes after the next open, want 1", c)
	}
}

// An index that opens but fails when the note is saved (damage the open
// did not see) still gets the note's file written.
func TestCaptureIndexFailsOnSave(t *testing.T) {
	env(t)
	home := t.TempDir()
	var out, errb bytes.Buffer
	c := &capture{
		open: func(ctx context.Context, home string) (*store.Store, error) {
			st, err := store.Open(ctx, home)
			if err == nil {
				st.Close() // every query from now on fails
			}
			return st, err
		},
		o:   options{transcript: fixture(t, "5d18d0a2"), source: "session-end", noSync: true, wait: true},
		cfg: config.Resolve(home, os.Getenv), log: hook.NewLogger(home, "anamnesis-capture"), stdout: &out, stderr: &errb,
	}
	if err := c.run(context.Background(), strings.NewReader("")); err != nil {
		t.Fatalf("capture failed: %v", err)
	}
	if !strings.Contains(out.String(), "capture: wrote episodic note") {
		t.Fatalf("stdout %q", out.String())
	}
	only(t, home)
}

// A session note someone moved to local/ (to keep it off git) is updated
// there when the index is unusable, not written again into memory/, where
// the next commit would publish it.
func TestCaptureWithoutIndexKeepsTheNoteLocal(t *testing.T) {
	env(t)
	home := t.TempDir()
	tr := fixture(t, "5d18d0a2")
	files := []string{capturedNote(t, home, tr)}
	local := moveToLocal(t, home, files[0])
	before, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := withoutIndex(home, tr, "precompact", &out)
	if err := c.run(context.Background(), strings.NewReader("")); err != nil {
		t.Fatalf("capture failed: %v", err)
	}
	if _, err := os.Stat(files[0]); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the local note was written again into memory/ (%v): stdout %q", err, out.String())
	}
	after, err := os.ReadFile(local)
	if err != nil || !strings.Contains(string(after), "- precompact\n") {
		t.Fatalf("local note not updated in place: %v\n%s", err, after)
	}
	created := func(data []byte) string {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "created_at:") {
				return l
			}
		}
		return ""
	}
	if created(before) == "" || created(after) != created(before) {
		t.Errorf("created_at changed: %q -> %q", created(before), created(after))
	}
}

// A session note someone filed under another type (moved to semantic/ as a
// lasting fact) is updated there when the index is unusable, not written
// again under episodic/ with the same id: two files would claim one note,
// and the next commit would publish the copy.
func TestCaptureWithoutIndexKeepsTheNoteItsType(t *testing.T) {
	env(t)
	home := t.TempDir()
	tr := fixture(t, "5d18d0a2")
	files := []string{capturedNote(t, home, tr)}
	moved := filepath.Join(home, "memory", "semantic", filepath.Base(files[0]))
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(moved, []byte(strings.Replace(string(data), "type: episodic\n", "type: semantic\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := withoutIndex(home, tr, "precompact", &out)
	if err := c.run(context.Background(), strings.NewReader("")); err != nil {
		t.Fatalf("capture failed: %v", err)
	}
	if _, err := os.Stat(files[0]); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the note filed under semantic/ was written again under episodic/ (%v): stdout %q", err, out.String())
	}
	after, err := os.ReadFile(moved)
	if err != nil || !strings.Contains(string(after), "- precompact\n") || !strings.Contains(string(after), "type: semantic\n") {
		t.Fatalf("moved note not updated in place: %v\n%s", err, after)
	}
}

// withoutIndex is a capture of transcript tr into home whose index cannot
// be opened, which runs inline (--wait, --no-sync) and prints to out.
func withoutIndex(home, tr, source string, out *bytes.Buffer) *capture {
	return &capture{
		open: func(context.Context, string) (*store.Store, error) {
			return nil, errors.New("index unusable for the test")
		},
		o:   options{transcript: tr, source: source, noSync: true, wait: true},
		cfg: config.Resolve(home, os.Getenv), log: hook.NewLogger(home, "anamnesis-capture"), stdout: out, stderr: io.Discard,
	}
}

// capturedNote captures transcript tr into home and returns the file of
// the one session note it wrote.
func capturedNote(t *testing.T, home, tr string) string {
	t.Helper()
	runCapture(t, home, nil, "--transcript", tr, "--no-sync")
	files, _ := filepath.Glob(filepath.Join(home, "memory", "episodic", "*.md"))
	if len(files) != 1 {
		t.Fatalf("notes: %v", files)
	}
	return files[0]
}

// moveToLocal moves a note's file into local/, as a person keeping it off
// git does, and returns where it is now.
func moveToLocal(t *testing.T, home, file string) string {
	t.Helper()
	local := filepath.Join(home, "local", "episodic", filepath.Base(file))
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(file, local); err != nil {
		t.Fatal(err)
	}
	return local
}
