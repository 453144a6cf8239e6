package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
)

// dirFor is the tree a scope lives in.
func (s *Store) dirFor(scope string) (base, prefix string) {
	return layout.Home(s.home).Tree(scope), layout.TreeName(scope)
}

// Option changes how Write and Put store one note.
type Option func(*options)

type options struct {
	keepSecrets bool
	redacted    *[]string
	byModel     string
}

// KeepSecrets stores title, body and tags as given, secrets included: a
// human keeping a value on purpose (anamnesis write --keep-secrets). It
// does not apply to a team's note.
func KeepSecrets(keep bool) Option { return func(o *options) { o.keepSecrets = keep } }

// Redacted receives the kinds of secret the write removed (empty when none),
// so every surface can say what it redacted without quoting it.
func Redacted(kinds *[]string) Option { return func(o *options) { o.redacted = kinds } }

// ByModel screens the note as a model's (SPEC 17), whatever provenance it
// records: MCP memory_write records a person's, as the seed does, but the
// text is the model's, and a model an untrusted page or repository steered
// must not plant an order in every later session. The note's file says so
// too: prov_model, when the caller names no model, records label (the
// surface the model wrote through), which the screen reads wherever the
// note is indexed again (another machine, a rebuild) and whenever its
// rules change (screen.Screened).
func ByModel(label string) Option { return func(o *options) { o.byModel = label } }

// Write creates a new note: fresh id, both timestamps now, defaults for empty
// fields, secrets redacted. It returns the note as written.
func (s *Store) Write(ctx context.Context, n *note.Note, opts ...Option) (*note.Note, error) {
	c := *n
	c.ID = note.NewID()
	now := note.Now()
	c.CreatedAt, c.UpdatedAt = now, now
	if c.Confidence == 0 {
		c.Confidence = 1.0 // a new note nobody rated
	}
	c.Tags = note.CleanTags(c.Tags) // typed by someone; Put keeps a note's tags as they are
	fillDefaults(&c)
	if err := s.save(ctx, &c, true, opts); err != nil {
		return nil, err
	}
	return &c, nil
}

// Put writes a note with a caller-chosen id, replacing any note with that id
// wherever it lives (another type or scope directory), and indexes it. n is
// updated to what was written (defaults, secrets redacted).
func (s *Store) Put(ctx context.Context, n *note.Note, opts ...Option) error {
	fillDefaults(n)
	if n.CreatedAt == "" {
		n.CreatedAt = note.Now()
	}
	if n.UpdatedAt == "" {
		n.UpdatedAt = n.CreatedAt
	}
	return s.save(ctx, n, false, opts)
}

// Clean is the one place every written note passes: the title becomes one
// line of printable text and, unless the caller keeps them on purpose,
// secrets in title, project key, body and tags are redacted before the file exists (a
// secret in memory/ reaches git and every machine with the next sync).
// Write, Put and WriteFileOnly call it; a caller comparing its text with a
// stored note calls it to see what the store would write.
func Clean(n *note.Note, opts ...Option) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	// A person's release of the text covers it cleaned (scrub, an edit of
	// the tags, a release under newer rules): without this the cleaned
	// text would be screened again and held, with nothing said.
	released := n.Team == "" && screen.Released(n)
	n.Title = note.OneLine(n.Title)
	n.Author = note.OneLine(n.Author)
	var kinds []string
	// A team's note reaches every member and the team's remote: its
	// secrets go whatever the caller asked (SPEC 18).
	if !o.keepSecrets || n.Team != "" {
		var k []string
		n.Title, kinds = redact.Redact(n.Title)
		n.Project, k = redact.Redact(n.Project)
		kinds = append(kinds, k...)
		n.Author, k = redact.Redact(n.Author)
		kinds = append(kinds, k...)
		n.Body, k = redact.Redact(n.Body)
		kinds = append(kinds, k...)
		for i, t := range n.Tags {
			n.Tags[i], k = redact.Redact(t)
			kinds = append(kinds, k...)
		}
		slices.Sort(kinds)
		kinds = slices.Compact(kinds)
	}
	if released && !screen.Released(n) {
		screen.CarryRelease(n)
	}
	if o.byModel != "" && n.ProvModel == "" {
		n.ProvModel = o.byModel
	}
	switch {
	case n.Team != "":
		screen.ApplyShared(n)
	case o.byModel != "":
		screen.ApplyModel(n)
	default:
		screen.Apply(n)
	}
	if o.redacted != nil {
		*o.redacted = kinds
	}
}

