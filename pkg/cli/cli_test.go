package cli

import (
	"io"
	"testing"
)

// Flags have no hidden ANAMNESIS_<FLAG> names: ANAMNESIS_VERSION=1 once made
// anamnesis-mcp print its version instead of serving, and ANAMNESIS_MAX_CHARS
// beat the documented ANAMNESIS_INJECT_MAX_CHARS.
func TestFlagsIgnoreEnvironment(t *testing.T) {
	t.Setenv("ANAMNESIS_VERSION", "1")
	t.Setenv("ANAMNESIS_MAX_CHARS", "12")
	t.Setenv("ANAMNESIS_JSON", "1")
	fs := FlagSet("x", io.Discard)
	version := fs.Bool("version", false, "")
	maxChars := fs.Int("max-chars", 9500, "")
	asJSON := fs.Bool("json", false, "")
	if err := Parse(fs, nil); err != nil {
		t.Fatal(err)
	}
	if *version || *maxChars != 9500 || *asJSON {
		t.Fatalf("environment leaked into flags: version=%v max-chars=%d json=%v", *version, *maxChars, *asJSON)
	}
	if err := Parse(fs, []string{"-max-chars", "x"}); Code(err) != 2 {
		t.Fatalf("bad flag value: %v (exit %d)", err, Code(err))
	}
}
