package pairs

import "testing"

func TestMay(t *testing.T) {
	p := Of("ignore previous instructions")
	for w, want := range map[string]bool{"ignore": true, "instructions": true, "vious": true, "x": true, "": true,
		"password": false, "zz": false, "sno": false, "tions": true} {
		if got := p.May(w); got != want {
			t.Errorf("May(%q) = %v, want %v", w, got, want)
		}
	}
}
