package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Conflict kinds.
const (
	KindBoth      = "edited on both sides"
	KindDeleted   = "edited on one side, deleted on the other"
	KindDuplicate = "same id in two places"
)

// integrate brings origin/main into main: a fast-forward when main has
// nothing of its own, else a merge resolved here. Any failure aborts the
// merge, so the repository is back at main's last commit.
func (s *syncer) integrate(ctx context.Context) error {
	g := s.g
	behind, err := g.count(ctx, branchRef+".."+remoteRef)
	if err != nil {
		s.res.Detail = err.Error()
		return err
	}
	if behind == 0 {
		return nil
	}
	ahead, err := g.count(ctx, remoteRef+".."+branchRef)
	if err != nil {
		s.res.Detail = err.Error()
		return err
	}
	if ahead == 0 {
		_, err := g.run(ctx, "merge", "--quiet", "--ff-only", remoteRef)
		if err == nil {
			s.res.Pulled += behind
			return nil
		}
		if !blockedByWorktree(err) {
			s.res.Detail = "fast-forward failed: " + err.Error()
			return err
		}
		// A note written since this sync committed stands in the way:
		// commit it, then merge as below.
		if cerr := s.commit(ctx); cerr != nil {
			return cerr
		}
	}
	err = s.merge(ctx)
	if err != nil && blockedByWorktree(err) {
		// A note written since this sync committed stands in the merge's
		// way: commit it too and merge again.
		abortMerge(ctx, g)
		if cerr := s.commit(ctx); cerr != nil {
			return cerr
		}
		if behind, err = g.count(ctx, branchRef+".."+remoteRef); err == nil {
			err = s.merge(ctx)
		}
	}
	if err != nil {
		abortMerge(ctx, g)
		s.res.Detail = "merge failed (aborted; local commits kept): " + err.Error()
		return err
	}
	s.res.Pulled += behind
	return nil
}

func blockedByWorktree(err error) bool {
	var ge *GitError
	return errors.As(err, &ge) && strings.Contains(ge.Stderr, "would be overwritten by merge")
}

// merge merges origin/main without committing, resolves every conflicted
// path and every id that ended up in two places, then commits.
func (s *syncer) merge(ctx context.Context) error {
	g := s.g
	msg := Message(s.o.MachineID)
	_, merr := g.run(ctx, "merge", "--quiet", "--no-ff", "--no-commit", "--allow-unrelated-histories",
		"-X", "no-renames", "-m", msg, remoteRef)
	out, err := g.run(ctx, "ls-files", "-u", "-z")
	if err != nil {
		return err
	}
	unmerged := parseUnmerged(out)
	if merr != nil && len(unmerged) == 0 {
		return merr // not a content conflict: e.g. uncommitted files in the way
	}
	var touched []string
	for _, p := range sortedKeys(unmerged) {
		paths, err := s.resolve(ctx, p, unmerged[p])
		if err != nil {
			return fmt.Errorf("resolving %s: %w", p, err)
		}
		touched = append(touched, paths...)
	}
	if err := s.stage(ctx, touched); err != nil {
		return err
	}
	if err := s.dedupe(ctx, true); err != nil {
		return err
	}
	if left, _ := g.run(ctx, "ls-files", "-u", "-z"); left != "" {
		return errors.New("unresolved paths remain: " + strings.Join(nulList(left), ", "))
	}
	if _, err := g.run(ctx, "commit", "--quiet", "--no-verify", "-m", msg); err != nil {
		return err
	}
	return nil
}

