package dashboard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// fixture is a home whose memory/ is a git repo with commits from two
// machines, laptop and desktop, as two synced machines would leave it.
type fixture struct {
	home  string
	st    *store.Store
	ids   []string
	extra string // hand-written note with unknown front-matter keys, edited later on desktop
	moved string // note moved from episodic to semantic on desktop
	local string // machine-local note
}

var words = strings.Fields(`sqlite wal busy timeout lock connection index markdown yaml git rebase push pull
remote conflict merge branch commit hook session inject capture transcript dashboard grid tailwind css react
server client tool search token query recall ranking recency summary provider model retry error panic
goroutine mutex context deadline build test race lint module docker deploy nginx postgres redis cache queue
worker cron migrate schema column table endpoint route handler middleware auth config env flag path`)

var fillers = strings.Fields("the of and to a in is that for it as with was on be by this are or from at an but not")

func sentence(r *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		if r.IntN(3) == 0 {
			out[i] = fillers[r.IntN(len(fillers))]
		} else {
			out[i] = words[r.IntN(len(words))]
		}
	}
	return strings.Join(out, " ")
}

func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func commitAs(t testing.TB, dir, machine string) {
	t.Helper()
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "-c", "user.name=anamnesis", "-c", "user.email=anamnesis@"+machine,
		"commit", "-q", "-m", "anamnesis: sync from "+machine+" at "+note.Now())
}

const extraNoteFmt = `---
id: %s
type: semantic
title: Deploy checklist for the quotes API
project: github.com/acme/quotes-api
machine_id: laptop
scope: portable
prov_source: human
confidence: 1.0
created_at: '2026-01-02T03:04:05+00:00'
updated_at: '2026-01-02T03:04:05+00:00'
tags:
- deploy
user_id: u-42
workspace_id: ws-7
---
Run the migrations first, then roll the workers.
`

// newFixture writes n notes (half per machine) plus the special ones and commits them.
func newFixture(t testing.TB, n int) *fixture {
	t.Helper()
	ctx := context.Background()
	home := t.TempDir()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{home: home, st: st}
	mem := st.MemoryDir()
	gitIn(t, mem, "init", "-q", "-b", "main")
	r := rand.New(rand.NewPCG(7, 42))
	projects := []string{"global", "github.com/acme/quotes-api", "github.com/acme/web", "github.com/acme/infra"}
	write := func(machine string, i int) {
		title := sentence(r, 3+r.IntN(5))
		nt := note.New(note.Types[i%3], strings.ToUpper(title[:1])+title[1:], sentence(r, 40+r.IntN(120)))
		nt.MachineID = machine
		nt.Project = projects[r.IntN(len(projects))]
		nt.Tags = []string{words[r.IntN(len(words))]}
		if i%17 == 0 {
			nt.ProvSource = note.ProvSessionEnd
		}
		w, err := st.Write(ctx, nt)
		if err != nil {
			t.Fatal(err)
		}
		f.ids = append(f.ids, w.ID)
	}
	for i := range n / 2 {
		write("laptop", i)
	}
	f.extra = note.NewID()
	os.MkdirAll(filepath.Join(mem, "semantic"), 0o755)
	if err := os.WriteFile(filepath.Join(mem, "semantic", f.extra+".md"), fmt.Appendf(nil, extraNoteFmt, f.extra), 0o644); err != nil {
		t.Fatal(err)
	}
	mv := note.New(note.Episodic, "Migration session on the billing worker", "Moved the billing worker to the new queue.")
	mv.MachineID = "laptop"
	w, err := st.Write(ctx, mv)
	if err != nil {
		t.Fatal(err)
	}
	f.moved = w.ID
	if _, err := st.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	commitAs(t, mem, "laptop")
	for i := range n - n/2 {
		write("desktop", i)
	}
	commitAs(t, mem, "desktop")
	// desktop edits the hand-written note and promotes the episodic one to semantic.
	ex, err := st.Get(ctx, f.extra)
	if err != nil {
		t.Fatal(err)
	}
	ex.Body += "\n\nCheck the dashboards after the deploy."
	ex.UpdatedAt = note.Now()
	if err := st.Put(ctx, ex); err != nil {
		t.Fatal(err)
	}
	m, err := st.Get(ctx, f.moved)
	if err != nil {
		t.Fatal(err)
	}
	m.Type = note.Semantic
	m.Title = "Billing worker runs on the new queue"
	m.Body = "The billing worker consumes the v2 queue; the old one is drained."
	if err := st.Put(ctx, m); err != nil {
		t.Fatal(err)
	}
	commitAs(t, mem, "desktop")
	loc := note.New(note.Procedural, "Local scratch paths", "Scratch lives in /tmp/scratch on this machine.")
	loc.Scope = note.MachineLocal
	loc.MachineID = "laptop"
	if w, err = st.Write(ctx, loc); err != nil {
		t.Fatal(err)
	}
	f.local = w.ID
	return f
}
