package gitsync

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestMaskURLPassword(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:tok3n@github.com/u/notes.git": "https://user:***@github.com/u/notes.git",
		"ssh://git@host/srv/notes.git":              "ssh://git@host/srv/notes.git",
		"/srv/notes.git":                            "/srv/notes.git",
		"https://host/a@b":                          "https://host/a@b",
		"git@github.com:u/notes.git":                "git@github.com:u/notes.git",
	} {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// The state every surface renders carries the masked remote.
func TestStateMasksRemote(t *testing.T) {
	st := State(context.Background(), t.TempDir(), "https://bob:s3cret@host.invalid/x.git", nil)
	if st.Remote == nil || *st.Remote != "https://bob:***@host.invalid/x.git" {
		t.Fatalf("state remote %v", st.Remote)
	}
	b, _ := json.Marshal(st)
	if string(b) == "" || strings.Contains(string(b), "s3cret") {
		t.Fatalf("json %s", b)
	}
}

// A remote refused for a control character (a URL pasted with its line
// break, config.json edited by hand) is named in the error, masked: the
// error reaches the sync's line, its record and team add's message.
func TestRefusedRemoteMasked(t *testing.T) {
	for _, remote := range []string{"https://bob:s3cret@host.invalid/x.git\n", "-https://bob:s3cret@host.invalid/x.git"} {
		err := CheckRemote(remote)
		if err == nil {
			t.Fatalf("CheckRemote(%q) accepted it", remote)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("CheckRemote(%q): %v", remote, err)
		}
	}
	h := newHome(t, "alpha", "https://bob:s3cret@host.invalid/x.git\r")
	r, err := Sync(context.Background(), h.opts())
	last, _ := json.Marshal(Last(h.dir))
	if err == nil || strings.Contains(err.Error(), "s3cret") || strings.Contains(r.Line(), "s3cret") || strings.Contains(string(last), "s3cret") {
		t.Errorf("sync with a refused remote: %v; %s; last-sync %s", err, r.Line(), last)
	}
}
