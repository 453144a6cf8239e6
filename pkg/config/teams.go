package config

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// Team is one team store a person joined (SPEC 18), as config.json keeps it
// under "teams": {"NAME": {"url": …, "projects": […], "review": true}}.
type Team struct {
	Name string `json:"-"`
	URL  string `json:"url"`
	// Projects are the project-key globs (path.Match) the team's global
	// notes are shown in; none means every project.
	Projects []string `json:"projects,omitempty"`
	// Review sends this member's team notes to proposals/<author> instead of main.
	Review bool `json:"review,omitempty"`
}

// teamsKey holds the teams in config.json.
const teamsKey = "teams"

// AuthorKey is the config.json key naming the author of this person's team
// notes (else their git identity, else the machine id).
const AuthorKey = "author"

// ValidTeamName reports whether name can name a team: it becomes one path
// segment (<home>/teams/NAME), a git ref segment (never) and a flag-free
// argument, so 1-64 of [a-z0-9._-], starting with a letter or digit, and
// not ending in ".lock" or holding "..".
func ValidTeamName(name string) bool {
	if name == "" || len(name) > 64 || strings.Contains(name, "..") || strings.HasSuffix(name, ".lock") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !ok && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// CheckTeamName is ValidTeamName as an error that says what is allowed.
func CheckTeamName(name string) error {
	if !ValidTeamName(name) {
		return fmt.Errorf("team name %q: use 1-64 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// CheckNewTeamName is CheckTeamName for a team being joined: the name also
// makes the directory teams/NAME, which Windows cannot make for a device
// name (con, nul, aux, prn, com1-9, lpt1-9, with or without an extension)
// and makes without a trailing '.', so "plat." would be cloned into
// teams\plat and its notes indexed under another team's name. Refused on
// every system, so a name works on each of the user's machines. Names
// already in config.json stay readable (and removable) as they are.
func CheckNewTeamName(name string) error {
	if err := CheckTeamName(name); err != nil {
		return err
	}
	if strings.HasSuffix(name, ".") {
		return fmt.Errorf("team name %q ends with '.', which Windows drops from a directory name; leave it out", name)
	}
	if layout.WindowsDevice(name) {
		return fmt.Errorf("team name %q is a device name on Windows (no directory teams/%s can be made there); choose another", name, name)
	}
	return nil
}

// CheckProjectGlob refuses a glob path.Match cannot use.
func CheckProjectGlob(g string) error {
	if g == "" || strings.ContainsAny(g, "\n\r\x00") {
		return fmt.Errorf("project glob %q is empty or holds a control character", g)
	}
	if _, err := path.Match(g, ""); err != nil {
		return fmt.Errorf("project glob %q: %v", g, err)
	}
	return nil
}

// Teams returns the teams config.json holds, by name. Entries that are not
// objects, or whose name or URL is unusable, are left out.
func (f *File) Teams() []Team {
	m, _ := f.m[teamsKey].(map[string]any)
	var out []Team
	for name, v := range m {
		obj, ok := v.(map[string]any)
		if !ok || !ValidTeamName(name) {
			continue
		}
		data, err := json.Marshal(obj)
		if err != nil {
			continue
		}
		t := Team{Name: name}
		if json.Unmarshal(data, &t) != nil || t.URL == "" {
			continue
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SetTeam adds or replaces team t; Save writes it.
func (f *File) SetTeam(t Team) {
	m, ok := f.m[teamsKey].(map[string]any)
	if !ok {
		m = map[string]any{}
		f.m[teamsKey] = m
	}
	obj := map[string]any{"url": AbsRemote(t.URL)} // a relative path means where the user stood
	if len(t.Projects) > 0 {
		ps := make([]any, len(t.Projects))
		for i, p := range t.Projects {
			ps[i] = p
		}
		obj["projects"] = ps
	}
	if t.Review {
		obj["review"] = true
	}
	m[t.Name] = obj
}

// RemoveTeam forgets team name; it reports whether it was there.
func (f *File) RemoveTeam(name string) bool {
	m, ok := f.m[teamsKey].(map[string]any)
	if !ok {
		return false
	}
	_, had := m[name]
	delete(m, name)
	if len(m) == 0 {
		delete(f.m, teamsKey)
	}
	return had
}

// Team returns the configured team called name.
func (c Config) Team(name string) (Team, bool) {
	for _, t := range c.Teams {
		if t.Name == name {
			return t, true
		}
	}
	return Team{}, false
}

// Shows reports whether the team's notes of project noteProject belong in a
// session of project: a note about that very project always; the team's
// global notes when the team names no project globs or one matches.
func (t Team) Shows(project, noteProject string) bool {
	if noteProject == project {
		return true
	}
	if noteProject != "global" {
		return false
	}
	if len(t.Projects) == 0 {
		return true
	}
	for _, g := range t.Projects {
		if ok, _ := path.Match(g, project); ok {
			return true
		}
	}
	return false
}

// HiddenGlobal lists the teams whose global notes do not belong in a
// session of project (Shows): a read made for project (recall) leaves them
// out, as inject does.
func HiddenGlobal(teams []Team, project string) []string {
	var out []string
	for _, t := range teams {
		if !t.Shows(project, "global") {
			out = append(out, t.Name)
		}
	}
	return out
}
