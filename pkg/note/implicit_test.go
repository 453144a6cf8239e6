package note

import (
	"math/rand/v2"
	"testing"
)

// The regexp-free shapes are a subset of PyYAML's implicit resolvers.
func TestSurelyImplicitAgreesWithRegexp(t *testing.T) {
	cases := []string{"0.85", "1.0", "1.", "10.25", "2026-01-02", "2026-01-02T03:04:05", "2026-01-02T03:04:05Z",
		"2026-01-02T03:04:05.123456+00:00", "2026-11-23T19:20:32-05:30", "2026-01-02T03:04:05.+01:00",
		".5", "1.2.3", "2026-1-2", "2026-01-02 03:04:05", "2026-01-02T03:04:05+0100", "2026-01-02T3:04:05",
		"abc", "12", "0x1F", "1e5", "1.0e+5", "2026-01-02T03:04:05.1Z", "2026-01-02x", "١.٢"}
	for _, s := range cases {
		sure, re := surelyImplicit(s), implicitRE().MatchString(s)
		if sure && !re {
			t.Errorf("%q: surelyImplicit but the regexp does not match", s)
		}
	}
	for _, s := range []string{"0.85", "2026-01-02T03:04:05.123456+00:00", "2026-01-02"} {
		if !surelyImplicit(s) {
			t.Errorf("%q: a note's own shape goes to the regexp", s)
		}
	}
}

// A scalar starting with a letter is implicit exactly when the regexp says so.
func TestImplicitWordsAgreeWithRegexp(t *testing.T) {
	for _, s := range []string{"yes", "Yes", "YES", "yES", "no", "No", "NO", "true", "True", "TRUE", "tRUE", "false",
		"False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "nULL", "y", "n", "Y", "N",
		"yes!", "Note", "True story", "offset", "online", "nan", "inf", "Inf", "NaN", "The title", "a", "Z9"} {
		if got, want := implicit(s), implicitRE().MatchString(s); got != want {
			t.Errorf("implicit(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}

// Scalars that start like a number, built from the bytes the patterns use
// and a few they do not: implicit agrees with the regexp on every one, and
// a note id does not reach the regexp at all.
func TestImplicitAgreesWithRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789+-._:~<= \tabcdefxinABCDEFINTtZJKYz/"
	for range 200000 {
		b := []byte{"+-.0123456789~<="[r.IntN(16)]}
		for n := r.IntN(12); n > 0; n-- {
			b = append(b, alphabet[r.IntN(len(alphabet))])
		}
		s := string(b)
		if got, want := implicit(s), implicitRE().MatchString(s); got != want {
			t.Fatalf("implicit(%q) = %v, the regexp says %v", s, got, want)
		}
	}
	for _, s := range []string{"-.inf", ".NaN", "0x1F", "0b101", "1e+5", "1:20:30", "2026-01-02 03:04:05.5 +01:00", "~", "<<", "=", "01JY0RP050STTFH585E1CAKYX7"} {
		if got, want := implicit(s), implicitRE().MatchString(s); got != want {
			t.Errorf("implicit(%q) = %v, the regexp says %v", s, got, want)
		}
	}
	if onlyImplicitBytes("01JY0RP050STTFH585E1CAKYX7") {
		t.Error("a ULID would be matched against the regexp")
	}
}
