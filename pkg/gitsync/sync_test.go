package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func TestEmptyLocalEmptyRemoteIsANoOp(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	h := newHome(t, "alpha", remote)
	r := h.sync()
	if r.Pushed || r.Pulled != 0 || r.Conflicted || r.Head != "" {
		t.Fatalf("empty/empty: %s", r.Line())
	}
	if !strings.Contains(r.Detail, "nothing to sync") {
		t.Errorf("detail = %q", r.Detail)
	}
	// And again: still fine.
	h.sync()
}

func TestPushPullAndIndex(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	n := a.write(note.Semantic, "Grid convention", "wrap tracks in minmax zebrafish7")
	r := a.sync()
	if !r.Pushed || r.Head == "" || !r.Committed || r.Indexed != 1 {
		t.Fatalf("first push: %+v", r)
	}
	if got := gitIn(t, a.dir+"/memory", "log", "-1", "--format=%an <%ae>|%s"); !strings.HasPrefix(got, "anamnesis <anamnesis@alpha>|anamnesis: sync from alpha at ") {
		t.Errorf("commit identity/message: %q", got)
	}
	rb := b.sync()
	if rb.Pulled != 1 || rb.Pushed || rb.Indexed != 1 {
		t.Fatalf("second machine: %s", rb.Line())
	}
	hits, err := b.store().Search(context.Background(), store.Query{Text: "zebrafish7", K: 8})
	if err != nil || len(hits) != 1 || hits[0].ID != n.ID {
		t.Fatalf("pulled note not searchable on beta: %v %v", hits, err)
	}
	// Nothing to do now.
	if r := b.sync(); r.Pushed || r.Pulled != 0 || r.Detail != "up to date" {
		t.Fatalf("idle sync: %s", r.Line())
	}
	a.assertClean()
	b.assertClean()
}

func TestSecondMachineAdoptsRemoteHistory(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a := newHome(t, "alpha", remote)
	for i := range 3 {
		a.write(note.Procedural, "step "+string(rune('a'+i)), "body")
		a.sync()
	}
	aHead := a.head()
	commits := gitIn(t, a.dir+"/memory", "rev-list", "--count", "HEAD")

	// A machine with no notes adopts the history as is.
	b := newHome(t, "beta", remote)
	rb := b.sync()
	if want := commits; strconv.Itoa(rb.Pulled) != want || rb.Pushed || b.head() != aHead {
		t.Fatalf("adoption: %s (want pulled=%s, head %s)", rb.Line(), want, aHead)
	}
	if !strings.Contains(rb.Detail, "pulled") {
		t.Errorf("detail %q does not say it pulled", rb.Detail)
	}

	// A machine that wrote notes before its first sync puts them on top of
	// the remote's history (one root, no unrelated merge), and a note with
	// the same id as a remote note keeps both versions.
	c := newHome(t, "gamma", remote)
	own := c.write(note.Semantic, "gamma's own", "local before first sync")
	shared := a.get(firstID(a))
	clash := *shared
	clash.Body = "gamma's different text"
	clash.UpdatedAt = note.FormatTime(time.Now().Add(-time.Hour))
	st := c.store()
	if err := st.Put(context.Background(), &clash); err != nil {
		t.Fatal(err)
	}
	st.Close()
	rc := c.sync()
	if strconv.Itoa(rc.Pulled) != commits || !rc.Pushed || !rc.Conflicted || len(rc.ConflictIDs) != 1 {
		t.Fatalf("adoption with local notes: %s %+v", rc.Line(), rc.Conflicts)
	}
	if roots := gitIn(t, c.dir+"/memory", "rev-list", "--max-parents=0", "HEAD"); strings.Count(roots, "\n") != 0 {
		t.Errorf("adopted history has several roots:\n%s", roots)
	}
	if parent := gitIn(t, c.dir+"/memory", "rev-parse", "HEAD^"); parent != aHead {
		t.Errorf("local commit is not on top of the remote's: parent %s, want %s", parent, aHead)
	}
	ns := c.notes()
	if ns[shared.ID].Body != shared.Body {
		t.Errorf("the newer (remote) version should stay in place, got %q", ns[shared.ID].Body)
	}
	cp := ns[rc.ConflictIDs[0]]
	if cp == nil || !cp.HasTag("conflict") || !strings.Contains(cp.Body, "gamma's different text") || !strings.Contains(firstLine(cp.Body), shared.ID) {
		t.Errorf("conflict copy wrong: %+v", cp)
	}
	if ns[own.ID] == nil {
		t.Error("gamma's own note lost")
	}
	c.assertClean()
}

