package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reference runs python code with a reference version's package importable
// ("seed-era" or "head"), from a copy so no bytecode lands in ../shared.
// It skips when python3 with PyYAML is missing.
func reference(t *testing.T, version, code string, env ...string) string {
	t.Helper()
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		t.Skip("python3 with PyYAML is not installed; the reference cannot run")
	}
	src := "/work/shared/reference-impl"
	if v := os.Getenv("ANAMNESIS_REFERENCE_IMPL"); v != "" {
		src = v
	}
	if _, err := os.Stat(filepath.Join(src, version, "anamnesis")); err != nil {
		t.Skipf("the reference implementation is not at %s ($ANAMNESIS_REFERENCE_IMPL)", src)
	}
	cmd := exec.Command("python3", "-c", code)
	cmd.Env = append(os.Environ(), append(env, "PYTHONDONTWRITEBYTECODE=1",
		"PYTHONPATH="+filepath.Join(src, "shim")+string(os.PathListSeparator)+filepath.Join(src, version))...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reference %s: %v\n%s", version, err, out)
	}
	return string(out)
}

// get --json prints a body as the reference's reader returns it: a file
// with CRLF or a lone CR in its body reads as LF in both.
func TestGetJSONBodyAsReferenceReads(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("HOME", t.TempDir())
	data := "---\nid: 01JZCRLF0000000000000000ZZ\ntype: semantic\ntitle: Pasted from Windows\nproject: global\nmachine_id: dev\nscope: portable\nprov_source: human\nconfidence: 1.0\ncreated_at: '2026-05-01T09:00:00+00:00'\nupdated_at: '2026-05-01T09:00:00+00:00'\ntags: []\n---\nline one\r\nline two\rline three\n"
	dir := filepath.Join(home, "memory", "semantic")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "01JZCRLF0000000000000000ZZ.md"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := anamnesis(t, "get", "01JZCRLF0000000000000000ZZ", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ours struct{ Body string }
	if err := json.Unmarshal([]byte(out), &ours); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"seed-era", "head"} {
		ref := reference(t, v, `import json, os
from anamnesis.store import MemoryStore
print(json.dumps(MemoryStore(root=os.environ["REF_HOME"]).get("01JZCRLF0000000000000000ZZ").body))`, "REF_HOME="+home)
		var body string
		if err := json.Unmarshal([]byte(strings.TrimSpace(ref)), &body); err != nil {
			t.Fatalf("%s: %v\n%s", v, err, ref)
		}
		if ours.Body != body || strings.Contains(body, "\r") {
			t.Errorf("%s reads %q, get --json prints %q", v, body, ours.Body)
		}
	}
	// The file keeps its bytes: reading is not rewriting.
	if b, _ := os.ReadFile(filepath.Join(dir, "01JZCRLF0000000000000000ZZ.md")); string(b) != data {
		t.Errorf("the file changed: %q", b)
	}
}

// reflect --min 0 with nothing to reflect says so, asks no model, exits 0;
// a reply with prose around a fenced JSON array is read.
func TestReflectNothingToDoAndProseAroundFence(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("ANAMNESIS_MACHINE_ID", "box")
	t.Setenv("HOME", t.TempDir())
	srv, sent := modelStandIn(t, "Here are the notes I distilled:\n```json\n[{\"type\":\"semantic\",\"title\":\"Builds use make\",\"body\":\"Run make build.\"}]\n```\nLet me know if you need more.")
	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
	t.Setenv("ANAMNESIS_REFLECTION_MODEL", "m")
	t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", srv.URL+"/v1")
	out, _, err := anamnesis(t, "reflect", "--project", "demo", "--min", "0", "--apply", "--no-sync")
	if err != nil || !strings.Contains(out, "nothing to reflect") || sent.Len() != 0 {
		t.Fatalf("nothing to do: %v, %d bytes sent\n%s", err, sent.Len(), out)
	}
	if _, _, err := anamnesis(t, "write", "--type", "episodic", "--project", "demo", "--title", "Built it", "--tags", "session", "--body", "ran make build"); err != nil {
		t.Fatal(err)
	}
	out, _, err = anamnesis(t, "reflect", "--project", "demo", "--min", "0", "--apply", "--no-sync")
	if err != nil || !strings.Contains(out, "wrote 1 note(s)") || !strings.Contains(out, "Builds use make") {
		t.Fatalf("prose around a fence: %v\n%s", err, out)
	}
}
