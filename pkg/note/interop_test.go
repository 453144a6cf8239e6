package note

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/reftest"
)

const interopNotes = "../../testdata/fixtures/interop/notes/"

// Files as the reference's writer (PyYAML safe_dump, seed key order) writes
// them come back byte for byte, with the values the reference reads.
func TestInteropGoldensRoundTrip(t *testing.T) {
	for _, c := range []struct {
		file  string
		check func(*Note) string
	}{
		{"confidence-zero.md", func(n *Note) string {
			if n.Confidence != 0 {
				return "confidence 0.0 read as " + formatFloat(n.Confidence)
			}
			return ""
		}},
		{"crlf-body.md", func(n *Note) string {
			if n.Body != "line one\r\nline two\r\nline three" {
				return "body " + strings.ReplaceAll(n.Body, "\r", `\r`)
			}
			return ""
		}},
		{"spaced-tags.md", func(n *Note) string {
			if !slices.Equal(n.Tags, []string{" dup ", "dup", "x "}) {
				return "tags " + strings.Join(n.Tags, "|")
			}
			return ""
		}},
		{"newest-reference.md", func(n *Note) string {
			if n.ProvSource != ProvMerge || len(n.Supersedes) != 2 || !slices.Equal(n.ExtraKeys(), []string{"user_id", "workspace_id"}) {
				return "newest reference note read as " + n.ProvSource + " " + strings.Join(n.ExtraKeys(), ",")
			}
			return ""
		}},
		{"anchor-alias.md", func(n *Note) string {
			if !slices.Equal(n.ExtraKeys(), []string{"x_owner", "x_reviewer"}) {
				return "extra keys " + strings.Join(n.ExtraKeys(), ",")
			}
			return ""
		}},
	} {
		data, err := os.ReadFile(interopNotes + c.file)
		if err != nil {
			t.Fatal(err)
		}
		n, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if msg := c.check(n); msg != "" {
			t.Errorf("%s: %s", c.file, msg)
		}
		out := n.Marshal()
		if !bytes.Equal(out, data) {
			t.Errorf("%s: rewrite differs\n got %q\nwant %q", c.file, out, data)
		}
		// PyYAML refuses a document that defines an anchor twice.
		if c := bytes.Count(out, []byte("&owner")); c > 1 {
			t.Errorf("anchor written %d times:\n%s", c, out)
		}
	}
}

// A file with CRLF line endings throughout (front-matter included) is still
// read, as plain LF text.
func TestCRLFFileStillRead(t *testing.T) {
	data, _ := os.ReadFile(interopNotes + "spaced-tags.md")
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	n, err := Parse(crlf)
	if err != nil {
		t.Fatal(err)
	}
	if n.Body != "Tags as typed." || !bytes.Equal(n.Marshal(), data) {
		t.Errorf("CRLF file: body %q, rewrite %q", n.Body, n.Marshal())
	}
}

// A tag or title holding a YAML line break (NEL, LS, PS) is written double-quoted,
// which the reference's reader (PyYAML safe_load) loads back to the same string.
func TestLineBreakScalarsLoadInPyYAML(t *testing.T) {
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		t.Skip("python3 with PyYAML is not installed; the reference reader cannot run")
	}
	values := []string{"a\u0085b", "\u0085", "x\u2028y", "p\u2029q", "nel\u0085 end"}
	n := New("semantic", "title\u0085with nel", "body")
	n.Tags = values
	path := filepath.Join(t.TempDir(), "n.md")
	if err := os.WriteFile(path, n.Marshal(), 0o600); err != nil {
		t.Fatal(err)
	}
	const read = `
import json, sys, yaml
text = open(sys.argv[1], encoding="utf-8").read()
front = text[4:].partition("\n---\n")[0]
meta = yaml.safe_load(front)
print(json.dumps({"title": meta["title"], "tags": meta["tags"]}))
`
	out, err := exec.Command("python3", "-c", read, path).Output()
	if err != nil {
		t.Fatalf("PyYAML cannot read the file: %v\n%s", err, n.Marshal())
	}
	var got struct {
		Title string
		Tags  []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.Title != n.Title || !slices.Equal(got.Tags, values) {
		t.Errorf("PyYAML read title %q tags %q, want %q %q", got.Title, got.Tags, n.Title, values)
	}
}

