package note

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const refStore = "../../testdata/fixtures/reference/store"

// Every file the reference wrote must come back byte for byte.
func TestRoundTripReferenceStore(t *testing.T) {
	files, _ := filepath.Glob(refStore + "/*/*/*.md")
	if len(files) < 20 {
		t.Fatalf("found %d reference files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := n.Marshal(); !bytes.Equal(got, data) {
			t.Errorf("%s: round trip differs\n got: %q\nwant: %q", f, got, data)
		}
		// The slow path must agree with the fast one.
		front := string(data[4 : bytes.Index(data, []byte("\n---\n"))+1])
		slow, err := parseYAML(front)
		if err != nil {
			t.Fatal(err)
		}
		slow.Body = n.Body
		if !reflect.DeepEqual(slow, n) {
			t.Errorf("%s: yaml path %+v\nfast path %+v", f, slow, n)
		}
	}
}

// Scalars are quoted exactly as PyYAML safe_dump quotes them (testdata made by PyYAML 6).
func TestScalarMatchesPyYAML(t *testing.T) {
	data, err := os.ReadFile("testdata/pyyaml.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Value  *string
		Float  *float64
		PyYAML string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Float != nil {
			if got := "confidence: " + formatFloat(*c.Float) + "\n"; got != c.PyYAML {
				t.Errorf("float %v: got %q want %q", *c.Float, got, c.PyYAML)
			}
			continue
		}
		got := "title: " + scalar(*c.Value) + "\n"
		if strings.Count(c.PyYAML, "\n") == 1 && !strings.ContainsAny(c.PyYAML, "\u2028\u2029\u0085") {
			if got != c.PyYAML {
				t.Errorf("%q: got %q want %q", *c.Value, got, c.PyYAML)
			}
			continue
		}
		// PyYAML folds this value over lines; ours must still load to the same string.
		var m map[string]string
		if err := yaml.Unmarshal([]byte(got), &m); err != nil || m["title"] != *c.Value {
			t.Errorf("%q: ours %q loads as %q (%v)", *c.Value, got, m["title"], err)
		}
	}
}

func TestTolerantRead(t *testing.T) {
	src := "\xef\xbb\xbf---\r\nid: X1\r\ntype: semantic\r\ntitle: T\r\nsupersedes:\r\n- A1\r\n- B2\r\nuser_id: u-7\r\nworkspace_id:\r\n  name: w\r\ntags:\r\n- a\r\n- a\r\n- b\r\n---\r\nbody line\r\n"
	n, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n.Project != "global" || n.MachineID != "unknown" || n.Scope != "portable" || n.ProvSource != "human" || n.Confidence != 1.0 {
		t.Errorf("defaults not applied: %+v", n)
	}
	if !reflect.DeepEqual(n.Supersedes, []string{"A1", "B2"}) || !reflect.DeepEqual(n.Tags, []string{"a", "b"}) {
		t.Errorf("lists: %v %v", n.Supersedes, n.Tags)
	}
	if n.Body != "body line" {
		t.Errorf("body %q", n.Body)
	}
	out := string(n.Marshal())
	for _, want := range []string{"user_id: u-7\n", "workspace_id:\n  name: w\n", "supersedes:\n- A1\n- B2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("rewrite lost %q:\n%s", want, out)
		}
	}
	again, err := Parse([]byte(out))
	if err != nil || string(again.Marshal()) != out {
		t.Errorf("second write differs: %v\n%s\n%s", err, again.Marshal(), out)
	}
}

