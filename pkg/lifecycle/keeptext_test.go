package lifecycle

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// kept writes a note whose body holds a value a person kept on purpose
// (anamnesis write --keep-secrets).
func kept(t *testing.T, s *store.Store, typ, title, body string, tags ...string) *note.Note {
	t.Helper()
	n := note.New(typ, title, body)
	n.ID, n.Project, n.Tags = note.NewID(), "demo", tags
	n.CreatedAt = "2026-01-01T00:00:00+00:00"
	if err := s.Put(context.Background(), n, store.KeepSecrets(true)); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRewritesKeepTheText: a command that changes a note's metadata (a
// keep's supersedes, reflect's reflected tag, backfill's prov_source)
// writes the note's title and body as its file holds them. A value a person
// kept on purpose is not redacted behind their back by a command that
// neither showed nor reported it (the preview shows the metadata change
// only, and what a plan applies is what it showed).
func TestRewritesKeepTheText(t *testing.T) {
	ctx := context.Background()
	const secret = "password=Zq8vLm3pR7xK"
	read := func(s *store.Store, id string) *note.Note {
		t.Helper()
		n, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	t.Run("consolidate keep", func(t *testing.T) {
		s := openStore(t)
		k := kept(t, s, note.Semantic, "Staging database", "The staging database runs on db:5432; its admin "+secret+" (kept on purpose).")
		o := add(t, s, note.Semantic, "demo", "Staging database port", "The staging database runs on db:5432.", "2026-01-02T00:00:00+00:00")
		srv := newStandIn(t)
		srv.answer(fmt.Sprintf(`[{"action":"keep","keeper_id":%q,"superseded_ids":[%q]}]`, k.ID, o.ID))
		res, err := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 2, nil, Options{Apply: true, MachineID: "box"})
		if err != nil || !res.Written {
			t.Fatalf("%+v %v", res, err)
		}
		got := read(s, k.ID)
		if !slices.Contains(got.Supersedes, o.ID) || got.Body != k.Body {
			t.Fatalf("keeper after the keep: supersedes %v, body %q; want its body %q", got.Supersedes, got.Body, k.Body)
		}
	})
	t.Run("reflect", func(t *testing.T) {
		s := openStore(t)
		episodics(t, s, "demo", 4)
		ep := kept(t, s, note.Episodic, "Deploy notes", "Deployed with the staging "+secret+".", "session")
		srv := newStandIn(t)
		srv.answer("[]")
		if _, err := Reflect(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 5, Options{Apply: true, MachineID: "box"}); err != nil {
			t.Fatal(err)
		}
		if got := read(s, ep.ID); !got.HasTag(TagReflected) || got.Body != ep.Body {
			t.Fatalf("episodic after reflect: tags %v, body %q; want its body %q", got.Tags, got.Body, ep.Body)
		}
		if strings.Contains(srv.sent(), secret) {
			t.Fatal("the kept value was sent to the model")
		}
	})
	t.Run("backfill-provenance", func(t *testing.T) {
		s := openStore(t)
		n := kept(t, s, note.Semantic, "Imported creds", "The imported "+secret+".", "import")
		if _, err := Backfill(ctx, s, true); err != nil {
			t.Fatal(err)
		}
		if got := read(s, n.ID); got.ProvSource != note.ProvImport || got.Body != n.Body {
			t.Fatalf("after backfill: prov_source %q, body %q; want its body %q", got.ProvSource, got.Body, n.Body)
		}
	})
}
