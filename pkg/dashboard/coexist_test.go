package dashboard

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The dashboard keeps its store open for its life; the reference
// implementation run on the same home meanwhile (SPEC 3.2) rebuilds
// index.db with its own schema. Every page that lists or searches then
// failed ("no such index: idx_tags_tag") until the dashboard was
// restarted; the next request now rebuilds the index and finds the
// reference's note.
func TestDashboardOutlivesReferenceRebuild(t *testing.T) {
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		t.Skip("python3 with PyYAML is not installed; the reference cannot run")
	}
	src := "/work/shared/reference-impl"
	if v := os.Getenv("ANAMNESIS_REFERENCE_IMPL"); v != "" {
		src = v
	}
	if _, err := os.Stat(filepath.Join(src, "head", "anamnesis")); err != nil {
		t.Skipf("the reference implementation is not at %s ($ANAMNESIS_REFERENCE_IMPL)", src)
	}
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	want(t, c.get("/notes"), http.StatusOK)
	cmd := exec.Command("python3", "-c", `import sys
from anamnesis.store import MemoryStore
print(MemoryStore(root=sys.argv[1]).write(type="semantic", title="Wombat cache note", body="The wombat cache listens on 6380.").id)`, f.home)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1",
		"PYTHONPATH="+filepath.Join(src, "shim")+string(os.PathListSeparator)+filepath.Join(src, "head"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	id := string(out[:len(out)-1])
	want(t, c.get("/notes?q=wombat"), http.StatusOK, `href="/notes/`+id+`"`)
	want(t, c.get("/api/search?q=wombat"), http.StatusOK, id)
	want(t, c.get("/"), http.StatusOK)
}