func fillDefaults(n *note.Note) {
	if n.Project == "" {
		n.Project = note.Global
	}
	if n.MachineID == "" {
		n.MachineID = "unknown"
	}
	if n.Scope == "" {
		n.Scope = note.Portable
	}
	if n.ProvSource == "" {
		n.ProvSource = note.ProvHuman
	}
	// Confidence is not defaulted here: a note read with confidence 0.0
	// keeps it when it is written back. Tags keep their spelling.
	n.Tags = note.UniqueTags(n.Tags)
	if n.Supersedes == nil {
		n.Supersedes = []string{}
	}
}

// encode validates n, checks the write limits every surface shares, and
// returns its file's bytes. save and WriteFileOnly check the body's limit
// before they clean the note too (the body as given), so a body over it is
// refused at once, not after seconds of redacting and screening; here the
// limits hold the text as cleaned (a redacted secret in a tag can bring it
// under the tag's limit; one in a body can lengthen it).
func encode(n *note.Note) ([]byte, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	if err := note.CheckLimits(n); err != nil {
		return nil, err
	}
	data := n.Marshal()
	if !utf8.Valid(data) {
		return nil, errors.New("note holds text that is not valid UTF-8")
	}
	if len(data) > note.MaxFile {
		return nil, fmt.Errorf("note is %d bytes, over the %d-byte limit", len(data), note.MaxFile)
	}
	// A note we could not read back is not written: the front-matter cap applies too.
	if front := len(data) - len(n.Body) - len("---\n---\n\n"); front > note.MaxFrontMatter {
		return nil, fmt.Errorf("front-matter is %d bytes, over the %d-byte limit (title, tags or project too long)", front, note.MaxFrontMatter)
	}
	return data, nil
}

// WriteFileOnly writes note n (a full note: id, timestamps and defaults set)
// to its file under home without opening the index, for a writer that must
// not lose a note when the index cannot be used (capture): the files are the
// truth and the next open or reindex indexes it. It returns the file's path
// relative to its tree (<type>/<id>.md).
func WriteFileOnly(home string, n *note.Note, opts ...Option) (string, error) {
	fillDefaults(n)
	if err := note.CheckBody(n.Body); err != nil {
		return "", err // before Clean, as save
	}
	Clean(n, opts...)
	data, err := encode(n)
	if err != nil {
		return "", err
	}
	s := &Store{home: home, memDir: layout.Home(home).Memory(), localDir: layout.Home(home).Local()}
	base, _ := s.dirFor(n.Scope)
	if info, err := os.Lstat(filepath.Join(base, n.Type)); err == nil && !info.IsDir() {
		return "", fmt.Errorf("%s is not a directory (symlinks are not followed); refusing to write note %s", filepath.Join(base, n.Type), n.ID)
	}
	rel := layout.NoteRel(n.Type, n.ID)
	if err := atomicfile.Write(filepath.Join(base, filepath.FromSlash(rel)), data, layout.FileMode); err != nil {
		return "", err
	}
	return rel, nil
}

