package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A losing version that parses but would not pass validation as written
// (a hand edit or another tool's file: a prov_source this version does not
// know) is still kept as a conflict note, and the merge goes on; it
// failed, and so did every later sync ("merge failed"): neither machine's
// notes moved again.
func TestConflictWithOddLoserDoesNotBlock(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for name, edit := range map[string]func(string) string{
		"prov_source": func(s string) string { return strings.Replace(s, "prov_source: human", "prov_source: handwritten", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			remote := newRemote(t)
			a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
			n := a.write(note.Semantic, "Deploy target", "original text")
			a.sync()
			b.sync()
			// alpha edits the file by hand (earlier), beta through the store (later).
			p := filepath.Join(a.dir, "memory", "semantic", n.ID+".md")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			odd := edit(strings.Replace(string(data), "original text", "alpha's hand edit", 1))
			if odd == strings.Replace(string(data), "original text", "alpha's hand edit", 1) {
				t.Fatalf("the edit changed nothing:\n%s", data)
			}
			odd = strings.Replace(odd, "updated_at: "+n.UpdatedAt, "updated_at: "+note.FormatTime(time.Now().Add(-time.Hour)), 1)
			if err := os.WriteFile(p, []byte(odd), 0o600); err != nil {
				t.Fatal(err)
			}
			b.edit(n.ID, "beta's edit", time.Now())
			a.sync()
			r, err := Sync(context.Background(), b.opts())
			if err != nil {
				t.Fatalf("beta's sync: %v (%s)", err, r.Line())
			}
			if !r.Conflicted || len(r.ConflictIDs) != 1 {
				t.Fatalf("beta's sync: %s", r.Line())
			}
			data, err = os.ReadFile(filepath.Join(b.dir, "memory", "semantic", r.ConflictIDs[0]+".md"))
			if err != nil || !strings.Contains(string(data), "alpha's hand edit") {
				t.Fatalf("the losing version is not kept: %v\n%s", err, data)
			}
			b.assertClean()
		})
	}
}
