package gitsync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Conflict kinds.
const (
	KindBoth      = "edited on both sides"
	KindDeleted   = "edited on one side, deleted on the other"
	KindDuplicate = "same id in two places"
)

// integrate brings origin/main into main. Git's merge machinery is not
// used: its rename and directory-rename guesses move, and even drop, whole
// files when notes change type on both sides. Instead the three trees (base,
// ours, theirs) are compared path by path, conflicts are resolved by the
// policy below, the result is committed with plumbing (write-tree,
// commit-tree) and checked out with a two-tree read-tree, which refuses to
// overwrite uncommitted work. No step ever leaves a merge in progress.
func (s *syncer) integrate(ctx context.Context) error {
	g := s.g
	behind, err := g.count(ctx, branchRef+".."+s.theirsRef())
	if err != nil {
		s.res.Detail = err.Error()
		return err
	}
	if behind == 0 && !s.takingRewrite() {
		return nil
	}
	for attempt := 0; ; attempt++ {
		nc, nid := len(s.res.Conflicts), len(s.res.ConflictIDs)
		err = s.mergeOnce(ctx)
		if err == nil {
			s.res.Pulled += behind
			if s.takingRewrite() {
				// Taken up: from now on the remote's main is the new one.
				g.run(ctx, "update-ref", "-d", rewriteRef)
				s.rewrittenFrom = ""
			}
			if s.rewrote != nil {
				s.rewrote.dropped = dropUnreachable(ctx, g) == nil
			}
			return nil
		}
		s.res.Conflicts, s.res.ConflictIDs = s.res.Conflicts[:nc], s.res.ConflictIDs[:nid]
		if attempt == 0 && blockedByWorktree(err) {
			// A note written since this sync committed, or changed by
			// hand in place (no writer recorded it), stands in the way:
			// commit every file and merge again.
			if cerr := s.commit(ctx, true); cerr != nil {
				return cerr
			}
			continue
		}
		s.res.Detail = "merge failed (local commits kept): " + err.Error()
		return err
	}
}

func blockedByWorktree(err error) bool {
	var ge *GitError
	if !errors.As(err, &ge) {
		return false
	}
	for _, m := range []string{"would be overwritten", "not uptodate", "not up to date"} {
		if strings.Contains(ge.Stderr, m) {
			return true
		}
	}
	return false
}

// entry is one file of a tree.
type entry struct{ mode, sha string }

// treeOf lists every file of a commit's tree ("" is the empty tree).
func (g *git) treeOf(ctx context.Context, rev string) (map[string]entry, error) {
	out := map[string]entry{}
	if rev == "" {
		return out, nil
	}
	text, err := g.run(ctx, "ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	for _, rec := range nulList(text) {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue // submodules and the like are not ours to merge
		}
		out[p] = entry{mode: f[0], sha: f[2]}
	}
	return out, nil
}

// blob reads one object.
func (g *git) blob(ctx context.Context, sha string) ([]byte, error) {
	out, err := g.run(ctx, "cat-file", "blob", sha)
	return []byte(out), err
}