// place is where save writes n (abs, and rel to home) and the files
// holding its id that it replaces. A note keeps the file it is in,
// whatever its name (a hand-written note need not be <id>.md), as long as
// it stays in that tree and type; every other file holding the id in the
// same kind of store goes.
//
// A file the index reports as a duplicate (a second file claiming the id,
// such as a hand copy changed in another tree) is another note's text that
// is nowhere else: it is neither removed nor written over (dup says save
// would write over it).
func (s *Store) place(ctx context.Context, n *note.Note) (abs, rel string, existing []fileInfo, dup bool) {
	base, prefix := s.treeDir(n.Scope, n.Team)
	existing = slices.DeleteFunc(s.filesOf(ctx, n.ID), func(f fileInfo) bool { return !sameTree(f, n.Team) })
	var dups []string
	if len(existing) > 1 {
		// Only then can a write remove a file or pick another's: an update
		// in place (every capture) asks nothing more of the index.
		existing = slices.DeleteFunc(existing, func(f fileInfo) bool {
			if s.reportedDuplicate(ctx, f.rel) {
				dups = append(dups, f.abs)
				return true
			}
			return false
		})
	}
	abs = filepath.Join(base, filepath.FromSlash(layout.NoteRel(n.Type, n.ID)))
	rel = prefix + "/" + layout.NoteRel(n.Type, n.ID)
	for _, f := range existing {
		if filepath.Dir(f.abs) == filepath.Join(base, n.Type) {
			return f.abs, f.rel, existing, false
		}
	}
	return abs, rel, existing, slices.Contains(dups, abs)
}

// reportedDuplicate reports whether the index recorded the file at rel as
// a duplicate id (see indexFileRows).
func (s *Store) reportedDuplicate(ctx context.Context, rel string) bool {
	var reason sql.NullString
	err := s.db.QueryRowContext(ctx, "SELECT error FROM files WHERE path = ?", rel).Scan(&reason)
	return err == nil && reason.Valid && strings.HasPrefix(reason.String, "duplicate id ")
}

// placement lists the files a Put of n changes: the one it writes and the
// copies of its id it removes.
func (s *Store) placement(ctx context.Context, n *note.Note) []string {
	abs, _, existing, _ := s.place(ctx, n)
	out := []string{abs}
	for _, f := range existing {
		if f.abs != abs {
			out = append(out, f.abs)
		}
	}
	return out
}

// save validates, writes the file atomically, removes copies of the same id
// elsewhere in the trees, and indexes it. Validation happens before any disk access.
func (s *Store) save(ctx context.Context, n *note.Note, fresh bool, opts []Option) error {
	if err := note.CheckBody(n.Body); err != nil {
		return err // before Clean, whose redactor and screen take seconds over a huge body
	}
	Clean(n, opts...)
	if n.Team != "" && screen.Held(n.Tags) && releasedHere(s.home, n) {
		screen.Unhold(n) // its text was released here (team.go)
	}
	data, err := encode(n)
	if err != nil {
		return err
	}
	if n.Team != "" {
		if !config.ValidTeamName(n.Team) {
			return fmt.Errorf("invalid team name %q", n.Team)
		}
		if n.Scope != note.Portable {
			return fmt.Errorf("a team's note is portable; scope %q cannot be shared", n.Scope)
		}
		if info, err := os.Lstat(s.TeamDir(n.Team)); err != nil || !info.IsDir() {
			return fmt.Errorf("team %q has no store at %s (anamnesis team add)", n.Team, s.TeamDir(n.Team))
		}
	}
	base, _ := s.treeDir(n.Scope, n.Team)
	if info, err := os.Lstat(filepath.Join(base, n.Type)); err == nil && !info.IsDir() {
		// A symlinked type directory would put the note outside the store,
		// where no reindex finds it again.
		return fmt.Errorf("%s is not a directory (symlinks are not followed); refusing to write note %s", filepath.Join(base, n.Type), n.ID)
	}
	abs, rel, existing, dup := s.place(ctx, n)
	if dup {
		return fmt.Errorf("%s holds another note with id %s (a duplicate the index reports); move it away or give it a new id first, so its text is not written over", abs, n.ID)
	}
	var old []byte
	if !fresh {
		old, _ = os.ReadFile(abs)
	}
	before := blockcache.Dirs(s.home)
	// The file is written, and synced (the disk's wait is often the
	// longest part of a write), while the note's rows go into the index;
	// the transaction commits only once the file is in place.
	written := make(chan error, 1)
	go func() { written <- atomicfile.Write(abs, data, layout.FileMode) }()
	var after string
	var info os.FileInfo
	var werr error
	// The copies removed below come back if the index does not take the
	// note: the new file goes then, and the note must still be somewhere.
	type copyOf struct {
		abs  string
		data []byte
	}
	var removed []copyOf
	wait := sync.OnceValue(func() error {
		if werr = <-written; werr != nil {
			return fmt.Errorf("write %s: %w", abs, werr)
		}
		// Taken at once: a copy removed below, in another directory,
		// leaves that directory to the next refresh.
		after = blockcache.Dirs(s.home)
		var err error
		info, err = os.Stat(abs)
		return err
	})
	err = s.inTx(ctx, before, &after, func(w *writer) error {
		if err := w.index(ctx, n, bodyPathOf(rel)); err != nil {
			return err
		}
		if err := wait(); err != nil {
			return err
		}
		for _, other := range existing {
			if other.abs == abs {
				continue
			}
			if data, err := os.ReadFile(other.abs); err == nil {
				removed = append(removed, copyOf{other.abs, data})
			}
			if err := os.Remove(other.abs); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if _, err := w.delFile.ExecContext(ctx, other.rel); err != nil {
				return err
			}
			if err := w.recordWrite(ctx, other.rel); err != nil {
				return err
			}
		}
		if err := w.recordWrite(ctx, rel); err != nil {
			return err
		}
		return w.file(ctx, n, fileInfo{rel: rel, abs: abs, scope: n.Scope, team: n.Team, size: info.Size(), mtime: info.ModTime().UnixNano()})
	})
	if err != nil {
		if wait(); werr != nil {
			return fmt.Errorf("write %s: %w", abs, werr) // the old file stays
		}
		// The index could not take it: leave the disk as it was.
		if old != nil {
			atomicfile.Write(abs, old, layout.FileMode)
		} else {
			os.Remove(abs)
		}
		for _, c := range removed {
			atomicfile.Write(c.abs, c.data, layout.FileMode)
		}
		return fmt.Errorf("index note %s: %w", n.ID, err)
	}
	s.wroteFile(abs, info)
	return nil
}

