package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// An ext:: remote is a command line git runs. git refuses the transport by
// default, but a user's global config (protocol.allow=always) or an
// inherited GIT_ALLOW_PROTOCOL turns it on; a remote, a team URL or a
// probe must still never run one, whatever the person's git settings.
func TestExtRemoteNeverRuns(t *testing.T) {
	needGit(t)
	if runtime.GOOS == "windows" {
		t.Skip("the ext:: command below needs sh")
	}
	isolateGit(t)
	cfg := os.Getenv("GIT_CONFIG_GLOBAL")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[protocol]\n\tallow = always\n[protocol \"ext\"]\n\tallow = always\n")
	f.Close()
	t.Setenv("GIT_ALLOW_PROTOCOL", "ext:file")

	dir := t.TempDir()
	ext := func(name string) string { return "ext::sh -c touch% " + filepath.Join(dir, name) }
	perr := Probe(context.Background(), ext("probe"), 20*time.Second)
	h := newHome(t, "alpha", ext("personal"))
	h.write(note.Semantic, "t", "b")
	o := h.opts()
	o.Teams = []TeamSpec{{Name: "core", URL: ext("team")}}
	r, serr := Sync(context.Background(), o)
	for _, name := range []string{"probe", "personal", "team"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("git ran the %s ext:: remote's command (probe: %v; sync: %v, %+v)", name, perr, serr, r.Teams)
		}
	}
	if perr == nil || serr == nil || len(r.Teams) != 1 || r.Teams[0].Error == "" {
		t.Fatalf("an ext:: remote answered: probe %v, sync %v (%s) %+v", perr, serr, r.Line(), r.Teams)
	}
	if !strings.Contains(perr.Error(), "not allowed") {
		t.Errorf("probe error %q does not say the transport is refused", perr)
	}
}
