package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Why a file cannot be indexed is reported by status, doctor and the
// dashboard, and the reason may quote the file: a secret a hand-written
// file holds there is not in it.
func TestProblemsQuoteNoSecret(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	const token = "ghp_Zx8kQ2mNpL4vR7tYw9ab3Cd5Ef7Gh1Jk2Lm4"
	bad := "---\nid: 01J0000000000000000000BAD1\ntype: " + token + "\ntitle: Bad\nproject: p\n---\nBody.\n"
	dir := filepath.Join(home, "memory", "semantic")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "01J0000000000000000000BAD1.md"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	ps, err := s.Problems(ctx)
	if err != nil || len(ps) != 1 {
		t.Fatalf("problems %+v (%v), want the bad file", ps, err)
	}
	if strings.Contains(strings.ToLower(ps[0].Reason), strings.ToLower(token[4:])) || ps[0].Reason == "" {
		t.Errorf("the reason quotes the secret: %q", ps[0].Reason)
	}
}
