package lifecycle

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const planted = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

func episodics(t *testing.T, s *store.Store, project string, n int) []*note.Note {
	var out []*note.Note
	for i := range n {
		body := fmt.Sprintf("**Ask:** step %d of the deploy\n\n**Outcome:** ran make deploy", i)
		if i == 2 {
			body += " with token " + planted + " and password=hunter2hunter2"
		}
		out = append(out, add(t, s, note.Episodic, project, fmt.Sprintf("Deploy step %d", i), body,
			fmt.Sprintf("2026-01-0%dT10:00:00+00:00", i+1), "session", "session-end"))
	}
	return out
}

func TestReflectHappyPath(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	eps := episodics(t, s, "demo", 5)
	add(t, s, note.Episodic, "other", "Elsewhere", "not this project", "2026-01-01T00:00:00+00:00")
	before, _ := s.CountInjectable(ctx, "demo")
	srv := newStandIn(t)
	srv.answer("```json\n[{\"type\": \"procedural\", \"title\": \"Deploy with make deploy\", \"body\": \"Run make deploy from the repo root.\"},\n {\"type\": \"semantic\", \"title\": \"Deploys go to staging first\", \"body\": \"Staging, then prod.\"}]\n```")

	// A dry run calls the model and writes nothing.
	snap := tree(t, s)
	res, err := Reflect(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 5, Options{MachineID: "box"})
	if err != nil || len(res.Projects) != 1 || len(res.Projects[0].Notes) != 2 || len(res.Projects[0].Episodics) != 5 {
		t.Fatalf("dry run: %+v %v", res, err)
	}
	sameTree(t, snap, tree(t, s))

	srv.answer(`[{"type": "procedural", "title": "Deploy with make deploy", "body": "Run make deploy from the repo root."}, {"type": "semantic", "title": "Deploys go to staging first", "body": "Staging, then prod."}]`)
	res, err = Reflect(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Written || len(res.Paths) != 7 {
		t.Fatalf("apply: %+v %v", res, err)
	}
	if strings.Contains(srv.sent(), planted) || strings.Contains(srv.sent(), "hunter2hunter2") {
		t.Error("a planted secret reached the model")
	}
	if !strings.Contains(srv.sent(), "Deploy step 0") || !strings.Contains(srv.sent(), "Deploy step 4") {
		t.Error("the episodics were not sent")
	}
	if strings.Index(srv.sent(), "Deploy step 0") > strings.Index(srv.sent(), "Deploy step 4") {
		t.Error("not oldest first")
	}
	for _, pn := range res.Projects[0].Notes {
		n, err := s.Get(ctx, pn.ID)
		if err != nil {
			t.Fatal(err)
		}
		if n.ProvSource != note.ProvReflection || n.ProvModel != "local/m" || n.Confidence != 0.6 ||
			n.Project != "demo" || n.MachineID != "box" || strings.Join(n.Tags, ",") != "reflection" || n.Title != pn.Title {
			t.Errorf("note %+v", n)
		}
		p, _ := s.Path(ctx, pn.ID)
		raw, _ := os.ReadFile(p)
		want := "scope: portable\nprov_source: reflection\nconfidence: 0.6\nprov_model: local/m\ncreated_at: "
		if !strings.Contains(string(raw), want) || !strings.Contains(string(raw), "tags:\n- reflection\n---\n") {
			t.Errorf("front-matter:\n%s", raw)
		}
		// What we wrote reads back to the same record.
		back, err := note.Parse(raw)
		if err != nil || back.ProvModel != n.ProvModel || back.Body != n.Body {
			t.Errorf("round trip: %v", err)
		}
	}
	for _, ep := range eps {
		n, _ := s.Get(ctx, ep.ID)
		if !n.HasTag(TagReflected) || n.UpdatedAt != ep.UpdatedAt {
			t.Errorf("episodic %s: tags %v updated %s", ep.ID, n.Tags, n.UpdatedAt)
		}
	}
	after, _ := s.CountInjectable(ctx, "demo")
	if after != before-5+2 {
		t.Errorf("injectable %d -> %d", before, after)
	}
	// Nothing left to reflect: the next run skips without a call.
	res, err = Reflect(ctx, s, srv.client(t, time.Second), []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || res.Projects[0].Skipped == "" || res.Written {
		t.Errorf("second run: %+v %v", res, err)
	}
}

func TestReflectEmptyArrayTagsSources(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	eps := episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	srv.answer("[]")
	res, err := Reflect(ctx, s, srv.client(t, time.Second), []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || len(res.Paths) != 5 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, ep := range eps {
		if n, _ := s.Get(ctx, ep.ID); !n.HasTag(TagReflected) {
			t.Errorf("%s not tagged", ep.ID)
		}
	}
}

func TestReflectFailuresWriteNothing(t *testing.T) {
	cases := map[string]struct {
		reply   func(*standIn)
		timeout time.Duration
		want    string
	}{
		"invalid JSON": {reply: func(s *standIn) { s.answer("Sure! Here are the notes: deploy with make.") }, want: "not a JSON array"},
		"bad type":     {reply: func(s *standIn) { s.answer(`[{"type": "episodic", "title": "t", "body": "b"}]`) }, want: `type "episodic"`},
		"no body":      {reply: func(s *standIn) { s.answer(`[{"type": "semantic", "title": "t"}]`) }, want: "missing"},
		"500": {reply: func(s *standIn) {
			s.script(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "upstream exploded", 500) })
		}, want: "500"},
		"timeout": {timeout: 200 * time.Millisecond, reply: func(s *standIn) {
			s.script(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			})
		}, want: "did not answer within 200ms"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := openStore(t)
			episodics(t, s, "demo", 5)
			episodics(t, s, "fine", 5)
			srv := newStandIn(t)
			srv.answer(`[{"type": "semantic", "title": "ok", "body": "ok"}]`) // project "demo" (sorted first) succeeds
			tc.reply(srv)
			snap := tree(t, s)
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			_, err := Reflect(ctx, s, srv.client(t, timeout), []string{"demo", "fine"}, 5, Options{Apply: true, MachineID: "box"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing written") {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			sameTree(t, snap, tree(t, s))
		})
	}
}

// A failure while writing (here: a note the store refuses) undoes the notes
// already written and the tags already added.
func TestReflectRollsBack(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	snap := tree(t, s)
	plans := []ReflectPlan{{Project: "demo", Model: "local/m", Episodics: []string{}, Notes: []Proposed{
		{Type: note.Semantic, Title: "fine", Body: "fine"},
		{Type: note.Semantic, Title: "huge", Body: strings.Repeat("x", note.MaxFile+1)},
	}}}
	eps, _ := Unreflected(ctx, s, "demo")
	for _, e := range eps {
		plans[0].Episodics = append(plans[0].Episodics, e.ID)
	}
	// The fine note is written before the huge one fails: it must be undone.
	if _, err := ApplyReflect(ctx, s, plans, "box", ""); err == nil {
		t.Fatal("no error")
	}
	sameTree(t, snap, tree(t, s))
	if n, _ := s.Count(ctx, store.Filter{}); n != 5 {
		t.Errorf("index holds %d notes", n)
	}
}

func TestReflectNeedsMin(t *testing.T) {
	s := openStore(t)
	episodics(t, s, "demo", 3)
	res, err := Reflect(context.Background(), s, nil, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || !strings.Contains(res.Projects[0].Skipped, "fewer than 5") {
		t.Errorf("%+v %v", res, err)
	}
}

// An episodic note someone moved to local/ by hand (to keep it off git) is
// not reflected before the index has seen the move: its text would reach
// the model and come back in portable notes, which sync publishes.
func TestReflectLeavesOutANoteMovedToLocal(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	eps := episodics(t, s, "demo", 5)
	moved := eps[1]
	from, err := s.Path(ctx, moved.ID)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(s.LocalDir(), note.Episodic, filepath.Base(from))
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	srv := newStandIn(t)
	srv.answer(`[{"type": "semantic", "title": "Deploys run make deploy", "body": "Run make deploy."}]`)
	res, err := Reflect(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 4, Options{Apply: true, MachineID: "box"})
	if err != nil {
		t.Fatalf("reflect: %+v %v", res, err)
	}
	if strings.Contains(srv.sent(), moved.Title) {
		t.Errorf("the machine-local note %s was sent to the model for a portable reflection", moved.ID)
	}
	for _, p := range res.Projects {
		if slices.Contains(p.Episodics, moved.ID) {
			t.Errorf("the machine-local note %s is a source of the portable reflection", moved.ID)
		}
	}
	if n, err := s.Get(ctx, moved.ID); err != nil || n.Scope != note.MachineLocal {
		t.Errorf("moved note: %+v %v", n, err)
	}
}