// inTx runs fn in a write transaction and tells the block cache what it
// changed (touched); *after is read once fn has run.
func (s *Store) inTx(ctx context.Context, before string, after *string, fn func(*writer) error) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	w, err := newWriter(ctx, s.home, tx)
	if err != nil {
		return err
	}
	defer w.close()
	if err := fn(w); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.touched(w.touched, before, *after)
	return nil
}

// candidates lists the existing files that could hold id: one per type and tree.
func (s *Store) candidates(id string) []fileInfo {
	var out []fileInfo
	for _, scope := range note.Scopes {
		_, prefix := s.dirFor(scope)
		for _, t := range note.Types {
			p := layout.Home(s.home).Note(scope, t, id)
			if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
				out = append(out, fileInfo{rel: prefix + "/" + layout.NoteRel(t, id), abs: p, scope: scope,
					size: info.Size(), mtime: info.ModTime().UnixNano()})
			}
		}
	}
	return out
}

// filesOf lists the files holding note id: <id>.md in any tree and type,
// and any other file the index knows carries the id (a hand-named note).
func (s *Store) filesOf(ctx context.Context, id string) []fileInfo {
	out := s.candidates(id)
	rows, err := s.db.QueryContext(ctx, "SELECT path FROM files WHERE id = ?", id)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var rel string
		if rows.Scan(&rel) != nil || slices.ContainsFunc(out, func(f fileInfo) bool { return f.rel == rel }) {
			continue
		}
		abs := filepath.Join(s.home, filepath.FromSlash(rel))
		info, err := os.Lstat(abs)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		out = append(out, teamFile(fileInfo{rel: rel, abs: abs, size: info.Size(), mtime: info.ModTime().UnixNano()}))
	}
	return out
}

// Path returns the file holding note id.
func (s *Store) Path(ctx context.Context, id string) (string, error) {
	f, err := s.locate(ctx, id)
	if err != nil {
		return "", err
	}
	return f.abs, nil
}

