package store

import (
	"os"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
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