// adopt makes the remote's history this repository's (which has no commit
// yet) without losing a file in the working tree: the remote's files are
// checked out where nothing is, and a local note that differs from the
// remote's note of the same path goes through the conflict policy. It
// returns how many commits it pulled.
func (s *syncer) adopt(ctx context.Context) (int, error) {
	g := s.g
	tip, err := g.rev(ctx, remoteRef)
	if err != nil {
		return 0, err
	}
	// Index first, branch last: stopped half way, the repository still has
	// no commit and the next sync starts the adoption again.
	if _, err := g.run(ctx, "read-tree", tip); err != nil {
		return 0, err
	}
	g.run(ctx, "update-index", "-q", "--refresh")
	out, err := g.run(ctx, "ls-files", "-z", "--deleted")
	if err != nil {
		return 0, err
	}
	if missing := nulList(out); len(missing) > 0 {
		if _, err := g.runIn(ctx, nulJoin(missing), "checkout-index", "-z", "--stdin"); err != nil {
			return 0, err
		}
	}
	g.run(ctx, "update-index", "-q", "--refresh")
	out, err = g.run(ctx, "ls-files", "-z", "--modified")
	if err != nil {
		return 0, err
	}
	for _, p := range nulList(out) {
		local, err := os.ReadFile(s.abs(p))
		if err != nil {
			continue // gone meanwhile: the remote's version stays in the index
		}
		remote, err := g.run(ctx, "cat-file", "blob", ":0:"+p)
		if err != nil {
			return 0, err
		}
		if _, err := s.resolveBoth(p, local, []byte(remote)); err != nil {
			return 0, fmt.Errorf("resolving %s: %w", p, err)
		}
	}
	if _, err := g.run(ctx, "update-ref", branchRef, tip, zeroHash); err != nil {
		return 0, err
	}
	if err := s.dedupe(ctx, false); err != nil {
		return 0, err
	}
	return g.count(ctx, branchRef)
}

// stages maps a stage number (1 base, 2 ours, 3 theirs) to a blob.
type stages map[int]string