func (s *Store) locate(ctx context.Context, id string) (fileInfo, error) {
	if err := note.CheckID(id); err != nil {
		return fileInfo{}, err
	}
	var rel, tags string
	var size, mtime int64
	err := s.db.QueryRowContext(ctx, "SELECT path, size, mtime, coalesce(tags, '') FROM files WHERE id = ? AND error IS NULL", id).Scan(&rel, &size, &mtime, &tags)
	if err == nil {
		abs := filepath.Join(s.home, filepath.FromSlash(rel))
		if info, serr := os.Lstat(abs); serr == nil && info.Mode().IsRegular() {
			f := teamFile(fileInfo{rel: rel, abs: abs, size: info.Size(), mtime: info.ModTime().UnixNano()})
			if f.size == size && f.mtime == mtime && tags != "" && json.Unmarshal([]byte(tags), &f.indexed) != nil {
				f.indexed = nil
			}
			return f, nil
		}
	} else if !errors.Is(err, sql.ErrNoRows) {
		return fileInfo{}, err
	}
	// The index may lag the files (a pull, a hand edit): look where the id would live.
	if c := s.candidates(id); len(c) > 0 {
		return c[0], nil
	}
	return fileInfo{}, fmt.Errorf("%w: %s", ErrNotFound, id)
}

// Get reads note id from its markdown file; scope comes from the tree. It
// is screened as the index screens it, so a note held at index time reads
// as held (and keeps its hold when written back).
func (s *Store) Get(ctx context.Context, id string) (*note.Note, error) {
	f, err := s.locate(ctx, id)
	if err != nil {
		return nil, err
	}
	n, err := readFile(f)
	if err != nil {
		return nil, err
	}
	if !asIndexed(f, n) {
		screenRead(s.home, n)
	}
	return n, nil
}

// asIndexed gives n, read from f, the tags the index gave it when f is as
// it was indexed (same size and modification time before and after the
// read): the screen's result then, held tags included, without screening
// the same text again (a millisecond or more a note, on every block's
// render). A team's note, or a file changed since, is screened as it reads.
func asIndexed(f fileInfo, n *note.Note) bool {
	if f.indexed == nil || f.team != "" || !f.unchanged() {
		return false
	}
	n.Tags = f.indexed
	return true
}

// unchanged reports whether f's file still has the size and modification
// time f records (those indexed, where the caller set them).
func (f fileInfo) unchanged() bool {
	if f.size == 0 {
		return false // not recorded: a note file is never empty
	}
	info, err := os.Lstat(f.abs)
	return err == nil && info.Size() == f.size && info.ModTime().UnixNano() == f.mtime
}

// indexedAs records in f the size and modification time the index has for
// it, from filed ("SIZE MTIME PATH" of its row in files), when that row is
// f's file.
func (s *Store) indexedAs(f *fileInfo, filed string) {
	size, rest, _ := strings.Cut(filed, " ")
	mtime, rel, _ := strings.Cut(rest, " ")
	if filepath.Join(s.home, filepath.FromSlash(rel)) != f.abs {
		return
	}
	f.size, _ = strconv.ParseInt(size, 10, 64)
	f.mtime, _ = strconv.ParseInt(mtime, 10, 64)
}

// screenRead screens n, read from its file under home, as the index
// screens it: a team's note as another person's, with this machine's
// releases; any other by its provenance. Every read of a note's file that
// a surface may show (Get, a search hit) goes through it, so a file edited
// since it was indexed is held as the index will hold it.
func screenRead(home string, n *note.Note) {
	if n.Team != "" {
		screenTeam(home, n)
	} else {
		screen.Apply(n)
	}
}

// getFile is Get without the screen: the note as its file has it.
func (s *Store) getFile(ctx context.Context, id string) (*note.Note, error) {
	f, err := s.locate(ctx, id)
	if err != nil {
		return nil, err
	}
	return readFile(f)
}

// ErrNotHeld is returned by Release for a note the screen does not hold.
var ErrNotHeld = errors.New("note is not held")

// ErrHeld is returned for a search hit whose file reads as held: edited
// since it was indexed, it is left out as the index leaves out held notes.
var ErrHeld = errors.New("note is held by the screen")

