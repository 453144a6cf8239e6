package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// fixture is a store with a handful of notes of one project and global ones,
// and the cwd whose project key they carry.
type fixture struct {
	home, cwd, project string
	ids                map[string]string // title -> id
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	t.Setenv("ANAMNESIS_RECALL_ENABLED", "")
	t.Setenv("ANAMNESIS_RECALL_MAX_CHARS", "")
	f := &fixture{home: t.TempDir(), cwd: t.TempDir(), ids: map[string]string{}}
	f.project = project.Here(f.cwd, config.Resolve(f.home, os.Getenv)).Key
	st, err := store.Open(context.Background(), f.home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, n := range []struct{ proj, typ, title, body string }{
		{f.project, note.Procedural, "Deploying the billing service to staging", "Run `make deploy-staging`; the kubeconfig context must be billing-stg. Rollbacks use helm rollback billing."},
		{f.project, note.Semantic, "Invoice rounding uses banker's rounding", "Totals are rounded half-even at the end, never per line, to match the ledger."},
		{f.project, note.Episodic, "Fixed the flaky websocket test", "The websocket reconnect test raced the server shutdown; waiting on the done channel fixed it."},
		{note.Global, note.Semantic, "Prefer pnpm over npm", "The user prefers pnpm for every JavaScript project."},
		{note.Global, note.Procedural, "Postgres connection pooling", "Use pgbouncer in transaction mode; prepared statements must be disabled."},
	} {
		nn := note.New(n.typ, n.title, n.body)
		nn.Project = n.proj
		w, err := st.Write(context.Background(), nn)
		if err != nil {
			t.Fatal(err)
		}
		f.ids[n.title] = w.ID
	}
	return f
}

// started opens f's store and starts session id at its watermark (as
// SessionStart does), with the notes shown already in its state; the
// store is closed when the test ends.
func (f *fixture) started(t *testing.T, id string, shown ...string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, f.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mark, err := st.Watermark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := session.State{Mark: mark}
	for _, n := range shown {
		s.Add(n)
	}
	if err := session.Save(f.home, id, s); err != nil {
		t.Fatal(err)
	}
	return st
}

func (f *fixture) payload(session, prompt string) string {
	b, _ := json.Marshal(map[string]string{"session_id": session, "transcript_path": "/nonexistent.jsonl", "cwd": f.cwd,
		"prompt_id": "p1", "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": prompt})
	return string(b)
}

// recall runs the hook as Claude Code does: the real binary (TestMain puts
// it on PATH), one process per prompt. In process, the index the hook leaves
// open (it never closes its reader: the process ends right after printing)
// would stay open at the test's cleanup, and Windows refuses to remove an
// open file.
func (f *fixture) recall(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command("anamnesis-recall", append([]string{"--home", f.home}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("anamnesis-recall: %v (hooks fail open)\n%s", err, errb.String())
	}
	return out.String()
}

func TestPromptAboutAnOldNoteBringsItOnce(t *testing.T) {
	f := newFixture(t)
	out := f.recall(t, f.payload("s1", "How do I deploy billing to staging again?"))
	if !strings.HasPrefix(out, recall.Heading+"\n"+screen.Notice+"\n\n## [procedural] Deploying the billing service to staging\n") {
		t.Fatalf("got:\n%s", out)
	}
	if !strings.Contains(out, "make deploy-staging") || strings.Contains(out, "pnpm") {
		t.Errorf("got:\n%s", out)
	}
	// The same question again in the same session: already in the context.
	if again := f.recall(t, f.payload("s1", "How do I deploy billing to staging again?")); again != "" {
		t.Errorf("shown twice:\n%s", again)
	}
	// Another session gets it.
	if other := f.recall(t, f.payload("s2", "deploy billing staging")); !strings.Contains(other, "Deploying the billing service") {
		t.Errorf("other session:\n%s", other)
	}
	// The trace says what was injected, where, and which words matched.
	tr, err := session.ReadTrace(f.home)
	if err != nil || len(tr) != 2 {
		t.Fatalf("trace %+v %v", tr, err)
	}
	e := tr[0]
	id := f.ids["Deploying the billing service to staging"]
	if e.Hook != "recall" || e.Session != "s1" || e.Project != f.project || len(e.IDs) != 1 || e.IDs[0] != id || e.Chars != len(out) {
		t.Errorf("trace entry %+v", e)
	}
	if got := strings.Join(e.Terms[id], " "); !strings.Contains(got, "deploy") || !strings.Contains(got, "billing") || !strings.Contains(got, "staging") {
		t.Errorf("matched terms %q", got)
	}
}

func TestPromptAboutNothingStoredAddsNothing(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"What is the capital of France?", "hello", "", "how do we do it then?", "please fix the thing"} {
		if out := f.recall(t, f.payload("s1", p)); out != "" {
			t.Errorf("%q brought:\n%s", p, out)
		}
	}
}

func TestSessionStartBlockIsNotRepeated(t *testing.T) {
	f := newFixture(t)
	s := session.State{}
	s.Add(f.ids["Postgres connection pooling"])
	if err := session.Save(f.home, "s1", s); err != nil {
		t.Fatal(err)
	}
	if out := f.recall(t, f.payload("s1", "postgres pooling with pgbouncer")); out != "" {
		t.Errorf("a note from the SessionStart block came again:\n%s", out)
	}
}

// A note a background pull indexed after the SessionStart block reaches the
// session at its first prompt, whatever the prompt; only once.
func TestFirstPromptBringsWhatArrivedAfterSessionStart(t *testing.T) {
	f := newFixture(t)
	st := f.started(t, "s1", f.ids["Prefer pnpm over npm"])
	n := note.New(note.Semantic, "Billing moved to the new cluster", "From today billing runs on cluster eu-2.")
	n.Project = f.project
	pulled, err := st.Write(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	other := note.New(note.Semantic, "Unrelated project note", "Something about another repo.")
	other.Project = "github.com/acme/other"
	if _, err := st.Write(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := f.recall(t, f.payload("s1", "hello"))
	if !strings.HasPrefix(out, recall.ArrivedHeading+"\n"+screen.Notice+"\n\n## [semantic] Billing moved to the new cluster\n") || strings.Contains(out, "Unrelated") {
		t.Fatalf("got:\n%s", out)
	}
	if again := f.recall(t, f.payload("s1", "hello")); again != "" {
		t.Errorf("second prompt:\n%s", again)
	}
	tr, _ := session.ReadTrace(f.home)
	if len(tr) != 1 || len(tr[0].Arrived) != 1 || tr[0].Arrived[0] != pulled.ID {
		t.Errorf("trace %+v", tr)
	}
}

// A note the person shared with a team arrives twice after the session's
// start (their note by their own remote, the team's copy by the team's):
// the first prompt brought the same text twice. It brings their own once.
func TestSharedNoteArrivesOnce(t *testing.T) {
	f := newFixture(t)
	cf, err := config.Load(f.home)
	if err != nil {
		t.Fatal(err)
	}
	cf.SetTeam(config.Team{Name: "platform", URL: "/srv/platform.git"})
	if err := cf.Save(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(f.home, "teams", "platform"), 0o700); err != nil {
		t.Fatal(err)
	}
	st := f.started(t, "s1")
	var mine string
	for _, team := range []string{"platform", ""} {
		n := note.New(note.Semantic, "Billing moved to the new cluster", "From today billing runs on cluster eu-2.")
		n.Project, n.Team = f.project, team
		if team != "" {
			n.Author = "Alice"
		}
		w, err := st.Write(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if team == "" {
			mine = w.ID
		}
	}
	st.Close()
	out := f.recall(t, f.payload("s1", "hello"))
	if strings.Count(out, "From today billing runs on cluster eu-2.") != 1 || strings.Contains(out, "(team platform") {
		t.Fatalf("got:\n%s", out)
	}
	tr, _ := session.ReadTrace(f.home)
	if len(tr) != 1 || len(tr[0].Arrived) != 1 || tr[0].Arrived[0] != mine {
		t.Errorf("trace %+v, want %s arrived alone", tr, mine)
	}
}

func TestDisabledOrBrokenPrintsNothing(t *testing.T) {
	f := newFixture(t)
	t.Setenv("ANAMNESIS_RECALL_ENABLED", "false")
	if out := f.recall(t, f.payload("s1", "deploy billing staging")); out != "" {
		t.Errorf("disabled:\n%s", out)
	}
	t.Setenv("ANAMNESIS_RECALL_ENABLED", "")
	for _, garbage := range []string{"", "{", "[]", "null", `{"prompt": 12}`, "\x00\xff"} {
		if out := f.recall(t, garbage); out != "" {
			t.Errorf("payload %q: %s", garbage, out)
		}
	}
	// A store that cannot be opened (local/ is a file, so the store's
	// directories cannot be made; a damaged index.db alone is repaired).
	os.RemoveAll(filepath.Join(f.home, "local"))
	os.WriteFile(filepath.Join(f.home, "local"), []byte("not a directory"), 0o644)
	if out := f.recall(t, f.payload("s1", "deploy billing staging")); out != "" {
		t.Errorf("broken store:\n%s", out)
	}
	log, _ := os.ReadFile(filepath.Join(f.home, "logs", "anamnesis.log"))
	if !strings.Contains(string(log), "anamnesis-recall") || !strings.Contains(string(log), "recall: ") {
		t.Errorf("log:\n%s", log)
	}
}

func TestBudget(t *testing.T) {
	f := newFixture(t)
	out := f.recall(t, f.payload("s1", "deploy billing staging invoice rounding websocket"), "--max-chars", "400")
	if out == "" || len([]rune(out)) > 400 {
		t.Fatalf("%d chars:\n%s", len([]rune(out)), out)
	}
}

// The note captured from this very session (its SessionEnd summary, before
// a --resume) is the conversation itself: never recalled into it.
func TestOwnSessionNoteIsNotRecalled(t *testing.T) {
	f := newFixture(t)
	st, err := store.Open(context.Background(), f.home)
	if err != nil {
		t.Fatal(err)
	}
	n := note.New(note.Episodic, "How do I rotate the grafana admin password", "**Ask:** rotate the grafana admin password\n**Outcome:** used grafana-cli admin reset-admin-password.")
	n.Project, n.ProvSource, n.ProvSession = f.project, note.ProvSessionEnd, "s-own"
	if _, err := st.Write(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ask := "how do I rotate the grafana admin password?"
	if out := f.recall(t, f.payload("s-own", ask)); out != "" {
		t.Errorf("the session's own note came back:\n%s", out)
	}
	if out := f.recall(t, f.payload("s-other", ask)); !strings.Contains(out, "grafana admin password") {
		t.Errorf("another session does not get it:\n%s", out)
	}
}

// A prompt of stop words only has nothing to search for: the index is not
// even opened (so a missing one is not rebuilt for it); an informative
// prompt opens it.
func TestUninformativePromptLeavesIndexClosed(t *testing.T) {
	f := newFixture(t)
	db := filepath.Join(f.home, "index.db")
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Remove(p)
	}
	session.Save(f.home, "s1", session.State{Prompts: 1})
	if out := f.recall(t, f.payload("s1", "Yes, ok, do it please!")); out != "" {
		t.Fatalf("printed %q", out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("an uninformative prompt opened (and rebuilt) the index")
	}
	f.recall(t, f.payload("s1", "deploy the billing service"))
	if _, err := os.Stat(db); err != nil {
		t.Fatal("an informative prompt did not open the index")
	}
}

// A session resumed days later (claude --resume lists sessions for as long
// as Claude Code keeps their transcripts, 30 days by default) replays its
// SessionStart block from the transcript, so inject prints nothing again
// (transcript.HookOutputLive): the notes that block showed are still in the
// context, and recall must not bring them a second time, even after other
// sessions' prompts pruned the state directory.
func TestResumedSessionDaysLaterDoesNotRepeatItsBlock(t *testing.T) {
	f := newFixture(t)
	s := session.State{}
	s.Add(f.ids["Postgres connection pooling"])
	if err := session.Save(f.home, "s1", s); err != nil {
		t.Fatal(err)
	}
	// Two days pass; the pruning (at most once an hour) is due.
	dir := filepath.Join(f.home, "state", "sessions")
	then := time.Now().Add(-48 * time.Hour)
	for _, name := range []string{"s1.json", ".pruned"} {
		if err := os.Chtimes(filepath.Join(dir, name), then, then); err != nil {
			t.Fatal(err)
		}
	}
	// Another session's first prompt saves its state (and prunes).
	f.recall(t, f.payload("s2", "What is the capital of France?"))
	if out := f.recall(t, f.payload("s1", "postgres pooling with pgbouncer")); out != "" {
		t.Errorf("a note from the resumed session's SessionStart block came again:\n%s", out)
	}
}
