// Package pairs records which adjacent byte pairs a text holds, so a
// search for many words in it can skip, without reading the text, every
// word with a pair the text lacks (the redactor's hints, the screen's
// stems).
package pairs

import "strings"

// Set is a hashed set of the adjacent byte pairs of a text, and one of
// its runs of three bytes: a word with a pair or a run of three the text
// lacks is not in the text. Two pairs, or two runs, may share a hash,
// which makes a word the text lacks look present (it is then searched
// for), never the other way: the test stays a necessary condition.
//
// A Set is made for every text a screen or a redaction reads, several a
// note: it is kept small (1.5 KB), since clearing and collecting a larger
// one cost more than the searches its precision saves.
type Set struct {
	two [1 << twoBits / 64]uint64
	// three is filled only for a text of threeFrom bytes or more (more
	// holds it false): in a short text a search is cheap, and hashing its
	// runs would cost what the searches it saves do.
	three [1 << threeBits / 64]uint64
	more  bool
}

// threeFrom is the shortest text whose runs of three are recorded.
const threeFrom = 512

// twoBits and threeBits size the hashed sets: 4,096 and 8,192 bits, which
// a note of a few kilobytes fills to a fraction and a short one barely
// touches.
const (
	twoBits   = 12
	threeBits = 13
)

// pair is the bit of the bytes a, b in Set.two.
func pair(a, b byte) uint {
	return uint((uint32(a)<<8|uint32(b))*0x9E3779B1) >> (32 - twoBits)
}

// triple is the bit of the three bytes a, b, c in Set.three.
func triple(a, b, c byte) uint {
	return uint((uint32(a)<<16|uint32(b)<<8|uint32(c))*0x9E3779B1) >> (32 - threeBits)
}

// Of returns the pairs of s.
func Of(s string) *Set {
	p := new(Set)
	for i := 1; i < len(s); i++ {
		k := pair(s[i-1], s[i])
		p.two[k/64] |= 1 << (k % 64)
	}
	if p.more = len(s) >= threeFrom; p.more {
		for i := 2; i < len(s); i++ {
			t := triple(s[i-2], s[i-1], s[i])
			p.three[t/64] |= 1 << (t % 64)
		}
	}
	return p
}

// May reports whether every adjacent byte pair and every run of three
// bytes of w is in p: false means w is not in the text, true that it may
// be. The runs are tested first: a long text holds most pairs of the
// letters and far fewer of their runs, so a run rules a word out sooner.
func (p *Set) May(w string) bool {
	for i := 2; p.more && i < len(w); i++ {
		t := triple(w[i-2], w[i-1], w[i])
		if p.three[t/64]&(1<<(t%64)) == 0 {
			return false
		}
	}
	for i := 1; i < len(w); i++ {
		k := pair(w[i-1], w[i])
		if p.two[k/64]&(1<<(k%64)) == 0 {
			return false
		}
	}
	return true
}

// Any reports whether s holds one of words. p, when not nil, holds s's
// pairs and rules out most words without a search; nil searches for each.
func Any(p *Set, s string, words []string) bool {
	for _, w := range words {
		if (p == nil || p.May(w)) && strings.Contains(s, w) {
			return true
		}
	}
	return false
}
