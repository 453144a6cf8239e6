package main

import (
	"os"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
)

// inject tells recall what its block showed (so recall never repeats a
// note) and the index watermark it rendered at, and traces the block.
func TestInjectRecordsWhatItShowed(t *testing.T) {
	t.Setenv("ANAMNESIS_INJECT_MAX_CHARS", "")
	home := refHome(t)
	payload := `{"session_id":"sess-1","cwd":"/nonexistent/dir","hook_event_name":"SessionStart","source":"startup"}`
	out, _, _ := runInject(t, home, strings.NewReader(payload), "--max-chars", "1500")
	if out == "" {
		t.Fatal("no block")
	}
	s, err := session.Load(home, "sess-1")
	if err != nil || s.Mark == 0 || len(s.IDs) == 0 {
		t.Fatalf("session state %+v %v", s, err)
	}
	tr, err := session.ReadTrace(home)
	if err != nil || len(tr) != 1 {
		t.Fatalf("trace %+v %v", tr, err)
	}
	if e := tr[0]; e.Hook != "inject" || e.Session != "sess-1" || e.Chars != len([]rune(out)) || strings.Join(e.IDs, ",") != strings.Join(s.IDs, ",") {
		t.Errorf("trace entry %+v, state %+v", e, s)
	}
	// Every recorded note is in the block, and the block holds no other:
	// its headings count the recorded ids.
	if n := strings.Count(out, "\n## ["); n != len(s.IDs) {
		t.Errorf("block has %d notes, %d recorded:\n%s", n, len(s.IDs), out)
	}

	// recall's notes, then a compaction: the context is fresh, so what
	// recall showed before is forgotten; a resume keeps it.
	s.Add("RECALLED")
	s.Prompts = 3
	session.Save(home, "sess-1", s)
	runInject(t, home, strings.NewReader(strings.Replace(payload, "startup", "resume", 1)), "--max-chars", "1500")
	if s2, _ := session.Load(home, "sess-1"); !s2.Shown("RECALLED") || s2.Prompts != 0 {
		t.Errorf("after resume: %+v", s2)
	}
	runInject(t, home, strings.NewReader(strings.Replace(payload, "startup", "compact", 1)), "--max-chars", "1500")
	if s3, _ := session.Load(home, "sess-1"); s3.Shown("RECALLED") || len(s3.IDs) != len(s.IDs)-1 {
		t.Errorf("after compact: %+v", s3)
	}
}

// A session served from the block cache (the index never opened) is
// recorded like the one that rendered the block: what it shows and the
// watermark are kept in the cache with it.
func TestCachedBlockIsRecordedToo(t *testing.T) {
	t.Setenv("ANAMNESIS_INJECT_MAX_CHARS", "")
	home := refHome(t)
	payload := `{"session_id":"one","cwd":"/nonexistent/dir","hook_event_name":"SessionStart","source":"startup"}`
	first, _, _ := runInject(t, home, strings.NewReader(payload), "--max-chars", "1500")
	second, _, _ := runInject(t, home, strings.NewReader(strings.Replace(payload, `"one"`, `"two"`, 1)), "--max-chars", "1500")
	if first == "" || first != second {
		t.Fatalf("cached block differs:\n%s\n---\n%s", first, second)
	}
	a, _ := session.Load(home, "one")
	b, _ := session.Load(home, "two")
	if len(a.IDs) == 0 || a.Mark == 0 || strings.Join(a.IDs, ",") != strings.Join(b.IDs, ",") || a.Mark != b.Mark {
		t.Errorf("rendered session recorded as %+v, cached one as %+v", a, b)
	}
	if data, _ := os.ReadFile(hook.LogPath(home)); strings.Contains(string(data), "not recorded") {
		t.Errorf("log:\n%s", data)
	}
}
