package main

import (
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/reftest"
)

// The server keeps its store open for the whole session; the reference
// implementation run on the same home meanwhile (SPEC 3.2: a home is opened
// by turns by us and either reference version) rebuilds index.db with its
// own schema. Every later tool call failed ("no such index", "table
// memories has no column named ...") until the session ended; the server
// now sees the foreign index and opens the store again, which rebuilds it.
func TestServerOutlivesReferenceRebuild(t *testing.T) {
	h := newHarness(t)
	var w struct{ ID string }
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "Postgres listens on 5433", "body": "The staging database listens on port 5433."}, &w)
	for _, v := range []string{"head", "seed-era"} {
		if out, err := reftest.Python(t, v, `import sys
from anamnesis.store import MemoryStore
MemoryStore(root=sys.argv[1]).write(type="semantic", title="Redis listens on 6380 "+sys.argv[2], body="The cache is redis on port 6380.")`, []string{h.home, v}); err != nil {
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
