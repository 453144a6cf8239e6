// Package team is team memory on a plain git remote (SPEC 18): joining and
// leaving a team, and the one rule every surface (CLI write, MCP
// memory_write, the dashboard's share) follows to put a note in a team's
// store. The team's notes live in <home>/teams/NAME, a clone of its remote
// that anamnesis-sync keeps (pkg/gitsync); the index holds them with their
// team (pkg/store).
package team

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// ErrUnknown is returned for a team this person has not joined.
var ErrUnknown = errors.New("no such team")

// Check validates what team add is given, before anything changes.
func Check(t config.Team) error {
	if err := config.CheckNewTeamName(t.Name); err != nil {
		return err
	}
	if t.URL == "" {
		return errors.New("team URL is empty")
	}
	if err := gitsync.CheckRemote(t.URL); err != nil {
		return err
	}
	for _, g := range t.Projects {
		if err := config.CheckProjectGlob(g); err != nil {
			return err
		}
	}
	return nil
}

// Add records team t in config.json and makes its store directory. It
// refuses a name already joined, a repository another team or the
// personal store syncs with, and a directory that is already there (left
// by another tool or a team removed with its notes kept).
func Add(home string, t config.Team) error {
	if err := Check(t); err != nil {
		return err
	}
	f, err := config.Load(home)
	if err != nil {
		return fmt.Errorf("config.json cannot be read (%v); fix it first, nothing was changed", err)
	}
	for _, have := range f.Teams() {
		if have.Name == t.Name {
			return fmt.Errorf("team %s is already joined (its remote is %s); anamnesis team remove %s first", t.Name, gitsync.MaskURL(have.URL), t.Name)
		}
		// A second clone of one repository holds every note twice: each
		// id in two files, none of them readable.
		if gitsync.SameRepo(have.URL, t.URL) {
			return fmt.Errorf("team %s already syncs %s (one team per repository); nothing was changed", have.Name, gitsync.MaskURL(t.URL))
		}
	}
	// Personal notes never reach a team's remote (SPEC 18), nor a team's
	// notes the personal one.
	if personal, _ := f.Get("remote"); gitsync.SameRepo(personal, t.URL) {
		return fmt.Errorf("%s is your personal remote (anamnesis config get remote): a team needs a repository of its own; nothing was changed", gitsync.MaskURL(t.URL))
	}
	dir := layout.Home(home).Team(t.Name)
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("%s already exists; move it away first (nothing was changed)", dir)
	}
	if err := layout.MkdirAll(dir); err != nil {
		return err
	}
	f.SetTeam(t)
	if err := f.Save(); err != nil {
		os.Remove(dir)
		return err
	}
	blockcache.Clear(home) // a project's block may now hold the team's notes
	return nil
}

// Before is what a home held before an Add that Abandon may have to take
// back: whether config.json was there, and which of the home's lock files
// were not (the first fetch takes the sync and commit locks, creating
// their files).
type Before struct {
	config bool
	locks  []string // lock files the home did not have
}

// Snapshot records what home holds before an Add.
func Snapshot(home string) Before {
	var b Before
	if _, err := os.Lstat(config.Path(home)); err == nil {
		b.config = true
	}
	// The commit lock first: whoever holds both took the sync lock first,
	// and Abandon takes them one at a time in this order.
	for _, p := range []string{gitsync.CommitLockPath(home), gitsync.LockPath(home)} {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			b.locks = append(b.locks, p)
		}
	}
	return b
}

// Abandon takes back an Add whose first fetch failed: the team leaves as a
// forced Remove makes it leave, config.json goes too when it was not there
// before the Add and holds nothing now, and so do the lock files the fetch
// created, so the home is as it was.
func Abandon(ctx context.Context, st *store.Store, name string, before Before) error {
	if err := Remove(ctx, st, name, true); err != nil {
		return err
	}
	if f, err := config.Load(st.Home()); err == nil && !before.config && f.Empty() {
		if err := os.Remove(config.Path(st.Home())); err != nil {
			return err
		}
	}
	for _, p := range before.locks {
		if err := gitsync.RemoveLock(ctx, p, removeLockWait); err != nil {
			return err
		}
	}
	return nil
}

// removeLockWait is how long Remove waits for a running sync to end.
const removeLockWait = 60 * time.Second