// mergeOnce merges origin/main into main as described on integrate.
func (s *syncer) mergeOnce(ctx context.Context) error {
	g := s.g
	ours, err := g.rev(ctx, branchRef)
	if err != nil {
		return err
	}
	theirs, err := g.rev(ctx, s.theirsRef())
	if err != nil {
		return err
	}
	// The remote's main rewritten, or sharing no commit with ours: the old
	// history must not go back to it (a rewrite is how a team purges a
	// note). Ours is merged over what the remote held when this clone last
	// saw it (nothing, for an unrelated history), so only what changed here
	// since stays, and the result is committed on top of theirs alone.
	var rw *rewrite
	against := theirs
	if s.takingRewrite() {
		rw, against = &rewrite{known: true}, s.rewrittenFrom
	}
	base := ""
	if out, err := g.run(ctx, "merge-base", ours, against); err == nil {
		base = strings.TrimSpace(out)
	} else if exitCode(err) != 1 { // 1: no common commit: merged from an empty base
		return err
	} else if rw == nil && s.theirs == "" {
		rw = &rewrite{}
	}
	result := theirs // a fast-forward when ours is the base
	if rw != nil {
		if result, err = s.mergeTrees(ctx, base, ours, theirs, theirs); err != nil {
			return err
		}
		if same, _ := g.ok(ctx, "diff", "--quiet", result, theirs, "--"); same {
			result = theirs
		}
		if err := rw.count(ctx, g, ours, theirs, result); err != nil {
			return err
		}
	} else if base != ours {
		if result, err = s.mergeTrees(ctx, base, ours, theirs, ours, theirs); err != nil {
			return err
		}
	}
	// Working tree and index follow (refusing to overwrite uncommitted
	// work), then the branch: stopped in between, the next sync commits the
	// difference and merges again, losing nothing.
	g.run(ctx, "update-index", "-q", "--refresh") // stale stat data alone must not block the checkout
	if _, err := g.run(ctx, "read-tree", "-m", "-u", ours, result); err != nil {
		return err
	}
	if _, err = g.run(ctx, "update-ref", "-m", "anamnesis: sync", branchRef, result, ours); err == nil && rw != nil {
		s.rewrote = rw
	}
	return err
}

// takingRewrite reports whether the merge at hand takes up a rewrite of
// the remote's main (recorded by fetchOrigin).
func (s *syncer) takingRewrite() bool { return s.rewrittenFrom != "" && s.theirs == "" }

// count fills in what taking theirs up as result did to ours.
func (rw *rewrite) count(ctx context.Context, g *git, ours, theirs, result string) error {
	gone, err := g.run(ctx, "diff", "--name-only", "-z", "--no-renames", "--diff-filter=D", ours, result, "--")
	if err != nil {
		return err
	}
	for _, p := range nulList(gone) {
		if inTypeDir(p) {
			rw.removed++
		}
	}
	mine, err := g.run(ctx, "diff", "--name-only", "-z", "--no-renames", theirs, result, "--")
	rw.mine = len(nulList(mine))
	return err
}

// mergeTrees builds the merge of ours and theirs over base and commits it
// with parents.
func (s *syncer) mergeTrees(ctx context.Context, base, ours, theirs string, parents ...string) (string, error) {
	g := s.g
	bt, err := g.treeOf(ctx, base)
	if err != nil {
		return "", err
	}
	ot, err := g.treeOf(ctx, ours)
	if err != nil {
		return "", err
	}
	tt, err := g.treeOf(ctx, theirs)
	if err != nil {
		return "", err
	}
	v := &treeView{g: g, ctx: ctx, files: maps.Clone(ot)}
	paths := map[string]bool{}
	for _, m := range []map[string]entry{bt, ot, tt} {
		for p := range m {
			paths[p] = true
		}
	}
	for _, p := range sortedKeys(paths) {
		b, bok := bt[p]
		o, ook := ot[p]
		t, tok := tt[p]
		switch {
		case ook == tok && o == t: // the same on both sides
		case bok == ook && b == o: // only theirs changed it
			if tok {
				v.files[p] = t
			} else {
				delete(v.files, p)
			}
		case bok == tok && b == t: // only ours changed it
		case ook && tok: // changed on both sides
			od, err := g.blob(ctx, o.sha)
			if err != nil {
				return "", err
			}
			td, err := g.blob(ctx, t.sha)
			if err != nil {
				return "", err
			}
			if err := s.resolveBoth(v, p, od, td); err != nil {
				return "", fmt.Errorf("resolving %s: %w", p, err)
			}
		default: // changed on one side, deleted on the other: the change stays
			if tok {
				v.files[p] = t
			}
			if id, ok := noteIDOf(v, p); ok {
				s.addConflict(id, "", KindDeleted)
			}
		}
	}
	if err := s.dedupe(v); err != nil {
		return "", err
	}
	tree, err := v.writeTree()
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", tree, "-m", Message(s.o.MachineID)}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	out, err := g.run(ctx, args...)
	return strings.TrimSpace(out), err
}

