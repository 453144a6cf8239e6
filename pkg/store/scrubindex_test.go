package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// TestScrubLeavesNoSecretInTheIndex: scrub --apply says it redacted a note;
// the index held the note's words too (full-text segments, the words of its
// identifiers, pages freed by the rewrite), and still held the secret there,
// in the index file on disk, after the files were redacted. Nothing of it
// may stay in the index file or its WAL.
func TestScrubLeavesNoSecretInTheIndex(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	const secret = "Qx7vN2pLk9RzW4"
	for i := range 3 {
		n := note.New(note.Semantic, "ordinary note", "the deploy goes through staging first; retryPolicy is exponential")
		n.ID, n.CreatedAt, n.UpdatedAt = note.NewID(), note.Now(), note.Now()
		n.Title += " " + string(rune('a'+i))
		if err := s.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	n := note.New(note.Semantic, "staging", "the staging password is "+secret+" and the host is db1")
	n.ID, n.CreatedAt, n.UpdatedAt = note.NewID(), note.Now(), note.Now()
	if err := s.Put(ctx, n, KeepSecrets(true)); err != nil {
		t.Fatal(err)
	}
	found, err := s.Scrub(ctx, true)
	if err != nil || len(found) != 1 {
		t.Fatalf("scrub: %+v %v", found, err)
	}
	if got, _ := s.Get(ctx, n.ID); strings.Contains(got.Body, secret) {
		t.Fatalf("the note keeps its secret: %q", got.Body)
	}
	if hits, _ := s.Search(ctx, Query{Text: "retryPolicy staging"}); len(hits) == 0 {
		t.Error("the index no longer finds the other notes")
	}
	// Closed, as the command ends: what the WAL held is in the file now.
	s.Close()
	files, _ := filepath.Glob(s.DBPath() + "*")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(secret))) {
			t.Errorf("%s still holds the scrubbed secret", filepath.Base(f))
		}
	}
}
