package redact_test

import (
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/redact/redacttest"
)

// TestCorpus is the figure the closing note of issue 12 reports: every
// secret shape caught, every benign look-alike byte for byte intact.
func TestCorpus(t *testing.T) {
	secrets, benign := redacttest.Secrets(t), redacttest.BenignTexts(t)
	if len(secrets) < 60 || len(benign) < 40 {
		t.Fatalf("corpus too small: %d secrets, %d benign", len(secrets), len(benign))
	}
	caught, intact := 0, 0
	for _, c := range secrets {
		if !strings.Contains(c.Text, c.Secret) {
			t.Fatalf("%s: secret is not in its text", c.Shape)
		}
		out, kinds := redact.Redact(c.Text)
		if strings.Contains(out, c.Secret) || len(kinds) == 0 {
			t.Errorf("secret %s survived: %q (kinds %v)", c.Shape, out, kinds)
			continue
		}
		if again := redact.String(out); again != out {
			t.Errorf("%s: not idempotent: %q -> %q", c.Shape, out, again)
		}
		caught++
	}
	for _, c := range benign {
		if out := redact.String(c.Text); out != c.Text {
			t.Errorf("benign %s altered:\n got %q\nwant %q", c.Name, out, c.Text)
			continue
		}
		intact++
	}
	t.Logf("secret shapes caught: %d/%d; benign strings intact: %d/%d", caught, len(secrets), intact, len(benign))
}
