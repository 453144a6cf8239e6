package redact

import (
	"regexp"
	"testing"
)

// identPath accepts exactly what ^[A-Za-z_][A-Za-z0-9_.]*$ does.
func TestIdentPathAgreesWithRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
	for _, s := range []string{"", "getpass", "os.environ.get", "_x", "x1", "1x", ".x", "a-b", "a b", "é", "A.B_c9", "$x"} {
		if got, want := identPath(s), re.MatchString(s); got != want {
			t.Errorf("identPath(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}
