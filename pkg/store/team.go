package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
)

// teamNames lists the team stores under <home>/teams: directories (never
// symlinks) with a valid team name. A team's clone is indexed with the
// personal notes, each row carrying its team.
func (s *Store) teamNames() []string {
	entries, err := os.ReadDir(s.TeamsDir())
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Type()&os.ModeSymlink == 0 && config.ValidTeamName(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// treeOf says which tree a path relative to home is in: its scope and its
// team ("" for memory/ and local/).
func treeOf(rel string) (scope, team string) {
	if strings.HasPrefix(rel, "local/") {
		return note.MachineLocal, ""
	}
	if rest, ok := strings.CutPrefix(rel, "teams/"); ok {
		if i := strings.IndexByte(rest, '/'); i > 0 {
			return note.Portable, rest[:i]
		}
	}
	return note.Portable, ""
}

// bodyPathOf is the index's body_path of a file: its path inside its tree
// (<type>/<id>.md), whichever tree that is.
func bodyPathOf(rel string) string {
	_, team := treeOf(rel)
	if team != "" {
		return strings.TrimPrefix(rel, "teams/"+team+"/")
	}
	return rel[strings.IndexByte(rel, '/')+1:]
}

// treeDir is the directory and the home-relative prefix of the tree a note
// of scope and team is written to.
func (s *Store) treeDir(scope, team string) (base, prefix string) {
	if team != "" {
		return s.TeamDir(team), "teams/" + team
	}
	return s.dirFor(scope)
}

// sameTree reports whether f is in the tree of scope and team. A write
// replaces copies of its id in its own kind of store only: a personal
// write never removes a team's file, nor a team write a personal one.
func sameTree(f fileInfo, team string) bool {
	_, t := treeOf(f.rel)
	return t == team
}

// teamFile fills f's scope and team from its path.
func teamFile(f fileInfo) fileInfo {
	f.scope, f.team = treeOf(f.rel)
	return f
}

// A teammate's held note is released by a person on this machine only: the
// release is recorded in <home>/state/team-releases.json, machine-local and
// outside every team's clone, so no one with push access to a team can
// forge one (a released: tag inside a team's file does not count). A
// release covers what the person read and what decides where the note
// shows (releaseHash): any edit is screened again.
type teamRelease struct {
	Team  string `json:"team"`
	ID    string `json:"id"`
	Hash  string `json:"hash"`
	Title string `json:"title"`
	At    string `json:"at"`
}

// TeamReleasesPath is where home records the team notes released on it.
func TeamReleasesPath(home string) string { return layout.Home(home).State("team-releases.json") }

func loadReleases(home string) ([]teamRelease, error) {
	data, err := os.ReadFile(TeamReleasesPath(home))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rs []teamRelease
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, fmt.Errorf("%s: %w", TeamReleasesPath(home), err)
	}
	return rs, nil
}

// releaseHash names what a release of team note n covers: its type,
// project, title, body, author, machine id, tags (but the screen's own)
// and supersedes, hashed whole (a teammate writes both the released text
// and any later one, so a short hash could be matched by search, as
// screen.TextHash's 48 bits could).
func releaseHash(n *note.Note) string {
	h := sha256.New()
	parts := []string{n.Type, n.Project, n.Title, n.Body, n.Author, n.MachineID}
	parts = append(append(parts, teamTags(n)...), "")
	for _, s := range append(parts, n.Supersedes...) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// releasedHere reports whether a person on this machine released team note
// n's text.
func releasedHere(home string, n *note.Note) bool {
	rs, _ := loadReleases(home)
	h := releaseHash(n)
	for _, r := range rs {
		if r.Team == n.Team && r.ID == n.ID && r.Hash == h {
			return true
		}
	}
	return false
}

// screenTeam screens a team's note as another person's (screen.ApplyShared),
// its attribution too (holdAttribution), and lifts the hold when a person
// here released it. The record is read only for a note the screen holds.
func screenTeam(home string, n *note.Note) {
	if screen.ApplyShared(n) == "" {
		holdAttribution(n)
	}
	if screen.Held(n.Tags) && releasedHere(home, n) {
		screen.Unhold(n)
	}
}

// holdAttribution holds team note n when its author, machine id, project
// or tags trip the screen: a teammate writes them as freely as the title,
// inject and recall print the first two beside it ("(team NAME, by
// AUTHOR)", "origin: MACHINE"), and MCP's results carry all four. It
// reports whether it held n.
func holdAttribution(n *note.Note) bool {
	r := screen.Check(strings.Join(append([]string{n.Author, n.MachineID, n.Project}, teamTags(n)...), "\n"))
	if r != "" {
		n.Tags = append(n.Tags, screen.Tag, screen.ReasonPrefix+r)
	}
	return r != ""
}

// screenTeamFile is screenTeam for n, read from walked file f of a team's
// tree.
func screenTeamFile(f fileInfo, n *note.Note) {
	n.Team = f.team
	home := strings.TrimSuffix(strings.TrimSuffix(f.abs, filepath.FromSlash(f.rel)), string(filepath.Separator))
	screenTeam(home, n)
}

// teamTags are n's tags but those the screen and releases write.
func teamTags(n *note.Note) []string {
	var out []string
	for _, t := range n.Tags {
		if !screen.Own(t) {
			out = append(out, t)
		}
	}
	return out
}

// releaseTeam records that a person released team note n (held) and
// updates its row in the index; the team's file is not touched.
func (s *Store) releaseTeam(ctx context.Context, n *note.Note) error {
	before := blockcache.Dirs(s.home)
	f, err := s.locate(ctx, n.ID)
	if err != nil {
		return err
	}
	info, err := os.Lstat(f.abs)
	if err != nil {
		return err
	}
	f.size, f.mtime = info.Size(), info.ModTime().UnixNano()
	// The record is read and rewritten inside the index's write
	// transaction, which every process takes in turn: two releases at once
	// (the dashboard and the CLI) both stay recorded. The team's file is
	// not touched: no note directory changes.
	return s.inTx(ctx, before, &before, func(w *writer) error {
		rs, err := loadReleases(s.home)
		if err != nil {
			return err
		}
		rs = slices.DeleteFunc(rs, func(r teamRelease) bool { return r.Team == n.Team && r.ID == n.ID })
		rs = append(rs, teamRelease{Team: n.Team, ID: n.ID, Hash: releaseHash(n), Title: n.Title, At: note.Now()})
		data, err := json.MarshalIndent(rs, "", "  ")
		if err != nil {
			return err
		}
		if err := layout.MkdirAll(filepath.Dir(TeamReleasesPath(s.home))); err != nil {
			return err
		}
		if err := atomicfile.Write(TeamReleasesPath(s.home), append(data, '\n'), layout.FileMode); err != nil {
			return err
		}
		screen.Unhold(n)
		if err := w.index(ctx, n, bodyPathOf(f.rel)); err != nil {
			return err
		}
		return w.file(ctx, n, f)
	})
}
