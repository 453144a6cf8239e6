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