func TestConflictKeepsBothVersions(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for _, laterFirst := range []bool{false, true} {
		t.Run(map[bool]string{false: "later edit syncs second", true: "later edit syncs first"}[laterFirst], func(t *testing.T) {
			remote := newRemote(t)
			a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
			n := a.write(note.Semantic, "Deploy target", "original text")
			st := a.store()
			n.Project, n.Tags = "github.com/acme/api", []string{"ops"}
			if err := st.Put(context.Background(), n); err != nil {
				t.Fatal(err)
			}
			st.Close()
			a.sync()
			b.sync()
			t0 := time.Now().Add(-time.Minute)
			a.edit(n.ID, "alpha says fly", t0)
			b.edit(n.ID, "beta says sail", t0.Add(30*time.Second))
			first, second := a, b
			if laterFirst {
				first, second = b, a
			}
			if r := first.sync(); r.Conflicted {
				t.Fatalf("first sync conflicted: %s", r.Line())
			}
			r := second.sync()
			if !r.Conflicted || len(r.ConflictIDs) != 1 || !r.Pushed || len(r.Conflicts) != 1 || r.Conflicts[0].ID != n.ID {
				t.Fatalf("second sync: %s %+v", r.Line(), r)
			}
			if !strings.Contains(r.Line(), r.ConflictIDs[0]) {
				t.Errorf("detail does not name the conflict note: %s", r.Line())
			}
			second.assertClean()
			if r := first.sync(); r.Conflicted || r.Pulled == 0 {
				t.Fatalf("first machine after the conflict: %s", r.Line())
			}
			for _, h := range []*home{a, b} {
				ns := h.notes()
				if ns[n.ID].Body != "beta says sail" {
					t.Errorf("%s: in place %q, want the later edit", h.machine, ns[n.ID].Body)
				}
				cp := ns[r.ConflictIDs[0]]
				if cp == nil {
					t.Fatalf("%s: conflict note %s missing", h.machine, r.ConflictIDs[0])
				}
				if !cp.HasTag("conflict") || !cp.HasTag("ops") || cp.Type != note.Semantic || cp.Project != "github.com/acme/api" ||
					cp.Scope != note.Portable || cp.Title != "Deploy target" {
					t.Errorf("%s: conflict copy keeps type/project/scope/tags: %+v", h.machine, cp)
				}
				if !strings.Contains(firstLine(cp.Body), n.ID) || !strings.HasSuffix(cp.Body, "alpha says fly") {
					t.Errorf("%s: conflict body %q", h.machine, cp.Body)
				}
				h.assertClean()
			}
			if a.head() != b.head() {
				t.Error("heads differ after the conflict settled")
			}
			// The next sync is an ordinary one.
			if r := second.sync(); r.Conflicted || r.Detail != "up to date" {
				t.Errorf("next sync: %s", r.Line())
			}
		})
	}
}

func TestEditBeatsDelete(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for _, deleterFirst := range []bool{true, false} {
		t.Run(map[bool]string{true: "delete pushed first", false: "edit pushed first"}[deleterFirst], func(t *testing.T) {
			remote := newRemote(t)
			a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
			n := a.write(note.Procedural, "Rotate keys", "v1")
			a.write(note.Procedural, "Another", "keeps the tree non-empty")
			a.sync()
			b.sync()
			st := a.store()
			if err := st.Delete(context.Background(), n.ID); err != nil {
				t.Fatal(err)
			}
			st.Close()
			b.edit(n.ID, "v2 from beta", time.Time{})
			if deleterFirst {
				a.sync()
				r := b.sync()
				if !r.Conflicted || r.Conflicts[0].Kind != KindDeleted {
					t.Fatalf("edit vs delete: %s %+v", r.Line(), r.Conflicts)
				}
				a.sync()
			} else {
				b.sync()
				r := a.sync()
				if !r.Conflicted || r.Conflicts[0].Kind != KindDeleted {
					t.Fatalf("delete vs edit: %s %+v", r.Line(), r.Conflicts)
				}
				b.sync()
			}
			for _, h := range []*home{a, b} {
				if got := h.get(n.ID).Body; got != "v2 from beta" {
					t.Errorf("%s: %q, want the edit", h.machine, got)
				}
				h.assertClean()
			}
		})
	}
}