// Release lifts the screen's hold on note id: a person has read it and lets
// it reach the model (pkg/screen records the release against its text).
// The note is written redacted, so the release covers the redacted text:
// a secret today's rules find in it (a session the reference captured, or
// one written under older rules) would otherwise change the text after the
// release was recorded, and the write would screen and hold it again.
// Redacted, among opts, receives what the release removed.
func (s *Store) Release(ctx context.Context, id string, opts ...Option) (*note.Note, error) {
	n, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if !screen.Held(n.Tags) {
		return nil, fmt.Errorf("%s: %w", id, ErrNotHeld)
	}
	if n.Team != "" {
		// Recorded on this machine, not in the team's file (team.go).
		if err := s.releaseTeam(ctx, n); err != nil {
			return nil, err
		}
		return n, nil
	}
	Clean(n, opts...) // held still: only redacts
	screen.Release(n)
	n.UpdatedAt = note.Now()
	if err := s.Put(ctx, n); err != nil {
		return nil, err
	}
	return n, nil
}

func readFile(f fileInfo) (*note.Note, error) {
	data, err := readRegular(f.abs)
	if err != nil {
		return nil, err
	}
	n, err := note.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.abs, err)
	}
	n.Scope, n.Team = f.scope, f.team
	// A hand edit may have put a newline or an escape sequence in the
	// title, the author or the machine id (see indexing).
	n.Title = note.OneLine(n.Title)
	n.Author, n.MachineID = note.OneLine(n.Author), note.OneLine(n.MachineID)
	return n, nil
}

// errNotRegular refuses a symlink (or device, FIFO) where a note file should be.
var errNotRegular = errors.New("not a regular file (symlinks are not followed)")

// Delete removes note id's file(s) and index rows.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := note.CheckID(id); err != nil {
		return err
	}
	found := s.filesOf(ctx, id)
	var inIndex int
	s.db.QueryRowContext(ctx, "SELECT count(*) FROM memories WHERE id = ?", id).Scan(&inIndex)
	if len(found) == 0 && inIndex == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	before := blockcache.Dirs(s.home)
	for _, f := range found {
		if err := os.Remove(f.abs); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	after := blockcache.Dirs(s.home)
	return s.inTx(ctx, before, &after, func(w *writer) error {
		if _, err := w.tx.ExecContext(ctx, "DELETE FROM files WHERE id = ?", id); err != nil {
			return err
		}
		for _, f := range found {
			if err := w.recordWrite(ctx, f.rel); err != nil {
				return err
			}
		}
		return w.dropID(ctx, id)
	})
}

// Filter narrows List and Search. Empty fields match everything.
type Filter struct {
	Project, Type, Scope, Machine, Prov, Tag string
	// AndGlobal widens Project to the global notes too.
	AndGlobal bool
	// Held selects the notes the screen holds (pkg/screen) instead of
	// leaving them out: every list and search leaves them out otherwise,
	// so no surface shows a held note to the model by accident.
	Held bool
	// Team selects one team's notes (SPEC 18); Teams adds every team's
	// notes to the personal ones. With neither, only personal notes match:
	// what works on a person's own notes (lifecycle, scrub, dedup) never
	// touches a team's.
	Team  string
	Teams bool
	// HideGlobalOf leaves out the global notes of these teams: a read made
	// for a project their --projects globs do not match
	// (config.HiddenGlobal).
	HideGlobalOf  []string
	Limit, Offset int
}

// projects are the projects f searches one after another: its project,
// and the global notes with AndGlobal; "" for every project.
func (f Filter) projects() []string {
	if f.AndGlobal && f.Project != "" && f.Project != note.Global {
		return []string{f.Project, note.Global}
	}
	return []string{f.Project}
}

func (f Filter) where(args *[]any) string {
	var b strings.Builder
	add := func(col, v string) {
		if v != "" {
			b.WriteString(" AND " + col + " = ?")
			*args = append(*args, v)
		}
	}
	if f.Project != "" && f.AndGlobal {
		b.WriteString(" AND m.project IN (?, ?)")
		*args = append(*args, f.Project, note.Global)
	} else {
		add("m.project", f.Project)
	}
	add("m.type", f.Type)
	add("m.scope", f.Scope)
	add("m.machine_id", f.Machine)
	add("m.prov_source", f.Prov)
	if f.Tag != "" {
		b.WriteString(" AND m.id IN (SELECT memory_id FROM memory_tags WHERE tag = ?)")
		*args = append(*args, f.Tag)
	}
	switch {
	case f.Team != "":
		add("m.team", f.Team)
	case !f.Teams:
		b.WriteString(" AND m.team IS NULL")
	}
	b.WriteString(hideGlobalOf(f.HideGlobalOf, args))
	if f.Held {
		b.WriteString(" AND m.id IN " + heldIDs)
	} else {
		// A probe per note (a list of every held note would be read whole
		// by each query), made in the held range of idx_tags_tag: through
		// the primary key, keyed by note id, each probe reads a page of its
		// own.
		b.WriteString(" AND NOT EXISTS (SELECT 1 FROM memory_tags INDEXED BY idx_tags_tag WHERE tag = '" + screen.Tag + "' AND memory_id = m.id)")
	}
	return b.String()
}

