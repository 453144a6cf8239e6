package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/redact/redacttest"
)

// TestWriteRedactsCorpus: every secret shape given to anamnesis write (as
// --body and as stdin) is gone from the file, and stderr says so; every
// benign look-alike is stored as given without a word.
func TestWriteRedactsCorpus(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_MACHINE_ID", "corpus")
	write := func(body string, viaStdin bool) (string, string) {
		var out, errb bytes.Buffer
		args := []string{"write", "--home", home, "--type", "semantic", "--title", "t"}
		stdin := strings.NewReader(body)
		if !viaStdin {
			args = append(args, "--body", body)
		}
		if err := run(context.Background(), args, stdin, &out, &errb); err != nil {
			t.Fatalf("write: %v (%s)", err, errb.String())
		}
		id := strings.TrimSpace(out.String())
		data, err := os.ReadFile(filepath.Join(home, "memory", "semantic", id+".md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data), errb.String()
	}
	for _, c := range redacttest.Sample(redacttest.Secrets(t)) {
		for _, viaStdin := range []bool{false, true} {
			file, stderr := write(c.Text, viaStdin)
			if strings.Contains(file, c.Secret) || !strings.Contains(stderr, "write: redacted secrets (") {
				t.Errorf("%s (stdin %v): stderr %q, file:\n%s", c.Shape, viaStdin, stderr, file)
			}
		}
	}
	for _, b := range redacttest.Sample(redacttest.BenignTexts(t)) {
		file, stderr := write(b.Text, false)
		if !strings.HasSuffix(file, "\n"+b.Text+"\n") || stderr != "" {
			t.Errorf("benign %s altered: stderr %q, file:\n%s", b.Name, stderr, file)
		}
	}
}
