package native

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/redact/redacttest"
)

// TestImportRedactsCorpus: a native memory file holding any secret shape of
// the corpus becomes a note without it, the result names the file and the
// kinds, and a re-import on a machine with no import state (another
// machine) does not rewrite the note back. Benign look-alikes import as written.
func TestImportRedactsCorpus(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), ".claude")
	mem := filepath.Join(dir, "projects", "-home-dev-src-x", "memory")
	os.MkdirAll(mem, 0o755)
	secrets, benign := redacttest.Sample(redacttest.Secrets(t)), redacttest.Sample(redacttest.BenignTexts(t))
	write := func(name, body string) {
		doc := "---\nname: " + name + "\ndescription: d\nmetadata:\n  type: reference\n---\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(mem, name+".md"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range secrets {
		write(fmt.Sprintf("s%03d", i), s.Text)
	}
	for i, b := range benign {
		write(fmt.Sprintf("b%03d", i), b.Text)
	}
	st := openStore(t)
	r, err := Import(ctx, st, dir, "laptop")
	if err != nil || r.Imported != len(secrets)+len(benign) {
		t.Fatalf("%+v %v", r, err)
	}
	if len(r.Redacted) != len(secrets) {
		t.Errorf("%d files reported redacted, want %d: %+v", len(r.Redacted), len(secrets), r.Redacted)
	}
	var rep bytes.Buffer
	r.Report(&rep)
	if !strings.Contains(rep.String(), "import: redacted secrets from "+filepath.Join(mem, "s000.md")+" (") {
		t.Errorf("report:\n%s", rep.String())
	}
	for i, s := range secrets {
		n, err := st.Get(ctx, ID("-home-dev-src-x", fmt.Sprintf("s%03d", i)))
		if err != nil {
			t.Fatal(err)
		}
		path, _ := st.Path(ctx, n.ID)
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), s.Secret) {
			t.Errorf("%s: secret imported:\n%s", s.Shape, data)
		}
	}
	for i, b := range benign {
		n, _ := st.Get(ctx, ID("-home-dev-src-x", fmt.Sprintf("b%03d", i)))
		if n == nil || n.Body != strings.TrimSpace(b.Text) && n.Body != b.Text {
			t.Errorf("benign %s altered: %+v", b.Name, n)
		}
	}
	// Another machine (no import state) imports the same files: nothing to update.
	os.Remove(statePath(st.Home()))
	r, err = Import(ctx, st, dir, "desktop")
	if err != nil || r.Updated != 0 {
		t.Fatalf("re-import rewrote %d notes: %v", r.Updated, err)
	}
}
