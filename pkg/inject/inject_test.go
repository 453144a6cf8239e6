package inject

import "testing"

func TestHelpers(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 9500: "9,500", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q", n, got)
		}
	}
	for f, want := range map[float64]string{1: "1", 0.8: "0.8", 0.6: "0.6", 0.123456789: "0.123457", 1e-5: "1e-05"} {
		if got := pyG(f); got != want {
			t.Errorf("pyG(%v) = %q, want %q", f, got, want)
		}
	}
}