// view is where a resolution reads and writes files: a tree being merged,
// or the working tree during adoption.
type view interface {
	paths() []string
	read(p string) ([]byte, error)
	write(p string, data []byte) error
	remove(p string) error
}

// treeView is a merge result held as path -> blob.
type treeView struct {
	g     *git
	ctx   context.Context
	files map[string]entry
}

func (v *treeView) paths() []string { return sortedKeys(v.files) }

func (v *treeView) read(p string) ([]byte, error) {
	e, ok := v.files[p]
	if !ok {
		return nil, os.ErrNotExist
	}
	return v.g.blob(v.ctx, e.sha)
}

func (v *treeView) write(p string, data []byte) error {
	out, err := v.g.runIn(v.ctx, bytes.NewReader(data), "hash-object", "-w", "--stdin")
	if err != nil {
		return err
	}
	v.files[p] = entry{mode: "100644", sha: strings.TrimSpace(out)}
	return nil
}

func (v *treeView) remove(p string) error {
	delete(v.files, p)
	return nil
}

// writeTree stores the view as a tree object, through a private index file,
// so the repository's own index is untouched until the checkout.
func (v *treeView) writeTree() (string, error) {
	dir, err := os.MkdirTemp("", "anamnesis-merge-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	g := *v.g
	g.indexFile = filepath.Join(dir, "index")
	var b bytes.Buffer
	for _, p := range v.paths() {
		e := v.files[p]
		fmt.Fprintf(&b, "%s %s\t%s\x00", e.mode, e.sha, p)
	}
	if _, err := g.runIn(v.ctx, &b, "update-index", "-z", "--index-info"); err != nil {
		return "", err
	}
	out, err := g.run(v.ctx, "write-tree")
	return strings.TrimSpace(out), err
}

// workView is the working tree (adoption, before the first commit).
type workView struct {
	s     *syncer
	files []string
}

func (v *workView) paths() []string { return v.files }

func (v *workView) read(p string) ([]byte, error) { return os.ReadFile(v.s.abs(p)) }

func (v *workView) write(p string, data []byte) error {
	if !slices.Contains(v.files, p) {
		v.files = append(v.files, p)
	}
	return atomicfile.Write(v.s.abs(p), data, layout.FileMode)
}

func (v *workView) remove(p string) error {
	v.files = slices.DeleteFunc(v.files, func(x string) bool { return x == p })
	if err := os.Remove(v.s.abs(p)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// adopt makes the remote's history (theirsRef) this repository's (which has
// no commit yet) without losing a file in the working tree: the remote's files are
// checked out where nothing is, and a local note that differs from the
// remote's note of the same path goes through the conflict policy. It
// returns how many commits it pulled.
func (s *syncer) adopt(ctx context.Context) (int, error) {
	g := s.g
	tip, err := g.rev(ctx, s.theirsRef())
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
	out, err = g.run(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return 0, err
	}
	v := &workView{s: s, files: uniq(nulList(out))}
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
		if err := s.resolveBoth(v, p, local, []byte(remote)); err != nil {
			return 0, fmt.Errorf("resolving %s: %w", p, err)
		}
	}
	if err := s.dedupe(v); err != nil {
		return 0, err
	}
	if _, err := g.run(ctx, "update-ref", branchRef, tip, zeroHash); err != nil {
		return 0, err
	}
	return g.count(ctx, branchRef)
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
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

// resolveBoth settles a path both sides changed: a note keeps the later
// version in place and the other as a new conflict note; .gitignore takes
// both sides' lines; any other file keeps ours.
func (s *syncer) resolveBoth(v view, p string, ours, theirs []byte) error {
	if bytes.Equal(ours, theirs) {
		return v.write(p, ours)
	}
	id, isNote := noteID(p)
	if !isNote && inTypeDir(p) {
		// A hand-written note need not be named <id>.md: its front-matter
		// says which note it is, and its versions conflict like any note's.
		id, isNote = idIn(ours)
		if !isNote {
			id, isNote = idIn(theirs)
		}
	}
	if !isNote {
		if path.Base(p) == ".gitignore" {
			return v.write(p, unionLines(ours, theirs))
		}
		return v.write(p, ours)
	}
	win, lose := pick(ours, theirs)
	if err := v.write(p, win); err != nil {
		return err
	}
	cp, err := s.saveLoser(v, id, path.Dir(p), win, lose)
	if err != nil {
		return err
	}
	if cp != "" {
		// Versions that say the same thing (timestamps or machine aside)
		// are not a conflict anyone needs to look at.
		s.addConflict(id, cp, KindBoth)
	}
	return nil
}

// saveLoser writes the losing version of note id as a new note tagged
// conflict, unless it says the same as the winner. It returns the new file's
// repository path, "" when nothing was written.
func (s *syncer) saveLoser(v view, id, typ string, win, lose []byte) (string, error) {
	wn, werr := note.Parse(win)
	ln, lerr := note.Parse(lose)
	if werr == nil && lerr == nil && sameText(wn, ln) {
		return "", nil
	}
	c, err := s.loserNote(id, typ, lose, ln, lerr)
	if err != nil {
		// It parses but is not a valid note as it stands (a prov_source
		// another tool or a hand edit wrote): its text is kept whole as an
		// unreadable version's is, and the merge goes on.
		c, err = s.loserNote(id, typ, lose, ln, err)
	}
	if err != nil {
		return "", fmt.Errorf("conflict copy of %s: %w", id, err)
	}
	rel := c.Type + "/" + c.ID + ".md"
	if err := v.write(rel, c.Marshal()); err != nil {
		return "", err
	}
	return rel, nil
}

// loserNote is the conflict note holding lose, the losing version of note
// id in type directory typ: ln is lose parsed (nil when it does not parse),
// lerr why it cannot be kept as it is. The copy keeps the losing version's
// provenance, so a model's or a captured session's text is screened
// (SPEC 17) as its own note would have been.
func (s *syncer) loserNote(id, typ string, lose []byte, ln *note.Note, lerr error) (*note.Note, error) {
	var c *note.Note
	if lerr == nil {
		cp := *ln
		c = &cp
		c.Tags = append(slices.DeleteFunc(slices.Clone(ln.Tags), func(t string) bool { return t == "conflict" }), "conflict")
		// No machine name or time here: two machines merging the same
		// conflict at once must write the same bytes (see copyID).
		c.Body = fmt.Sprintf("Conflicting version of note %s: another machine's edit was newer and kept that id; this version was saved by sync.\n\n%s",
			id, ln.Body)
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
		c.ProvSource, c.ProvModel, c.ProvSession = unknownProv(ln)
		c.Author = authorOf(ln, lose)
		now := note.Now()
		c.CreatedAt, c.UpdatedAt = now, now
	}
	var at time.Time // an unreadable version has no time of its own
	if lerr == nil {
		at = parseTime(ln.UpdatedAt)
	}
	c.ID = copyID(id, lose, at)
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
	return c, c.Validate()
}

// unknownProv is the provenance of a conflict copy holding a version that
// could not be kept as a note: the version's own when it parsed and names
// one, else prov_source merge (a model's, SPEC 17). Whoever wrote text that
// cannot be read is unknown, and the sync's copy is never a person's own
// note: marked human, a model's or a teammate's words would skip the screen.
func unknownProv(ln *note.Note) (source, model, session string) {
	if ln != nil && slices.Contains(note.ProvSources, ln.ProvSource) {
		return ln.ProvSource, ln.ProvModel, ln.ProvSession
	}
	return note.ProvMerge, "", ""
}

// authorOf is who the losing version of a team's note says wrote it, for
// the conflict copy that keeps its text: the author it names when it
// parsed, else the author line of its front-matter, read line by line
// (every member's context shows "(team NAME, by AUTHOR)" beside the copy,
// and "unknown" there hid a name the version gives). A team note's author
// is the file's word in any case; the screen reads it as it reads the
// text. "" when the version names none (and for a personal note).
func authorOf(ln *note.Note, lose []byte) string {
	if ln != nil {
		return ln.Author
	}
	text := strings.ReplaceAll(string(lose), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return ""
	}
	for _, line := range strings.Split(rest, "\n") {
		if line == "---" {
			break
		}
		if v, ok := strings.CutPrefix(line, "author:"); ok {
			return note.OneLine(strings.Trim(strings.TrimSpace(v), `"'`))
		}
	}
	return ""
}

// copyID names the conflict copy of one losing version of note id: the
// same on every machine (a hash of the id and the version's bytes, the
// version's own time for ULID order), so two machines that merge the same
// conflict at once write the same file and the next merge sees one copy,
// not two.
func copyID(id string, lose []byte, at time.Time) string {
	sum := sha256.Sum256(append([]byte("anamnesis-conflict\x00"+id+"\x00"), lose...))
	if at.Before(time.Unix(0, 0)) || at.After(time.Now().Add(100*365*24*time.Hour)) {
		at = time.Unix(0, 0)
	}
	u, err := ulid.New(ulid.Timestamp(at), bytes.NewReader(sum[:10]))
	if err != nil {
		return note.NewID()
	}
	return u.String()
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

// noteID returns the id of a repository path of the form <type>/<id>.md
// when the name is ULID-shaped, as every id this code and the reference make
// is. Any other name (deploy-notes.md) may be a hand-written note whose
// front-matter names its id: noteIDOf reads it.
func noteID(p string) (string, bool) {
	if !inTypeDir(p) {
		return "", false
	}
	id := strings.TrimSuffix(path.Base(p), ".md")
	_, err := ulid.ParseStrict(id)
	return id, err == nil
}

// inTypeDir reports whether p is a .md file directly under a type directory.
func inTypeDir(p string) bool {
	dir, file := path.Split(p)
	return slices.Contains(note.Types, strings.TrimSuffix(dir, "/")) && strings.HasSuffix(file, ".md")
}

// idIn is the id a note file's front-matter names.
func idIn(data []byte) (string, bool) {
	n, err := note.Parse(data)
	if err != nil || !note.ValidID(n.ID) {
		return "", false
	}
	return n.ID, true
}

// noteIDOf is the id of the note at p: from its name (<type>/<id>.md) or,
// for a hand-named file in a type directory, from its front-matter.
func noteIDOf(v view, p string) (string, bool) {
	if id, ok := noteID(p); ok {
		return id, true
	}
	if !inTypeDir(p) {
		return "", false
	}
	data, err := v.read(p)
	if err != nil {
		return "", false
	}
	return idIn(data)
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

// dedupe finds note ids present under two type directories (two machines
// moved a note to different types, or one moved it while the other edited
// it) and keeps one file per id: the later version, the other saved as a
// conflict note when it says something different.
func (s *syncer) dedupe(v view) error {
	byID := map[string][]string{}
	for _, p := range v.paths() {
		if id, ok := noteIDOf(v, p); ok {
			byID[id] = append(byID[id], p)
		}
	}
	for _, id := range sortedKeys(byID) {
		paths := byID[id]
		if len(paths) < 2 {
			continue
		}
		slices.Sort(paths)
		winPath := ""
		var win []byte
		for _, p := range paths {
			data, err := v.read(p)
			if err != nil {
				continue
			}
			if winPath == "" {
				winPath, win = p, data
				continue
			}
			if w, _ := pick(win, data); !bytes.Equal(w, win) {
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
			if data, err := v.read(p); err == nil {
				cp, err := s.saveLoser(v, id, path.Dir(p), win, data)
				if err != nil {
					return err
				}
				if cp != "" {
					s.addConflict(id, cp, KindDuplicate)
				}
			}
			if err := v.remove(p); err != nil {
				return err
			}
		}
	}
	return nil
}