// Remove leaves team name: its entry in config.json, its clone and its
// notes in the index go. Notes not yet on the remote (or, in review mode,
// on a proposal branch) make it refuse unless force is set.
func Remove(ctx context.Context, st *store.Store, name string, force bool) error {
	if err := config.CheckTeamName(name); err != nil {
		return err
	}
	// No sync may push, merge or clone the team while it goes.
	release, err := gitsync.Hold(ctx, gitsync.LockPath(st.Home()), removeLockWait)
	if err != nil {
		return fmt.Errorf("a sync of this home is running (%v); nothing was changed: try again when it ends", err)
	}
	defer release()
	f, err := config.Load(st.Home())
	if err != nil {
		return fmt.Errorf("config.json cannot be read (%v); fix it first, nothing was changed", err)
	}
	known := false
	for _, t := range f.Teams() {
		known = known || t.Name == name
	}
	dir := st.TeamDir(name)
	_, statErr := os.Lstat(dir)
	if !known && statErr != nil {
		return fmt.Errorf("%w: %s (anamnesis team list)", ErrUnknown, name)
	}
	if statErr == nil && !force {
		n, err := gitsync.Unpushed(ctx, st, name)
		if err != nil {
			return fmt.Errorf("cannot tell whether team %s has unpushed notes (%v); --force removes it anyway", name, err)
		}
		if n > 0 && readOnly(st.Home(), name) {
			// A sync never publishes them: the remote refuses this member.
			return fmt.Errorf("team %s has %d unpushed change(s) of yours that its remote refuses (you may only read it), so no sync will publish them; ask a member who can write to add them, or --force to drop them", name, n)
		}
		if n > 0 {
			return fmt.Errorf("team %s has %d unpushed change(s) (notes or commits the remote lacks); run anamnesis-sync first, or --force to drop them", name, n)
		}
	}
	if known {
		f.RemoveTeam(name)
		if err := f.Save(); err != nil {
			return err
		}
	}
	if statErr == nil {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		os.Remove(filepath.Dir(dir)) // teams/, when it was the last one (fails otherwise)
	}
	gitsync.ForgetTeam(st.Home(), name)
	if _, err := st.Reindex(ctx, false); err != nil {
		return err
	}
	blockcache.Clear(st.Home())
	return nil
}

// readOnly reports whether the last sync of home found team name's remote
// refusing this member's pushes.
func readOnly(home, name string) bool {
	l := gitsync.Last(home)
	if l == nil {
		return false
	}
	for _, t := range l.Result.Teams {
		if t.Name == name {
			return t.ReadOnly
		}
	}
	return false
}

// Deletion says what deleting one of team name's notes here does, for
// every surface that deletes one (rm, the dashboard's delete page and its
// message): the next sync deletes it for every member; in review mode it
// proposes the deletion on this member's proposal branch; when the team's
// remote refused this member's last push (they may only read it), the
// other members keep it. The team's git history keeps the text either way.
func Deletion(ctx context.Context, cfg config.Config, name string) string {
	if t, ok := cfg.Team(name); ok && t.Review {
		return "the next sync proposes its deletion on " + gitsync.ProposalBranch(gitsync.Author(ctx, cfg.Author, cfg.MachineID)) +
			"; members lose it once a reviewer accepts it (the team's git history keeps it)"
	}
	if readOnly(cfg.Home, name) {
		return "team " + name + "'s remote refuses your changes (you may only read it), so the other members keep it; it is gone from this machine only"
	}
	return "every member loses it at their next sync (the team's git history keeps it)"
}

// Joined returns an error naming the way to join when name is not a team
// this person joined (or not a team name at all).
func Joined(cfg config.Config, name string) error {
	if err := config.CheckTeamName(name); err != nil {
		return err
	}
	if _, ok := cfg.Team(name); !ok {
		return fmt.Errorf("%w: %s (join it with anamnesis team add %s URL)", ErrUnknown, name, name)
	}
	return nil
}

// Prepare makes n a note of team name: it must be a team this person
// joined, the note portable (a machine-local note is not shared), and it
// carries the author. The store redacts and screens it as it writes.
func Prepare(ctx context.Context, cfg config.Config, n *note.Note, name string) error {
	if err := Joined(cfg, name); err != nil {
		return err
	}
	if n.Scope != "" && n.Scope != note.Portable {
		return fmt.Errorf("a machine-local note cannot be written to team %s (team notes are portable)", name)
	}
	n.Scope, n.Team = note.Portable, name
	n.Author = gitsync.Author(ctx, cfg.Author, cfg.MachineID)
	return nil
}

