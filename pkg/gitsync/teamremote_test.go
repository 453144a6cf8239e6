package gitsync

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A personal remote that is a team's remote (the same URL given to config
// set remote and team add, by mistake) must not receive the personal
// store: personal notes never reach a team remote (SPEC 18). The sync
// keeps them committed here and says why; the team's own cycle goes on.
func TestPersonalRemoteThatIsATeamsIsNotPushed(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for name, teamURL := range map[string]func(string) string{
		"same URL":       func(r string) string { return r },
		"trailing slash": func(r string) string { return r + "/" },
	} {
		t.Run(name, func(t *testing.T) {
			remote := newRemote(t)
			h := newHome(t, "alpha", remote)
			n := h.write(note.Semantic, "My salary", "personal: never for the team")
			o := h.opts()
			o.Teams = []TeamSpec{{Name: "core", URL: teamURL(remote)}}
			r, err := Sync(context.Background(), o)
			if objs := gitIn(t, remote, "rev-list", "--all", "--objects"); strings.Contains(objs, n.ID) {
				t.Fatalf("the personal note reached the team's remote (sync: %v, %s)", err, r.Line())
			}
			if err == nil || !strings.Contains(r.Detail, "core") {
				t.Errorf("the sync does not say why the personal store was not pushed: %v, %s", err, r.Line())
			}
			if out := gitIn(t, h.dir+"/memory", "log", "--format=%H", "-1"); out == "" {
				t.Error("the personal note was not committed locally")
			}
		})
	}
}

// One repository, however its URL is written: with or without a token, a
// trailing "/" or ".git", a local path as a file URL. teamOfRemote missed a
// token: a personal remote https://oauth2:TOKEN@host/acme/memory.git and a
// team at https://host/acme/memory.git got the personal notes pushed to
// the team.
func TestSameRepo(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://gitlab.com/acme/memory.git", "https://oauth2:tok@gitlab.com/acme/memory", true},
		{"https://gitlab.com/acme/memory.git/", "https://gitlab.com/acme/memory", true},
		{"/srv/git/memory.git", "file:///srv/git/memory", true},
		{"git@github.com:acme/memory.git", "git@github.com:acme/memory", true},
		{"https://gitlab.com/acme/memory.git", "https://gitlab.com/acme/memory-2.git", false},
		{"https://gitlab.com/acme/memory.git", "https://github.com/acme/memory.git", false},
		{"", "", false},
		// A local path as Windows writes it: either separator, the drive
		// letter in either case, a file URL, a doubled or trailing slash.
		{`C:\Users\me\memory.git`, "C:/Users/me/memory.git", true},
		{`C:\Users\me\memory.git\`, "c:/Users/me/memory", true},
		{`C:\Users\me\memory.git`, "file:///C:/Users/me/memory.git", true},
		{"/srv/git//memory.git/", "/srv/git/memory", true},
		{`C:\Users\me\memory.git`, `C:\Users\me\notes.git`, false},
	} {
		if got := SameRepo(c.a, c.b); got != c.same {
			t.Errorf("SameRepo(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := teamOfRemote(c.a, []TeamSpec{{Name: "core", URL: c.b}}) == "core"; got != c.same {
			t.Errorf("teamOfRemote(%q) with team core at %q: %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
