package dashboard

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/session"
)

func TestInjectionsPage(t *testing.T) {
	f := newFixture(t, 6)
	c := newClient(t, f, nil)
	want(t, c.get("/injections"), http.StatusOK, "Nothing injected yet")

	now := time.Now().UTC()
	for _, e := range []session.Entry{
		{Time: now.Add(-time.Hour), Hook: "inject", Session: "sess-old", Project: "github.com/acme/web", IDs: []string{f.ids[0]}, Chars: 900},
		{Time: now.Add(-time.Minute), Hook: "inject", Session: "sess-new", Project: "github.com/acme/quotes-api", IDs: []string{f.ids[1]}, Chars: 4000},
		{Time: now, Hook: "recall", Session: "sess-new", Project: "github.com/acme/quotes-api", IDs: []string{f.extra, "01GONE0000000000000000000", f.ids[2]}, Chars: 1800,
			Terms: map[string][]string{f.extra: {"deploy", "<script>checklist"}}, Arrived: []string{f.ids[2]}},
	} {
		if err := session.Trace(f.home, e); err != nil {
			t.Fatal(err)
		}
	}
	body := want(t, c.get("/injections"), http.StatusOK,
		`id="session-sess-new"`, `id="session-sess-old"`, "Deploy checklist for the quotes API",
		"<mark>deploy</mark>", "&lt;script&gt;checklist", "(deleted since)", "synced after the session started", "1800 characters")
	if strings.Index(body, "sess-new") > strings.Index(body, "sess-old") {
		t.Error("sessions are not newest first")
	}
	if strings.Contains(body, "<script>checklist") {
		t.Error("a matched word reached the page unescaped")
	}
	// Within a session, events are in the order they happened.
	s := body[strings.Index(body, `id="session-sess-new"`):]
	if strings.Index(s, ">inject<") > strings.Index(s, ">recall<") {
		t.Error("events out of order")
	}
}