func TestMoveAndEditRaceKeepsOneFilePerID(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for _, c := range []struct {
		moverFirst, moverNewer bool
	}{{true, false}, {false, false}, {true, true}, {false, true}} {
		t.Run(fmt.Sprintf("mover pushes first %v, mover newer %v", c.moverFirst, c.moverNewer), func(t *testing.T) {
			remote := newRemote(t)
			a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
			n := a.write(note.Semantic, "Use zod", "validate bodies")
			a.sync()
			b.sync()
			// alpha changes the type (the file moves to procedural/); beta edits it in semantic/.
			moved := a.get(n.ID)
			moved.Type = note.Procedural
			moved.Body = "validate bodies, moved"
			offset := -time.Minute
			if c.moverNewer {
				offset = time.Minute
			}
			moved.UpdatedAt = note.FormatTime(time.Now().Add(offset))
			st := a.store()
			if err := st.Put(context.Background(), moved); err != nil {
				t.Fatal(err)
			}
			st.Close()
			b.edit(n.ID, "validate bodies and queries", time.Now())
			first, second := a, b
			if !c.moverFirst {
				first, second = b, a
			}
			first.sync()
			r := second.sync()
			first.sync()
			if !r.Conflicted || len(r.ConflictIDs) != 1 {
				t.Fatalf("move vs edit not reported: %s", r.Line())
			}
			winType, winBody, loseType, loseBody := note.Semantic, "validate bodies and queries", note.Procedural, "validate bodies, moved"
			if c.moverNewer {
				winType, winBody, loseType, loseBody = loseType, loseBody, winType, winBody
			}
			for _, h := range []*home{a, b} {
				ns := h.notes() // fails on an id in two files
				if ns[n.ID] == nil || ns[n.ID].Body != winBody || ns[n.ID].Type != winType {
					t.Fatalf("%s: winner %+v", h.machine, ns[n.ID])
				}
				cp := ns[r.ConflictIDs[0]]
				if cp == nil || !cp.HasTag("conflict") || cp.Type != loseType || !strings.HasSuffix(cp.Body, loseBody) || !strings.Contains(firstLine(cp.Body), n.ID) {
					t.Errorf("%s: the other version was not kept as a conflict note: %+v", h.machine, cp)
				}
				h.assertClean()
			}
		})
	}
}

