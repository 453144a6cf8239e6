// Package pairs records which adjacent byte pairs a text holds, so a
// search for many words in it can skip, without reading the text, every
// word with a pair the text lacks (the redactor's hints, the screen's
// stems).
package pairs

import "strings"

// Set is the set of adjacent byte pairs of a text.
type Set [1 << 16 / 64]uint64

// Of returns the pairs of s.
func Of(s string) *Set {
	var p Set
	for i := 0; i+1 < len(s); i++ {
		k := uint(s[i])<<8 | uint(s[i+1])
		p[k/64] |= 1 << (k % 64)
	}
	return &p
}

// May reports whether every adjacent byte pair of w is in p: false means
// w is not in the text, true that it may be.
func (p *Set) May(w string) bool {
	for i := 0; i+1 < len(w); i++ {
		k := uint(w[i])<<8 | uint(w[i+1])
		if p[k/64]&(1<<(k%64)) == 0 {
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