func parseUnmerged(out string) map[string]stages {
	m := map[string]stages{}
	for _, rec := range nulList(out) {
		meta, p, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 3 {
			continue
		}
		if m[p] == nil {
			m[p] = stages{}
		}
		m[p][int(f[2][0]-'0')] = f[1]
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// abs is a repository path's file. Paths come from git, which never
// produces ".." components.
func (s *syncer) abs(p string) string { return filepath.Join(s.g.dir, filepath.FromSlash(p)) }

// resolve settles one conflicted path and returns the paths it wrote.
func (s *syncer) resolve(ctx context.Context, p string, st stages) ([]string, error) {
	blob := func(n int) ([]byte, bool, error) {
		h, ok := st[n]
		if !ok {
			return nil, false, nil
		}
		out, err := s.g.run(ctx, "cat-file", "blob", h)
		return []byte(out), true, err
	}
	ours, hasOurs, err := blob(2)
	if err != nil {
		return nil, err
	}
	theirs, hasTheirs, err := blob(3)
	if err != nil {
		return nil, err
	}
	switch {
	case hasOurs && hasTheirs:
		// The merge left our version in the file; if it is something else
		// now, a writer (capture, the dashboard) changed it meanwhile and
		// that newer text is ours.
		if cur, err := os.ReadFile(s.abs(p)); err == nil && !bytes.Equal(cur, ours) {
			if _, perr := note.Parse(cur); perr == nil {
				ours = cur
			}
		}
		return s.resolveBoth(p, ours, theirs)
	case hasOurs || hasTheirs:
		// Changed on one side, deleted on the other: the edit stays.
		kept := ours
		if !hasOurs {
			kept = theirs
		}
		if err := store.WriteFileAtomic(s.abs(p), kept, 0o644); err != nil {
			return nil, err
		}
		if id, ok := noteID(p); ok {
			s.addConflict(id, "", KindDeleted)
		}
		return []string{p}, nil
	default:
		// Deleted on both sides (only a base stage): stays deleted.
		os.Remove(s.abs(p))
		return []string{p}, nil
	}
}

// resolveBoth settles a path both sides changed: a note keeps the later
// version in place and the other as a new conflict note; .gitignore takes
// both sides' lines; any other file keeps ours.
func (s *syncer) resolveBoth(p string, ours, theirs []byte) ([]string, error) {
	if bytes.Equal(ours, theirs) {
		return []string{p}, store.WriteFileAtomic(s.abs(p), ours, 0o644)
	}
	id, isNote := noteID(p)
	if !isNote {
		if path.Base(p) == ".gitignore" {
			return []string{p}, store.WriteFileAtomic(s.abs(p), unionLines(ours, theirs), 0o644)
		}
		return []string{p}, store.WriteFileAtomic(s.abs(p), ours, 0o644)
	}
	typ := path.Dir(p)
	win, lose := pick(ours, theirs)
	if err := store.WriteFileAtomic(s.abs(p), win, 0o644); err != nil {
		return nil, err
	}
	written := []string{p}
	cp, err := s.saveLoser(id, typ, win, lose)
	if err != nil {
		return nil, err
	}
	if cp != "" {
		// Versions that say the same thing (timestamps or machine aside)
		// are not a conflict anyone needs to look at.
		s.addConflict(id, cp, KindBoth)
		written = append(written, cp)
	}
	return written, nil
}

// saveLoser writes the losing version of note id as a new note tagged
// conflict, unless it says the same as the winner. It returns the new file's
// repository path, "" when nothing was written.
func (s *syncer) saveLoser(id, typ string, win, lose []byte) (string, error) {
	wn, werr := note.Parse(win)
	ln, lerr := note.Parse(lose)
	if werr == nil && lerr == nil && sameText(wn, ln) {
		return "", nil
	}
	var c *note.Note
	if lerr == nil {
		cp := *ln
		c = &cp
		c.Tags = append(slices.DeleteFunc(slices.Clone(ln.Tags), func(t string) bool { return t == "conflict" }), "conflict")
		c.Body = fmt.Sprintf("Conflicting version of note %s: another machine's edit was newer and kept that id; this version was saved by sync on %s.\n\n%s",
			id, s.o.MachineID, ln.Body)
		if !slices.Contains(note.Types, c.Type) {
			c.Type = typ
		}
	} else {
		// Not readable as a note: keep its text whole in a note that is.
		if !slices.Contains(note.Types, typ) {
			typ = note.Semantic
		}
		c = note.New(typ, "Conflicting version of note "+id, fmt.Sprintf(
			"Conflicting version of note %s (not readable as a note: %v); its text, as it was:\n\n%s", id, lerr, lose))
		c.MachineID = s.o.MachineID
		c.Tags = []string{"conflict"}
		now := note.Now()
		c.CreatedAt, c.UpdatedAt = now, now
	}
	c.ID = note.NewID()
	c.Scope = note.Portable
	if c.CreatedAt == "" {
		c.CreatedAt = note.Now()
	}
	if c.UpdatedAt == "" {
		c.UpdatedAt = c.CreatedAt
	}
	if c.Project == "" {
		c.Project = note.Global
	}
	if c.ProvSource == "" {
		c.ProvSource = note.ProvHuman
	}
	if strings.TrimSpace(c.Title) == "" {
		c.Title = "Conflicting version of note " + id
	}
	if err := c.Validate(); err != nil {
		return "", fmt.Errorf("conflict copy of %s: %w", id, err)
	}
	rel := c.Type + "/" + c.ID + ".md"
	if err := store.WriteFileAtomic(s.abs(rel), c.Marshal(), 0o644); err != nil {
		return "", err
	}
	return rel, nil
}

func (s *syncer) addConflict(id, copyPath, kind string) {
	c := Conflict{ID: id, Kind: kind}
	if copyPath != "" {
		c.CopyID = path.Base(strings.TrimSuffix(copyPath, ".md"))
		s.res.ConflictIDs = append(s.res.ConflictIDs, c.CopyID)
	}
	s.res.Conflicts = append(s.res.Conflicts, c)
}

// pick orders two versions of a note: the later updated_at wins; a
// version that does not parse loses to one that does; ties go to the
// greater bytes, so every machine would choose the same.
func pick(a, b []byte) (win, lose []byte) {
	na, ea := note.Parse(a)
	nb, eb := note.Parse(b)
	switch {
	case ea == nil && eb != nil:
		return a, b
	case ea != nil && eb == nil:
		return b, a
	case ea == nil && eb == nil:
		ta, tb := parseTime(na.UpdatedAt), parseTime(nb.UpdatedAt)
		if !ta.Equal(tb) {
			if ta.After(tb) {
				return a, b
			}
			return b, a
		}
	}
	if bytes.Compare(a, b) >= 0 {
		return a, b
	}
	return b, a
}

func parseTime(s string) time.Time {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t
	}
	if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
		return t
	}
	return time.Time{}
}

