package main

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// After /compact (SessionStart with source "compact") the block leaves out
// the session's own capture note, which PreCompact has just written and the
// compacted context summarises already; another session's note stays, the
// next session gets it, and what the block shows is recorded for recall.
func TestCompactLeavesOutOwnNote(t *testing.T) {
	t.Setenv("ANAMNESIS_INJECT_MAX_CHARS", "")
	home := t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct{ title, session string }{{"Own session note", "sess-own"}, {"Earlier session note", "sess-old"}} {
		n := note.New(note.Episodic, x.title, "body of "+x.title)
		n.Project, n.ProvSession, n.Tags = "github.com/acme/api", x.session, []string{"session", "precompact"}
		if _, err := st.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	payload := `{"session_id":"sess-own","cwd":"/nonexistent","hook_event_name":"SessionStart","source":"compact"}`
	out, _, log := runInject(t, home, strings.NewReader(payload), "--project", "github.com/acme/api")
	if strings.Contains(out, "Own session note") || !strings.Contains(out, "Earlier session note") {
		t.Fatalf("after compact:\n%s\nlog:\n%s", out, log)
	}
	s, err := session.Load(home, "sess-own")
	if err != nil || len(s.IDs) != 1 || s.Mark == 0 {
		t.Errorf("state after compact %+v %v", s, err)
	}
	// Another session, and this one's startup, see both notes.
	for _, p := range []string{
		strings.Replace(payload, `"compact"`, `"startup"`, 1),
		strings.Replace(payload, `"sess-own"`, `"sess-next"`, 1),
	} {
		out, _, _ := runInject(t, home, strings.NewReader(p), "--project", "github.com/acme/api")
		if !strings.Contains(out, "Own session note") || !strings.Contains(out, "Earlier session note") {
			t.Errorf("%s:\n%s", p, out)
		}
	}
}
