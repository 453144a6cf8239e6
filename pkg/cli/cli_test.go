package cli

import (
	"io"
	"testing"
	"time"
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

func TestSecondsFlag(t *testing.T) {
	var d time.Duration
	fs := FlagSet("x", io.Discard)
	fs.Var(Seconds{D: &d}, "timeout", "")
	for in, want := range map[string]time.Duration{"30": 30 * time.Second, "2.5": 2500 * time.Millisecond, "2m": 2 * time.Minute} {
		if err := Parse(fs, []string{"-timeout", in}); err != nil || d != want {
			t.Errorf("%s: %v, %v", in, d, err)
		}
	}
	for _, in := range []string{"0", "-1", "soon", ""} {
		if err := Parse(fs, []string{"-timeout", in}); Code(err) != 2 {
			t.Errorf("%q accepted (%v)", in, err)
		}
	}
}

// A duration flag's default is shown as the help words it: whole seconds
// as "60s" ("(default 1m0s)" followed a usage saying "default 60s").
func TestSecondsString(t *testing.T) {
	for d, want := range map[time.Duration]string{60 * time.Second: "60s", 5 * time.Second: "5s", 1500 * time.Millisecond: "1.5s", 0: "0s"} {
		if got := (Seconds{D: &d}).String(); got != want {
			t.Errorf("Seconds(%v) = %q, want %q", d, got, want)
		}
	}
	if got := (Seconds{}).String(); got != "" {
		t.Errorf("unset Seconds = %q", got)
	}
}