// HeldNotice is what every team write surface (write --team, MCP
// memory_write with team, the dashboard's share and edit of a team note)
// tells the writer when the screen held the note n it wrote: the write
// goes through (nothing is lost), but every member's store screens a
// team's note as another person's (SPEC 17, 18) and holds this one out of
// their model's context, so the writer learns it now, with the reason,
// rather than from a teammate. "" when n is not a held team note.
func HeldNotice(n *note.Note) string {
	if n.Team == "" || !screen.Held(n.Tags) {
		return ""
	}
	return fmt.Sprintf("team %s's memory holds note %s: it %s, so no member's model sees it, yours neither, until a person releases it (anamnesis release %s lets it through on your machine alone); rewritten as knowledge rather than an instruction, it reaches the team",
		n.Team, n.ID, screen.Describe(screen.Reason(n.Tags)), n.ID)
}

// Edit makes n, this person's edit of team note base, a note of base's
// team written by them. A team note's author is who wrote it as it stands:
// every member's context shows "(team NAME, by AUTHOR)" beside its text,
// and a teammate's name under words they did not write misleads whoever
// weighs the note by its author; the version they wrote, with their name,
// stays in the team's git history. A save that changes nothing a reader
// sees keeps the author. The edit is screened anew, as every member's
// index screens it: the screen's tags the form carried over (held, a
// reason, a release) are dropped, so a held note its author rewrote clean
// is no longer held, and one still giving orders is held again. A personal
// note (base.Team "") is left alone.
func Edit(ctx context.Context, cfg config.Config, n, base *note.Note) error {
	if base.Team == "" {
		return nil
	}
	n.Team, n.Author = base.Team, base.Author
	if n.Title == base.Title && n.Body == base.Body && n.Type == base.Type && n.Project == base.Project &&
		n.Scope == base.Scope && slices.Equal(n.Tags, base.Tags) {
		return nil
	}
	n.Tags = slices.DeleteFunc(n.Tags, screen.Own)
	return Prepare(ctx, cfg, n, base.Team)
}

// Share copies personal note src into team name as a new note (new id, a
// line naming nothing of the personal store), redacted and screened again
// by the store's write; the personal note is untouched. A machine-local
// note is not shared, as Prepare refuses one: what is true only on this
// machine never leaves it, not even for the user's other machines.
func Share(ctx context.Context, st *store.Store, cfg config.Config, src *note.Note, name string, opts ...store.Option) (*note.Note, error) {
	if src.Team != "" {
		return nil, fmt.Errorf("note %s is already team %s's", src.ID, src.Team)
	}
	c := note.New(src.Type, src.Title, src.Body)
	c.Scope = src.Scope // Prepare refuses a machine-local one
	c.Project, c.MachineID, c.ProvSource, c.ProvModel = src.Project, cfg.MachineID, src.ProvSource, src.ProvModel
	c.Confidence = src.Confidence
	for _, t := range src.Tags {
		// The screen's tags are per store: the team's copy is screened anew.
		if !screen.Own(t) {
			c.Tags = append(c.Tags, t)
		}
	}
	if err := Prepare(ctx, cfg, c, name); err != nil {
		return nil, err
	}
	if id, err := holding(ctx, st, c); err != nil {
		return nil, err
	} else if id != "" {
		return nil, fmt.Errorf("team %s already holds this note as %s (shared before?): nothing shared", name, id)
	}
	return st.Write(ctx, c, opts...)
}

// holding is the id of a note of c's team that says what c says as the
// store would write it (redacted), "" when none does: a second share of
// one note (a form sent twice) would give every member the same text twice.
func holding(ctx context.Context, st *store.Store, c *note.Note) (string, error) {
	w := *c
	w.Tags = slices.Clone(c.Tags)
	store.Clean(&w)
	ns, err := st.ListIndexed(ctx, store.Filter{Team: c.Team, Project: w.Project, Type: c.Type})
	if err != nil {
		return "", err
	}
	for _, n := range ns {
		if n.Title != w.Title {
			continue
		}
		if full, err := st.Get(ctx, n.ID); err == nil && full.TextKey() == w.TextKey() {
			return n.ID, nil
		}
	}
	return "", nil
}
