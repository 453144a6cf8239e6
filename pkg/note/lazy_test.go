package note

import (
	"regexp"
	"testing"
)

// The hand-written matchers replaced regexps compiled at start-up; they
// must accept exactly what the patterns accepted.
func TestMatchersAgreeWithTheirPatterns(t *testing.T) {
	lineRE := regexp.MustCompile(`^([a-z_]+):(?: (.*))?$`)
	idRE := regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$`)
	long := string(make([]byte, 129))
	for _, s := range []string{"", "a", "a:", "a: ", "a: b", "a:b", "A: b", "ab_c: x: y", "_: z", "a :b", ":", ": x",
		"type: semantic", "tags:", "tags: []", "a: \xff", "a: b\r", "a: b\nc", "a:\n", "1a: b", "a1: b", "é: b",
		"01ARZ3NDEKTSV4RRFFQ69G5FAV", "-x", "_x", "x-", "x_y-z", "x.y", "x/y", "x y", "..", long,
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		m := lineRE.FindStringSubmatch(s)
		key, raw, ok := simpleLine(s)
		if ok != (m != nil) || ok && (key != m[1] || raw != m[2]) {
			t.Errorf("simpleLine(%q) = %q, %q, %v; the pattern gives %q", s, key, raw, ok, m)
		}
		if ValidID(s) != idRE.MatchString(s) {
			t.Errorf("ValidID(%q) = %v; the pattern says %v", s, ValidID(s), idRE.MatchString(s))
		}
	}
}

func TestImplicitPrefilterAgrees(t *testing.T) {
	for _, s := range []string{"yes", "No", "TRUE", "off", "On", "0b101", "-017", "+12", "0x1F", "1:30", "-1.5e+3", ".5", "1:20.5",
		"-.inf", ".NaN", "~", "null", "NULL", "2026-01-02", "2026-1-2T03:04:05Z", "<<", "=", "Alpha fact", "a", "yesterday",
		"12abc", "~x", "=x", ".x", "Z", "é", " yes", "\tno"} {
		if got, want := implicit(s), implicitRE().MatchString(s); got != want {
			t.Errorf("implicit(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