// hideGlobalOf is the condition leaving out the global notes of teams (a
// team whose --projects globs do not match the project asked about:
// config.HiddenGlobal), its arguments appended to args; "" for none.
func hideGlobalOf(teams []string, args *[]any) string {
	if len(teams) == 0 {
		return ""
	}
	for _, t := range teams {
		*args = append(*args, t)
	}
	return " AND NOT (m.project = 'global' AND coalesce(m.team, '') IN (?" + strings.Repeat(",?", len(teams)-1) + "))"
}

// notes is what f's notes are read from, as m: with f.Held, the held tags
// first, then each one's note (CROSS JOIN keeps that order). Walking f's
// scope and probing each note's tags instead read every note of a project,
// tens of thousands at a million, to find the few held.
func (f Filter) notes() string {
	if !f.Held {
		return "memories m"
	}
	return "memory_tags ht INDEXED BY idx_tags_tag CROSS JOIN memories m ON m.id = ht.memory_id AND ht.tag = '" + screen.Tag + "'"
}

// heldIDs are the notes the screen holds, by their tag.
const heldIDs = "(SELECT memory_id FROM memory_tags WHERE tag = '" + screen.Tag + "')"

const metaCols = `m.id, m.type, m.title, m.project, m.machine_id, m.scope, m.created_at, m.updated_at,
	m.prov_source, coalesce(m.prov_model,''), coalesce(m.prov_session,''), m.confidence,
	coalesce(f.tags,'[]'), f.path`

func scanMeta(rows *sql.Rows) (*note.Note, string, error) {
	n := &note.Note{}
	var tags, path string
	if err := rows.Scan(&n.ID, &n.Type, &n.Title, &n.Project, &n.MachineID, &n.Scope, &n.CreatedAt, &n.UpdatedAt,
		&n.ProvSource, &n.ProvModel, &n.ProvSession, &n.Confidence, &tags, &path); err != nil {
		return nil, "", err
	}
	json.Unmarshal([]byte(tags), &n.Tags)
	if n.Tags == nil {
		n.Tags = []string{}
	}
	n.Supersedes = []string{}
	_, n.Team = treeOf(path)
	return n, path, nil
}

// List returns notes newest first (updated_at, then id), without bodies.
// Superseded notes are included: the history stays browsable. A teammate's
// note carries its author (withAuthors).
func (s *Store) List(ctx context.Context, f Filter) ([]*note.Note, error) {
	notes, err := s.ListIndexed(ctx, f)
	if err != nil {
		return nil, err
	}
	s.withAuthors(ctx, notes)
	return notes, nil
}

// ListIndexed is List as the index holds the notes: a teammate's note
// without its author, which only its file has. For a caller that reads the
// notes it keeps anyway (inject's block), so no file is read twice.
func (s *Store) ListIndexed(ctx context.Context, f Filter) ([]*note.Note, error) {
	args := []any{}
	// CROSS JOIN keeps memories the outer loop, so the recency index serves
	// ORDER BY ... LIMIT without scanning and sorting every file row; the
	// held notes, which are few, are read from their tags first.
	q := "SELECT " + metaCols + " FROM " + f.notes() + " CROSS JOIN files f ON f.id = m.id AND f.error IS NULL WHERE 1=1" + f.where(&args) +
		" ORDER BY m.updated_at DESC, m.id DESC"
	if f.Limit > 0 || f.Offset > 0 {
		limit := f.Limit
		if limit <= 0 {
			limit = -1
		}
		q += limitClause(limit) + " OFFSET " + strconv.Itoa(f.Offset)
	}
	return s.queryMeta(ctx, q, args)
}

