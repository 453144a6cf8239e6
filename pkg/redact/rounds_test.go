package redact

import (
	"strings"
	"testing"
)

// roundCase is a build case of a round of the redactor: a secret String
// must remove from in, or, with secret "", a look-alike String must leave
// exactly as it is.
type roundCase struct{ name, in, secret string }

// judgeRound fails for each case String gets wrong.
func judgeRound(t *testing.T, cases []roundCase) {
	t.Helper()
	for _, tt := range cases {
		got := String(tt.in)
		if tt.secret == "" {
			if got != tt.in {
				t.Errorf("%s: look-alike changed:\n got %q\nwant %q", tt.name, got, tt.in)
			}
			continue
		}
		if strings.Contains(got, tt.secret) {
			t.Errorf("%s: secret kept: %q", tt.name, got)
		}
	}
}