// A note the reference wrote with a carriage return or a U+FFFD in its
// values (it writes both double-quoted, "\r" escaped and U+FFFD as is) is
// rewritten by us (here: tagged, as reflect tags a source) and must load in
// the reference's own reader with the same values. The reference reads files
// in text mode, so a CR written raw becomes a line break there: a value of
// "x\r---" ended its front-matter early, and a CR in a tag made the file
// fail to load (its reindex aborts on it). U+FFFD was escaped as "\xFFFD",
// which YAML reads as "ÿFD".
func TestReferenceValuesWithCRAndReplacementCharSurviveRewrite(t *testing.T) {
	reftest.Dir(t, "head")
	path := filepath.Join(t.TempDir(), "01JZCR00000000000000000000.md")
	const code = `
import dataclasses, json, sys
from anamnesis.store import Memory, _serialize, _deserialize
path = sys.argv[2]
if sys.argv[1] == "write":
    m = Memory(id="01JZCR00000000000000000000", type="semantic", title="Build \ufffd output\tseen",
        body="b", project="p\r---", machine_id="m\r", prov_model="x/\ry",
        tags=["a\rb", "=\r", "ok\ufffd\n"], created_at="2026-01-01T00:00:00+00:00",
        updated_at="2026-01-01T00:00:00+00:00")
    open(path, "w", encoding="utf-8").write(_serialize(m))
m = dataclasses.asdict(_deserialize(open(path, encoding="utf-8").read()))
print(json.dumps({k: m[k] for k in ("title", "project", "machine_id", "prov_model", "tags")}))
`
	ref := func(mode string) string {
		out, err := reftest.Python(t, "head", code, []string{mode, path})
		if err != nil {
			t.Fatalf("reference %s: %v\n%s", mode, err, out)
		}
		return out
	}
	before := ref("write")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if n.Project != "p\r---" || n.Title != "Build \ufffd output\tseen" {
		t.Fatalf("read project %q title %q", n.Project, n.Title)
	}
	n.Tags = append(n.Tags, "reflected")
	if err := os.WriteFile(path, n.Marshal(), 0o600); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(before, `"]}`, `", "reflected"]}`, 1)
	if got := ref("read"); got != want {
		t.Errorf("the reference reads our rewrite as\n%s\nwant\n%s\nfile:\n%q", got, want, n.Marshal())
	}
	again, err := Parse(n.Marshal())
	if err != nil || again.Project != n.Project || !slices.Equal(again.Tags, n.Tags) || again.Title != n.Title {
		t.Errorf("our reader reads our rewrite as %+v, %v", again, err)
	}
}

// A confidence written as an integer YAML 1.1 resolves (PyYAML: a hex,
// octal or binary integer, base 60) is read by the reference (float() of
// the loaded value) and indexed there; ours refused the whole note as
// unreadable ("confidence \"0x1F\" is not a number"), so it vanished from
// our search and inject, and read "017" (octal, 15) as 17. Infinities and
// NaN stay refused: no JSON result can carry them.
func TestConfidenceAsYAMLNumbers(t *testing.T) {
	for raw, want := range map[string]float64{
		"0x1F": 31, "+0x_1F": 31, "017": 15, "0b101": 5, "1_000": 1000, "-2": -2, "1_0.5": 10.5, "0.6": 0.6, "08": 8, "1:30": 90, "1e-3": 0.001,
	} {
		data := "---\nid: 01JZCONF000000000000000000\ntype: semantic\ntitle: t\nconfidence: " + raw + "\n---\nb\n"
		n, err := Parse([]byte(data))
		if err != nil {
			t.Errorf("confidence: %s: %v", raw, err)
			continue
		}
		if n.Confidence != want {
			t.Errorf("confidence: %s read as %v, want %v", raw, n.Confidence, want)
		}
		if again, err := Parse(n.Marshal()); err != nil || again.Confidence != want {
			t.Errorf("confidence: %s: rewrite reads back as %v, %v", raw, again, err)
		}
	}
	for _, raw := range []string{"high", "'x'", "0x", "1.2.3", "0o17", ".nan", "1:75", "inf", "NaN", ".inf", "-.Inf"} {
		data := "---\nid: 01JZCONF000000000000000000\ntype: semantic\ntitle: t\nconfidence: " + raw + "\n---\nb\n"
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("confidence: %s was read as a number", raw)
		}
	}
}

// A file an earlier version of ours wrote, with a carriage return raw in a
// plain or single-quoted value, reads as it did: the value as written (its
// rewrite then escapes the CR). Without the old spelling accepted, the
// yaml.v3 fallback read "- a\rb" as invalid YAML and the note as
// unreadable.
func TestRawCRFromEarlierWriterStillRead(t *testing.T) {
	for v, want := range map[string]string{
		"tags:\n- a\rb\n":     "a\rb",
		"tags:\n- x\r---\n":   "x\r---",
		"tags:\n- =\r\n":      "=\r",
		"prov_model: x/\ry\n": "x/\ry",
		"tags:\n- '''q\rx'\n": "'q\rx",
	} {
		data := "---\nid: 01JZCR00000000000000000000\ntype: semantic\ntitle: t\n" + v + "---\nb\n"
		n, err := Parse([]byte(data))
		if err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		got := n.ProvModel
		if len(n.Tags) > 0 {
			got = n.Tags[0]
		}
		if got != want {
			t.Errorf("%q read as %q, want %q", v, got, want)
		}
		if again, err := Parse(n.Marshal()); err != nil || !slices.Equal(again.Tags, n.Tags) || again.ProvModel != n.ProvModel {
			t.Errorf("%q: rewrite reads back as %+v, %v", v, again, err)
		}
	}
}
