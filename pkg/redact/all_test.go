package redact

import (
	"slices"
	"strings"
	"testing"
)

// All gives each text what Redact gives it, in order, whatever the number
// of texts against the number of CPUs.
func TestAllKeepsOrder(t *testing.T) {
	var texts []string
	for i := range 40 {
		switch i % 3 {
		case 0:
			texts = append(texts, strings.Repeat("step ", i)+"export AWS_SECRET_ACCESS_KEY=u8Kq2Lx9Vb3Nf7Rt1Yw5Zp0Hc4Jd6Mg8Se2Qa7Ti")
		case 1:
			texts = append(texts, "nothing secret in request "+strings.Repeat("y", i))
		default:
			texts = append(texts, "")
		}
	}
	for _, n := range []int{0, 1, 2, len(texts)} {
		got, kinds := All(texts[:n])
		var want, wantKinds []string
		for _, s := range texts[:n] {
			r, k := Redact(s)
			want, wantKinds = append(want, r), append(wantKinds, k...)
		}
		if !slices.Equal(got, want) || !slices.Equal(kinds, wantKinds) {
			t.Errorf("%d texts: All = %q %q; Redact one by one = %q %q", n, got, kinds, want, wantKinds)
		}
		if n == len(texts) && (len(kinds) == 0 || strings.Contains(strings.Join(got, ""), "u8Kq2Lx9")) {
			t.Errorf("the secret was not redacted: %q %q", got[0], kinds)
		}
	}
}