func TestParseErrors(t *testing.T) {
	for name, src := range map[string]string{
		"no front-matter": "just text\n",
		"empty":           "",
		"broken yaml":     "---\nid: [unclosed\ntype: semantic\n---\nx\n",
		"unterminated":    "---\nid: A\ntype: semantic\n",
		"no id":           "---\ntype: semantic\ntitle: t\n---\nx\n",
		"not a mapping":   "---\n- a\n- b\n---\nx\n",
		"bad confidence":  "---\nid: A\ntype: semantic\ntitle: t\nconfidence: high\n---\nx\n",
		"huge":            "---\nid: A\n" + strings.Repeat("x", MaxFile) + "\n---\n",
		"title is a list": "---\nid: A\ntype: semantic\ntitle:\n- a\n---\nx\n",
	} {
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestValidate(t *testing.T) {
	n := New("semantic", "t", "b")
	n.ID = NewID()
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Note){
		func(n *Note) { n.ID = "../../etc/passwd" },
		func(n *Note) { n.ID = "a/b" },
		func(n *Note) { n.ID = "" },
		func(n *Note) { n.ID = strings.Repeat("a", 129) },
		func(n *Note) { n.Type = "nonsense" },
		func(n *Note) { n.Scope = "everywhere" },
		func(n *Note) { n.ProvSource = "robot" },
		func(n *Note) { n.Title = "  " },
		func(n *Note) { n.Supersedes = []string{"../x"} },
	} {
		c := *n
		bad(&c)
		if c.Validate() == nil {
			t.Errorf("accepted %+v", c)
		}
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(refStore + "/*/*/*.md")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte("---\nid: A\ntype: semantic\ntitle: 'it''s: x'\ntags: [a, b]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Parse(n.Marshal())
		if err != nil {
			t.Fatalf("reparse of our own output failed: %v\n%s", err, n.Marshal())
		}
		n.Body, again.Body = strings.TrimRight(n.Body, "\n"), strings.TrimRight(again.Body, "\n")
		if n.ID != again.ID || n.Title != again.Title || n.Type != again.Type || !reflect.DeepEqual(n.Tags, again.Tags) ||
			n.Project != again.Project || !reflect.DeepEqual(n.Supersedes, again.Supersedes) || n.Body != again.Body {
			t.Fatalf("round trip changed fields:\n%+v\n%+v", n, again)
		}
	})
}

func TestScalarRoundTripsThroughYAML(t *testing.T) {
	for _, v := range []string{"a: b", "x\ny", "\"", "'", "\\", "é ü", "\x00", "- x", "tab\t"} {
		var m map[string]string
		if err := yaml.Unmarshal([]byte("k: "+scalar(v)), &m); err != nil || m["k"] != v {
			t.Errorf("%q -> %q -> %q (%v)", v, scalar(v), m["k"], err)
		}
	}
}

// SPEC 2: one JSON note shape everywhere: seed 003's fields, then
// prov_source, confidence, supersedes (a list); body where bodies are
// returned, even when empty; nothing else (no prov_model, prov_session).
func TestOutShape(t *testing.T) {
	n := New(Semantic, "T", "")
	n.ID, n.ProvModel, n.ProvSession, n.Tags, n.Supersedes = "01ABC", "openai/gpt", "sess-1", nil, nil
	keys := func(v any) string { // top-level keys in order
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.Token() // {
		var ks []string
		for dec.More() {
			k, _ := dec.Token()
			ks = append(ks, k.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		return strings.Join(ks, ",")
	}
	const meta = "id,type,title,project,machine_id,scope,tags,created_at,updated_at,prov_source,confidence,supersedes"
	if got := keys(n.Out(true)); got != meta+",body" {
		t.Errorf("with body: %s", got)
	}
	if got := keys(n.Out(false)); got != meta {
		t.Errorf("without body: %s", got)
	}
	b, _ := json.Marshal(n.Out(true))
	if !strings.Contains(string(b), `"tags":[]`) || !strings.Contains(string(b), `"supersedes":[]`) || !strings.Contains(string(b), `"body":""`) {
		t.Errorf("lists must be [] and an empty body \"\": %s", b)
	}
	// A Note marshalled directly never leaks the keys outside the shape.
	if b, _ := json.Marshal(n); strings.Contains(string(b), "prov_model") || strings.Contains(string(b), "prov_session") {
		t.Errorf("Note JSON has keys outside SPEC 2's shape: %s", b)
	}
}

// ParseTags is the one rule for given tags: commas and line breaks
// separate them wherever they arrive, spaces around go, empties and
// repeats are dropped.
func TestParseTags(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
	}{
		{nil, []string{}},
		{[]string{""}, []string{}},
		{[]string{"a,b"}, []string{"a", "b"}},
		{[]string{" a , b,,a "}, []string{"a", "b"}},
		{[]string{"a\r\nb", "c"}, []string{"a", "b", "c"}},
		{[]string{"x", "y,x"}, []string{"x", "y"}},
	} {
		if got := ParseTags(c.in...); !slices.Equal(got, c.want) {
			t.Errorf("ParseTags(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
