package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// KindScope is a note moved to machine-local on this machine while another
// machine edited its portable file.
const KindScope = "moved to machine-local here, edited on another machine"

// settleScopes keeps one file per id across memory/ and local/. The only
// way a sync makes both is a move to machine-local racing an edit on
// another machine: the merge keeps the edit (as for any edit against a
// delete), so the portable file, which every machine sees, keeps the id.
// This machine's local version is dropped when it says the same thing (or
// what it said before the move, which the edit built on), and otherwise
// stays machine-local under a new id, tagged conflict. Run under the sync
// lock, after the merge.
func (s *syncer) settleScopes(ctx context.Context, memDir, localDir string) error {
	local := notePaths(localDir)
	if len(local) == 0 {
		return nil
	}
	for _, id := range sortedKeys(local) {
		mp := portableFiles(memDir, id)
		if len(mp) == 0 {
			continue
		}
		mdata, err := os.ReadFile(mp[0])
		if err != nil {
			continue
		}
		mn, merr := note.Parse(mdata)
		for _, lp := range local[id] {
			ldata, err := os.ReadFile(lp)
			if err != nil {
				continue
			}
			ln, lerr := note.Parse(ldata)
			if merr == nil && lerr == nil && (sameText(mn, ln) || s.wasPortable(ctx, memDir, mp[0], ln)) {
				if err := os.Remove(lp); err != nil {
					return err
				}
				continue
			}
			if lerr != nil {
				continue // not a note: reindex reports it; nothing to keep apart
			}
			c := *ln
			c.ID = copyID(id, ldata, parseTime(ln.UpdatedAt))
			c.Tags = append(slices.DeleteFunc(slices.Clone(ln.Tags), func(t string) bool { return t == "conflict" }), "conflict")
			c.Body = fmt.Sprintf("Conflicting version of note %s: this machine moved it to machine-local while another machine edited it; the edit stays portable under that id and this version was kept here, machine-local.\n\n%s", id, ln.Body)
			if c.Supersedes == nil {
				c.Supersedes = []string{}
			}
			if err := c.Validate(); err != nil {
				continue // leave it: reindex reports the duplicate
			}
			dst := filepath.Join(localDir, filepath.FromSlash(layout.NoteRel(c.Type, c.ID)))
			if err := atomicfile.Write(dst, c.Marshal(), layout.FileMode); err != nil {
				return err
			}
			if err := os.Remove(lp); err != nil {
				return err
			}
			s.res.Conflicts = append(s.res.Conflicts, Conflict{ID: id, CopyID: c.ID, Kind: KindScope})
			s.res.ConflictIDs = append(s.res.ConflictIDs, c.ID)
		}
	}
	return nil
}

// wasPortable reports whether a committed version of the portable file
// says what n says: the machine-local copy is then the text the other
// machine's edit replaced, and keeping it apart would only add clutter.
func (s *syncer) wasPortable(ctx context.Context, memDir, file string, n *note.Note) bool {
	rel, err := filepath.Rel(memDir, file)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	out, err := s.g.run(ctx, "log", "-n", "50", "--format=%H", "HEAD", "--", rel)
	if err != nil {
		return false
	}
	for _, c := range strings.Fields(out) {
		data, err := s.g.run(ctx, "cat-file", "blob", c+":"+rel)
		if err != nil {
			continue
		}
		if old, err := note.Parse([]byte(data)); err == nil && sameText(old, n) {
			return true
		}
	}
	return false
}

// portableFiles are memory/'s files named for id (<type>/<id>.md, the name
// every writer gives a note), found by a stat each rather than a listing of
// the whole tree, which a sync would pay at every cycle.
func portableFiles(memDir, id string) []string {
	var out []string
	for _, t := range note.Types {
		p := filepath.Join(memDir, filepath.FromSlash(layout.NoteRel(t, id)))
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// notePaths maps note ids to the files under a tree's type directories
// that hold them: <id>.md by name, any other .md by its front-matter.
func notePaths(base string) map[string][]string {
	out := map[string][]string{}
	for _, t := range note.Types {
		entries, err := os.ReadDir(filepath.Join(base, t))
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, atomicfile.TempPrefix) {
				continue
			}
			p := filepath.Join(base, t, name)
			id := strings.TrimSuffix(name, ".md")
			if !note.ValidID(id) {
				data, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				n, err := note.Parse(data)
				if err != nil || !note.ValidID(n.ID) {
					continue
				}
				id = n.ID
			}
			out[id] = append(out[id], p)
		}
	}
	return out
}