// sameText: two versions that say the same thing need no conflict copy.
func sameText(a, b *note.Note) bool {
	ta, tb := slices.Clone(a.Tags), slices.Clone(b.Tags)
	slices.Sort(ta)
	slices.Sort(tb)
	return a.Type == b.Type && a.Title == b.Title && a.Body == b.Body && a.Project == b.Project &&
		slices.Equal(ta, tb) && slices.Equal(a.Supersedes, b.Supersedes)
}

// noteID returns the id of a repository path of the form <type>/<id>.md.
func noteID(p string) (string, bool) {
	dir, file := path.Split(p)
	if !slices.Contains(note.Types, strings.TrimSuffix(dir, "/")) || !strings.HasSuffix(file, ".md") {
		return "", false
	}
	id := strings.TrimSuffix(file, ".md")
	return id, note.ValidID(id)
}

func unionLines(a, b []byte) []byte {
	var out []string
	seen := map[string]bool{}
	for _, src := range [][]byte{a, b} {
		for _, l := range strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n") {
			if l != "" && !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

// stage records the working-tree state of paths in the index (a path whose
// file is gone is removed), which also marks conflicts resolved.
func (s *syncer) stage(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	_, err := s.g.runIn(ctx, nulJoin(paths), "update-index", "--add", "--remove", "-z", "--stdin")
	return err
}

// dedupe finds note ids present under two type directories (two machines
// moved a note to different types, or one moved it while the other edited
// it) and keeps one file per id: the later version, the other saved as a
// conflict note when it says something different.
func (s *syncer) dedupe(ctx context.Context, staged bool) error {
	// Untracked files count too: on adoption the local notes are not in the index yet.
	out, err := s.g.run(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	byID := map[string][]string{}
	seen := map[string]bool{}
	for _, p := range nulList(out) {
		if seen[p] {
			continue
		}
		seen[p] = true
		if id, ok := noteID(p); ok {
			byID[id] = append(byID[id], p)
		}
	}
	var touched []string
	for _, id := range sortedKeys(byID) {
		paths := byID[id]
		if len(paths) < 2 {
			continue
		}
		slices.Sort(paths)
		winPath := ""
		var win []byte
		for _, p := range paths {
			data, err := os.ReadFile(s.abs(p))
			if err != nil {
				continue
			}
			if winPath == "" {
				winPath, win = p, data
				continue
			}
			w, _ := pick(win, data)
			if !bytes.Equal(w, win) {
				winPath, win = p, data
			}
		}
		if winPath == "" {
			continue
		}
		for _, p := range paths {
			if p == winPath {
				continue
			}
			data, err := os.ReadFile(s.abs(p))
			if err == nil {
				cp, err := s.saveLoser(id, path.Dir(p), win, data)
				if err != nil {
					return err
				}
				if cp != "" {
					s.addConflict(id, cp, KindDuplicate)
					touched = append(touched, cp)
				}
			}
			if err := os.Remove(s.abs(p)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			touched = append(touched, p)
		}
	}
	if staged {
		return s.stage(ctx, touched)
	}
	return nil // adopt: the commit that follows stages everything
}
