package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The server keeps its store open for the whole session; the reference
// implementation run on the same home meanwhile (SPEC 3.2: a home is opened
// by turns by us and either reference version) rebuilds index.db with its
// own schema. Every later tool call failed ("no such index", "table
// memories has no column named ...") until the session ended; the server
// now sees the foreign index and opens the store again, which rebuilds it.
func TestServerOutlivesReferenceRebuild(t *testing.T) {
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		t.Skip("python3 with PyYAML is not installed; the reference cannot run")
	}
	src := "/work/shared/reference-impl"
	if v := os.Getenv("ANAMNESIS_REFERENCE_IMPL"); v != "" {
		src = v
	}
	h := newHarness(t)
	var w struct{ ID string }
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "Postgres listens on 5433", "body": "The staging database listens on port 5433."}, &w)
	for _, v := range []string{"head", "seed-era"} {
		if _, err := os.Stat(filepath.Join(src, v, "anamnesis")); err != nil {
			t.Skipf("the reference implementation is not at %s ($ANAMNESIS_REFERENCE_IMPL)", src)
		}
		cmd := exec.Command("python3", "-c", `import sys
from anamnesis.store import MemoryStore
MemoryStore(root=sys.argv[1]).write(type="semantic", title="Redis listens on 6380 "+sys.argv[2], body="The cache is redis on port 6380.")`, h.home, v)
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1",
			"PYTHONPATH="+filepath.Join(src, "shim")+string(os.PathListSeparator)+filepath.Join(src, v))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("reference %s: %v\n%s", v, err, out)
		}
		var found struct {
			Result []struct{ ID, Title string }
		}
		h.ok("memory_search", map[string]any{"query": "port"}, &found)
		titles := ""
		for _, r := range found.Result {
			titles += r.Title + "\n"
		}
		if !strings.Contains(titles, "Postgres listens on 5433") || !strings.Contains(titles, "Redis listens on 6380 "+v) {
			t.Errorf("after the %s reference wrote, memory_search found:\n%s", v, titles)
		}
		h.ok("memory_write", map[string]any{"type": "semantic", "title": "Written after " + v, "body": "The queue is rabbitmq."}, nil)
		h.ok("memory_list", map[string]any{}, nil)
	}
}
