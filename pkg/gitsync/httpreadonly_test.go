package gitsync

import (
	"context"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A team served over https that anyone may fetch but only members with
// credentials may push to (a public repository on a git host) answers this
// machine's push with 401: git, which may not prompt, says it could not read
// a username. That is a remote refusing the push, as SPEC 18's read-only
// member meets it: the fetch goes on, the notes stay committed here, the
// result says read-only with the commits unpublished (once, as a notice),
// and the sync is not an error on every run.
func TestTeamPushNeedingCredentialsIsReadOnly(t *testing.T) {
	needGit(t)
	isolateGit(t)
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path failed")
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	root := t.TempDir()
	gitIn(t, ".", "init", "--quiet", "--bare", filepath.Join(root, "team.git"))
	gitIn(t, filepath.Join(root, "team.git"), "symbolic-ref", "HEAD", "refs/heads/main")
	cgiH := &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.RawQuery, "git-receive-pack") || strings.HasSuffix(r.URL.Path, "git-receive-pack") {
			w.Header().Set("WWW-Authenticate", `Basic realm="team"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		cgiH.ServeHTTP(w, r)
	}))
	defer srv.Close()
	url := srv.URL + "/team.git"

	h := newHome(t, "carol", "")
	st := h.store()
	if err := layout.MkdirAll(st.TeamDir("core")); err != nil {
		t.Fatal(err)
	}
	n := note.New(note.Semantic, "Carol's finding", "the cache is cold on Mondays")
	n.Team, n.Author = "core", "Carol"
	if _, err := st.Write(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	st.Close()
	o := h.opts()
	o.Timeout = 20 * time.Second
	o.Teams = []TeamSpec{{Name: "core", URL: url}}
	for i, wantNotice := range []bool{true, false} {
		r, err := Sync(context.Background(), o)
		if err != nil || len(r.Teams) != 1 {
			t.Fatalf("sync %d: %v (%s)", i+1, err, r.Line())
		}
		tr := r.Teams[0]
		if tr.Error != "" || !tr.ReadOnly || tr.Unpublished != 1 || (tr.Notice != "") != wantNotice {
			t.Fatalf("sync %d: team result %+v", i+1, tr)
		}
	}
}