// TestTypeMovesOnBothSides: every note of one type directory moved away on
// one machine (which git's merge would take for a directory rename) while
// the other moved one of them elsewhere and edited another: one file per
// id, nothing dropped.
func TestTypeMovesOnBothSides(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	var ids []string
	for i := range 3 {
		ids = append(ids, a.write(note.Procedural, fmt.Sprintf("p%d", i), fmt.Sprintf("body %d", i)).ID)
	}
	a.write(note.Semantic, "keeps semantic non-empty", "x")
	a.sync()
	b.sync()
	retype := func(h *home, id, typ, body string, at time.Time) {
		n := h.get(id)
		n.Type, n.Body, n.UpdatedAt = typ, body, note.FormatTime(at)
		st := h.store()
		defer st.Close()
		if err := st.Put(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	for i, id := range ids { // alpha empties procedural/
		retype(a, id, note.Semantic, fmt.Sprintf("alpha moved %d", i), now.Add(-time.Minute))
	}
	retype(b, ids[0], note.Episodic, "beta moved 0", now)
	retype(b, ids[1], note.Procedural, "beta edited 1", now)
	a.sync()
	b.sync()
	a.sync()
	for _, h := range []*home{a, b} {
		ns := h.notes()
		want := map[string]string{ids[0]: "beta moved 0", ids[1]: "beta edited 1", ids[2]: "alpha moved 2"}
		for id, body := range want {
			if ns[id] == nil || ns[id].Body != body {
				t.Errorf("%s: %s = %+v, want %q", h.machine, id, ns[id], body)
			}
		}
		var copies []string
		for _, n := range ns {
			if n.HasTag("conflict") {
				copies = append(copies, n.Body[strings.LastIndex(n.Body, "\n")+1:])
			}
		}
		slices.Sort(copies)
		if !slices.Equal(copies, []string{"alpha moved 0", "alpha moved 1"}) {
			t.Errorf("%s: conflict copies %q", h.machine, copies)
		}
		h.assertClean()
	}
}

// TestDirectoryRenameGuessLosesNothing is the case git's own merge (ort,
// 2.39) gets wrong even with renames turned off: one machine moves every
// note out of procedural/ into semantic/ and edits semantic note X; the
// other moves X into procedural/. Git takes procedural/ -> semantic/ for a
// directory rename, moves X back onto the edited copy and drops both,
// reporting a clean merge.
func TestDirectoryRenameGuessLosesNothing(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	long := strings.Repeat("a shared paragraph that keeps versions similar, as real notes are\n", 8)
	p1 := a.write(note.Procedural, "p1", long+"p1")
	p2 := a.write(note.Procedural, "p2", long+"p2")
	x := a.write(note.Semantic, "x", long+"x base")
	a.write(note.Semantic, "s1", "s1")
	a.write(note.Semantic, "s2", "s2")
	a.sync()
	b.sync()
	retype := func(h *home, id, typ, body string, at time.Time) {
		n := h.get(id)
		n.Type, n.Body, n.UpdatedAt = typ, body, note.FormatTime(at)
		st := h.store()
		defer st.Close()
		if err := st.Put(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	retype(b, p1.ID, note.Semantic, long+"p1", now)
	retype(b, p2.ID, note.Semantic, long+"p2", now)
	retype(b, x.ID, note.Semantic, long+"x beta", now.Add(time.Minute))
	retype(a, x.ID, note.Procedural, long+"x alpha", now)
	b.sync()
	r := a.sync()
	b.sync()
	if !r.Conflicted {
		t.Errorf("not reported: %s", r.Line())
	}
	for _, h := range []*home{a, b} {
		ns := h.notes()
		if ns[x.ID] == nil || ns[x.ID].Body != long+"x beta" || ns[x.ID].Type != note.Semantic {
			t.Fatalf("%s: x = %+v", h.machine, ns[x.ID])
		}
		found := false
		for _, n := range ns {
			found = found || (n.HasTag("conflict") && strings.HasSuffix(n.Body, "x alpha") && n.Type == note.Procedural)
		}
		if !found {
			t.Errorf("%s: alpha's version of x lost", h.machine)
		}
		if ns[p1.ID] == nil || ns[p1.ID].Type != note.Semantic || ns[p2.ID] == nil {
			t.Errorf("%s: moved notes lost", h.machine)
		}
		h.assertClean()
	}
}

func TestLocalOnlyHomeGainsRemoteLater(t *testing.T) {
	needGit(t)
	isolateGit(t)
	env := func(string) string { return "" }
	h := newHome(t, "alpha", "")
	h.write(note.Semantic, "one", "first")
	resolve := func() Options {
		o := OptionsFrom(config.Resolve(h.dir, env))
		o.Import = false
		return o
	}
	r, err := Sync(context.Background(), resolve())
	if err != nil || r.Pushed || !r.Committed || !strings.Contains(r.Detail, "remote") {
		t.Fatalf("local only: %s %v", r.Line(), err)
	}
	h.write(note.Semantic, "two", "second")
	Sync(context.Background(), resolve())
	local := h.head()

	// `anamnesis config set remote URL` writes config.json the same way.
	remote := newRemote(t)
	f, _ := config.Load(h.dir)
	if err := f.Set("remote", remote); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	r, err = Sync(context.Background(), resolve())
	if err != nil || !r.Pushed {
		t.Fatalf("after config set remote: %s %v", r.Line(), err)
	}
	if got := gitIn(t, remote, "rev-parse", "main"); got != local {
		t.Fatalf("remote main %s, want the local history %s", got, local)
	}
	if n := gitIn(t, remote, "rev-list", "--count", "main"); n != "2" {
		t.Errorf("remote has %s commits, want the 2 local ones", n)
	}

	// A changed URL takes effect on the next sync.
	remote2 := newRemote(t)
	f, _ = config.Load(h.dir)
	f.Set("remote", remote2)
	f.Save()
	h.write(note.Semantic, "three", "third")
	r, err = Sync(context.Background(), resolve())
	if err != nil || !r.Pushed {
		t.Fatalf("after changing the remote: %s %v", r.Line(), err)
	}
	if got := gitIn(t, remote2, "rev-parse", "main"); got != h.head() {
		t.Fatalf("new remote not pushed to")
	}
	if got := gitIn(t, h.dir+"/memory", "remote", "get-url", "origin"); got != remote2 {
		t.Errorf("origin = %s", got)
	}
}

func TestLocalOnlyHomeJoinsPopulatedRemote(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a := newHome(t, "alpha", remote)
	na := a.write(note.Semantic, "from alpha", "a")
	a.sync()
	b := newHome(t, "beta", "")
	nb := b.write(note.Semantic, "from beta", "b")
	b.sync() // local history of its own
	b.remote = remote
	r := b.sync()
	if !r.Pushed || r.Pulled != 1 || r.Conflicted {
		t.Fatalf("joining: %s", r.Line())
	}
	a.sync()
	for _, h := range []*home{a, b} {
		ns := h.notes()
		if ns[na.ID] == nil || ns[nb.ID] == nil {
			t.Errorf("%s: missing notes", h.machine)
		}
		h.assertClean()
	}
}

func TestUnreachableRemoteKeepsLocalCommits(t *testing.T) {
	needGit(t)
	isolateGit(t)
	t.Run("missing path", func(t *testing.T) {
		h := newHome(t, "alpha", filepath.Join(t.TempDir(), "does", "not", "exist.git"))
		n := h.write(note.Semantic, "offline", "written offline")
		o := h.opts()
		o.Timeout = 5 * time.Second
		start := time.Now()
		r, err := Sync(context.Background(), o)
		if err == nil || r.Pushed {
			t.Fatalf("want an error: %s", r.Line())
		}
		if time.Since(start) > o.Timeout {
			t.Errorf("took %s", time.Since(start))
		}
		if !strings.Contains(r.Detail, "does not appear to be a git repository") || !strings.Contains(r.Detail, "kept") {
			t.Errorf("detail %q", r.Detail)
		}
		if log := gitIn(t, h.dir+"/memory", "log", "--name-only", "--format="); !strings.Contains(log, n.ID+".md") {
			t.Error("note not committed locally")
		}
		h.assertClean()
	})
	t.Run("ssh host that does not answer", func(t *testing.T) {
		if _, err := exec.LookPath("ssh"); err != nil {
			t.Skip("no ssh client")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		// Accept and never say a word: ssh waits for a banner that never comes.
		acceptDone := make(chan []net.Conn, 1)
		go func() {
			var held []net.Conn
			for {
				c, err := ln.Accept()
				if err != nil {
					acceptDone <- held
					return
				}
				held = append(held, c)
			}
		}()
		port := ln.Addr().(*net.TCPAddr).Port
		for _, userSSH := range []bool{false, true} {
			if userSSH {
				// A user's own ssh command with a long timeout: the sync's
				// deadline must still stop it (and ssh with it).
				t.Setenv("GIT_SSH_COMMAND", "ssh -o BatchMode=yes -o ConnectTimeout=120 -o StrictHostKeyChecking=no")
			}
			h := newHome(t, "alpha", "ssh://git@127.0.0.1:"+strconv.Itoa(port)+"/srv/memory.git")
			h.write(note.Semantic, "offline", "x")
			o := h.opts()
			o.Timeout = 2 * time.Second
			start := time.Now()
			r, err := Sync(context.Background(), o)
			took := time.Since(start)
			t.Logf("%s: %s", took, r.Line())
			if err == nil {
				t.Fatalf("want an error: %s", r.Line())
			}
			if took > o.Timeout+1500*time.Millisecond {
				t.Errorf("sync took %s with a %s deadline", took, o.Timeout)
			}
			if !strings.Contains(r.Detail, "timed out") && !strings.Contains(strings.ToLower(r.Detail), "timeout") {
				t.Errorf("detail %q", r.Detail)
			}
			if !strings.Contains(r.Detail, "1 local commit(s) kept") {
				t.Errorf("detail %q does not say the commit is kept", r.Detail)
			}
			h.assertClean()
			if left := processesMentioning("127.0.0.1", strconv.Itoa(port)); len(left) > 0 {
				t.Errorf("processes left behind after the deadline: %v", left)
			}
		}
		ln.Close()
		for _, c := range <-acceptDone {
			c.Close()
		}
	})
}

func TestIgnoredFilesNeverEnterHistory(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	h := newHome(t, "alpha", remote)
	h.write(note.Semantic, "portable", "goes everywhere")
	local := note.New(note.Semantic, "machine local", "stays here")
	local.Scope = note.MachineLocal
	st := h.store()
	if _, err := st.Write(context.Background(), local); err != nil {
		t.Fatal(err)
	}
	st.Close()
	mem := filepath.Join(h.dir, "memory")
	// Strays a careless tool might leave inside the synced tree.
	for _, f := range []string{"index.db", "index.db-wal", "index.db-shm", "x-wal", "x-shm", "semantic/.tmp-123", "scratch.tmp"} {
		os.WriteFile(filepath.Join(mem, f), []byte("junk"), 0o644)
	}
	h.sync()
	h.write(note.Episodic, "later", "second commit")
	h.sync()
	if _, err := os.Stat(filepath.Join(h.dir, "index.db-wal")); err != nil {
		t.Logf("(no WAL file beside index.db at this moment: %v)", err)
	}
	for _, repo := range []string{mem, remote} {
		names := gitIn(t, repo, "log", "--all", "--name-only", "--format=")
		for _, line := range strings.Split(names, "\n") {
			if strings.HasSuffix(line, ".db") || strings.Contains(line, ".db-") || strings.HasSuffix(line, "-wal") ||
				strings.HasSuffix(line, "-shm") || strings.Contains(line, ".tmp") || strings.HasPrefix(line, "local/") ||
				strings.Contains(line, "config.json") || strings.Contains(line, "sync.lock") {
				t.Errorf("%s: %q entered the history", repo, line)
			}
		}
		if strings.Contains(names, local.Title) {
			t.Error("machine-local note in history")
		}
	}
	// The machine-local note's id must not appear in any commit either.
	all := gitIn(t, mem, "log", "--all", "-p", "--format=")
	if strings.Contains(all, "stays here") {
		t.Error("machine-local note content entered the history")
	}
}

func TestSecondSyncIsSkippedWhileLocked(t *testing.T) {
	needGit(t)
	isolateGit(t)
	h := newHome(t, "alpha", newRemote(t))
	os.MkdirAll(h.dir, 0o755)
	lk, err := acquire(context.Background(), LockPath(h.dir), 0)
	if err != nil {
		t.Fatal(err)
	}
	o := h.opts()
	o.LockWait = 300 * time.Millisecond
	start := time.Now()
	r, err := Sync(context.Background(), o)
	if err != nil || !r.Skipped || r.Detail != "skipped (another sync is running)" {
		t.Fatalf("locked: %+v %v", r, err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 3*time.Second {
		t.Errorf("waited %s", d)
	}
	// A local commit does not wait for a sync: it takes the commit lock only.
	h.write(note.Episodic, "s", "captured")
	if ok, err := Commit(context.Background(), h.dir, "alpha", "", 100*time.Millisecond); err != nil || !ok {
		t.Errorf("Commit while a sync holds the sync lock: %v %v", ok, err)
	}
	clk, err := acquire(context.Background(), CommitLockPath(h.dir), 0)
	if err != nil {
		t.Fatal(err)
	}
	h.write(note.Episodic, "s2", "captured")
	if _, err := Commit(context.Background(), h.dir, "alpha", "", 100*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Errorf("Commit under the commit lock: %v", err)
	}
	clk.release()
	lk.release()
	if r := h.sync(); r.Skipped {
		t.Fatal("still skipped after release")
	}
}

func TestStuckRepositoryIsRecovered(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	n := a.write(note.Semantic, "t", "base")
	a.sync()
	b.sync()
	a.edit(n.ID, "alpha", time.Time{})
	b.edit(n.ID, "beta", time.Now().Add(time.Minute))
	a.sync()
	mem := b.dir + "/memory"
	gitIn(t, mem, "add", "-A")
	gitIn(t, mem, "commit", "-qm", "beta edit")
	gitIn(t, mem, "fetch", "-q", "origin")
	// What the reference leaves when it dies mid-rebase.
	if out, err := gitTry(mem, "rebase", "origin/main"); err == nil {
		t.Fatalf("rebase should have conflicted: %s", out)
	}
	if _, err := os.Stat(filepath.Join(mem, ".git", "rebase-merge")); err != nil {
		if _, err := os.Stat(filepath.Join(mem, ".git", "rebase-apply")); err != nil {
			t.Fatal("no rebase in progress to recover from")
		}
	}
	if st := State(context.Background(), b.dir, remote, nil); !strings.Contains(st.Detail, "rebase") {
		t.Errorf("state detail %q", st.Detail)
	}
	r := b.sync()
	if !r.Conflicted || !r.Pushed {
		t.Fatalf("recovery sync: %s", r.Line())
	}
	b.assertClean()
	a.sync()
	if a.get(n.ID).Body != "beta" {
		t.Error("later edit not in place")
	}

	// A merge left half done (a crash between merge and commit).
	a.edit(n.ID, "alpha again", time.Now().Add(2*time.Minute))
	a.sync()
	b.write(note.Semantic, "b2", "x")
	gitIn(t, mem, "add", "-A")
	gitIn(t, mem, "commit", "-qm", "b2")
	gitIn(t, mem, "fetch", "-q", "origin")
	gitIn(t, mem, "merge", "--no-ff", "--no-commit", "origin/main")
	if _, err := os.Stat(filepath.Join(mem, ".git", "MERGE_HEAD")); err != nil {
		t.Fatal("no merge in progress")
	}
	r = b.sync()
	if !r.Pushed {
		t.Fatalf("after a half merge: %s", r.Line())
	}
	b.assertClean()
}

func TestStateAndCommit(t *testing.T) {
	needGit(t)
	isolateGit(t)
	h := newHome(t, "alpha", "")
	st := State(context.Background(), h.dir, "", nil)
	if st.Initialized || st.Head != nil {
		t.Fatalf("fresh: %+v", st)
	}
	data, _ := json.Marshal(st)
	var m map[string]any
	json.Unmarshal(data, &m)
	if v, ok := m["remote"]; !ok || v != nil {
		t.Errorf("remote should be null: %s", data)
	}
	if v, ok := m["head"]; !ok || v != nil {
		t.Errorf("head should be null: %s", data)
	}
	n := h.write(note.Episodic, "session", "captured")
	ok, err := Commit(context.Background(), h.dir, "alpha", "", 0)
	if err != nil || !ok {
		t.Fatalf("commit: %v %v", ok, err)
	}
	if ok, _ := Commit(context.Background(), h.dir, "alpha", "", 0); ok {
		t.Error("second commit with nothing new")
	}
	if log := gitIn(t, h.dir+"/memory", "log", "--name-only", "--format=%s"); !strings.Contains(log, n.ID) {
		t.Errorf("note not committed: %s", log)
	}
	st = State(context.Background(), h.dir, "/some/remote.git", nil)
	if !st.Initialized || st.Head == nil || st.Dirty || st.Remote == nil || *st.Remote != "/some/remote.git" || st.Unpushed != 1 {
		t.Errorf("after commit: %+v", st)
	}
	h.write(note.Episodic, "another", "x")
	if st := State(context.Background(), h.dir, "", nil); !st.Dirty {
		t.Error("dirty not reported")
	}
}

func TestRemoteStartingWithDashIsRefused(t *testing.T) {
	h := newHome(t, "alpha", "--upload-pack=touch /tmp/pwned")
	r, err := Sync(context.Background(), h.opts())
	if err == nil || !strings.Contains(r.Detail, "refusing") {
		t.Fatalf("%s %v", r.Line(), err)
	}
}

func firstID(h *home) string {
	ids := []string{}
	for id := range h.notes() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids[0]
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// processesMentioning lists live processes whose command line contains s
// (Linux only; elsewhere it finds nothing).
func processesMentioning(all ...string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range dirs {
		data, err := os.ReadFile(p)
		if err == nil && !slices.ContainsFunc(all, func(s string) bool { return !strings.Contains(string(data), s) }) {
			out = append(out, strings.ReplaceAll(string(data), "\x00", " "))
		}
	}
	return out
}