// withAuthors gives each teammate's note among notes its author, which the
// index does not keep: read from its file (Get, which screens a file
// edited since it was indexed). A note that reads as held gets none: its
// author may be what the screen holds (holdAttribution).
func (s *Store) withAuthors(ctx context.Context, notes []*note.Note) {
	for _, n := range notes {
		if n.Team == "" || n.Author != "" {
			continue
		}
		if g, err := s.Get(ctx, n.ID); err == nil && !screen.Held(g.Tags) {
			n.Author = g.Author
		}
	}
}

// queryMeta runs a query selecting metaCols and returns the notes, without bodies.
func (s *Store) queryMeta(ctx context.Context, q string, args []any) ([]*note.Note, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*note.Note{}
	for rows.Next() {
		n, _, err := scanMeta(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, s.fillSupersedes(ctx, out)
}

func (s *Store) fillSupersedes(ctx context.Context, notes []*note.Note) error {
	if len(notes) == 0 {
		return nil
	}
	byID := make(map[string]*note.Note, len(notes))
	for _, n := range notes {
		byID[n.ID] = n
	}
	rows, err := s.db.QueryContext(ctx, "SELECT memory_id, target FROM superseded")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, t string
		if err := rows.Scan(&id, &t); err != nil {
			return err
		}
		if n := byID[id]; n != nil {
			n.Supersedes = append(n.Supersedes, t)
		}
	}
	return rows.Err()
}

// Count returns how many notes match f.
func (s *Store) Count(ctx context.Context, f Filter) (int, error) {
	q, args := countSQL(f)
	var n int
	err := s.db.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, err
}

func countSQL(f Filter) (string, []any) {
	args := []any{}
	return "SELECT count(*) FROM " + f.notes() + " WHERE 1=1" + f.where(&args), args
}

// SupersededIDs returns every id some note names in supersedes.
func (s *Store) SupersededIDs(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT DISTINCT target FROM superseded")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out[t] = true
	}
	return out, rows.Err()
}

// SupersededBy returns the ids of notes that name id in their supersedes.
func (s *Store) SupersededBy(ctx context.Context, id string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT memory_id FROM superseded WHERE target = ? ORDER BY memory_id", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Stats are counts over the index.
type Stats struct {
	Total     int            `json:"total"`
	ByType    map[string]int `json:"by_type"`
	ByProject map[string]int `json:"by_project"`
	ByScope   map[string]int `json:"by_scope"`
	ByMachine map[string]int `json:"by_machine"`
	Problems  int            `json:"unreadable"`
}

// Stats counts notes by type, project, scope and machine, teammates'
// included, from note_counts: a few rows however many notes there are.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	st := Stats{ByType: map[string]int{}, ByProject: map[string]int{}, ByScope: map[string]int{}, ByMachine: map[string]int{}}
	rows, err := s.db.QueryContext(ctx, "SELECT project, type, scope, machine_id, n FROM note_counts WHERE n > 0")
	if err != nil {
		return st, err
	}
	defer rows.Close()
	for rows.Next() {
		var project, typ, scope, machine string
		var n int
		if err := rows.Scan(&project, &typ, &scope, &machine, &n); err != nil {
			return st, err
		}
		st.Total += n
		st.ByType[typ] += n
		st.ByProject[project] += n
		st.ByScope[scope] += n
		st.ByMachine[machine] += n
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM files WHERE error IS NOT NULL").Scan(&st.Problems)
	return st, err
}

// EachBody calls fn with the id and body of every indexed note of scope
// ("" for all), read from the full-text index (which holds bodies verbatim)
// rather than from thousands of files.
func (s *Store) EachBody(ctx context.Context, scope string, fn func(id, body string) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, f.body FROM memories m JOIN memories_fts f ON f.rowid = m.rowid
		WHERE ?1 = '' OR m.scope = ?1`, scope)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, body string
		if err := rows.Scan(&id, &body); err != nil {
			return err
		}
		if err := fn(id, body); err != nil {
			return err
		}
	}
	return rows.Err()
}
