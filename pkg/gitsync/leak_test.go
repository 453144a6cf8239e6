package gitsync

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A remote that asks for a password makes git quote the URL's userinfo
// ("could not read Password for 'https://TOKEN@host'"): a token used as
// the whole userinfo must not reach the sync's detail, its error, or the
// record status and the dashboard read, neither for the personal store nor
// for a team.
func TestAuthFailureMasksToken(t *testing.T) {
	needGit(t)
	isolateGit(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	const token = "x9Yb2Kc4Md6Nf8Ph0Rj2Tl4Vn6Xp8Zr0"
	url := strings.Replace(srv.URL, "http://", "http://"+token+"@", 1) + "/u/n.git"
	h := newHome(t, "alpha", url)
	h.write(note.Semantic, "t", "b")
	o := h.opts()
	o.Timeout = 20 * time.Second
	o.Teams = []TeamSpec{{Name: "core", URL: url}}
	r, err := Sync(context.Background(), o)
	if err == nil {
		t.Fatalf("sync against a 401 remote succeeded: %s", r.Line())
	}
	last, _ := json.Marshal(Last(h.dir))
	res, _ := json.Marshal(r)
	perr := Probe(context.Background(), url, 20*time.Second)
	if perr == nil {
		t.Fatal("probe of a 401 remote succeeded")
	}
	for what, s := range map[string]string{"probe": perr.Error(), "detail": r.Detail, "error": err.Error(), "result": string(res), "last-sync.json": string(last)} {
		if strings.Contains(s, token) {
			t.Errorf("%s shows the token: %s", what, s)
		}
	}
}
