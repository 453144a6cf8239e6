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
	st := State(context.Background(), t.TempDir(), "https://bob:s3cret@host.invalid/x.git")
	if st.Remote == nil || *st.Remote != "https://bob:***@host.invalid/x.git" {
		t.Fatalf("state remote %v", st.Remote)
	}
	b, _ := json.Marshal(st)
	if string(b) == "" || strings.Contains(string(b), "s3cret") {
		t.Fatalf("json %s", b)
	}
}
