package store

import (
	"unicode"
)

// The index's tokenizer is FTS5's 'porter unicode61': words are runs of
// letters and digits, folded to lower case without Latin diacritics, then
// Porter-stemmed. Search looks terms up in the index's own tables (term_df,
// the postings), so it needs the same terms without asking SQLite to
// tokenize: ftsTerms reproduces the tokenizer, and the test compares it with
// FTS5's output over real vocabularies.

// ftsTerms splits s into the terms the index holds for it.
func ftsTerms(s string) []string {
	out := ftsWords(s)
	for i, w := range out {
		out[i] = porterStem(w)
	}
	return out
}

// ftsWords splits s into unicode61's words, folded but not yet stemmed.
func ftsWords(s string) []string {
	var out []string
	scanWords(s, nil, func(w []byte) { out = append(out, string(w)) }, nil)
	return out
}

// scanWords is the one tokenizer core of the index's words (FTS5's
// unicode61 with its defaults, ported): it splits s into runs of letters,
// digits and private-use characters, lower-cased and with Latin diacritics
// removed (combining marks belong to the word and are dropped), and calls
// word with each (w is buf reused: copy it to keep it) and sep, if set, with
// each character between words.
func scanWords(s string, buf []byte, word func(w []byte), sep func(r rune)) {
	w := buf[:0]
	for _, r := range s {
		switch {
		case r < 0x80:
			switch {
			case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
				w = append(w, byte(r))
				continue
			case 'A' <= r && r <= 'Z':
				w = append(w, byte(r+'a'-'A'))
				continue
			}
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			w = append(w, foldRune(r)...)
			continue
		}
		if len(w) > 0 {
			word(w)
			w = w[:0]
		}
		if sep != nil {
			sep(r)
		}
	}
	if len(w) > 0 {
		word(w)
	}
}

// foldRune lower-cases r and strips a Latin diacritic the way unicode61's
// remove_diacritics=1 (its default) does: a letter with one diacritic
// becomes its base letter, one with two keeps them.
func foldRune(r rune) string {
	l := unicode.ToLower(r)
	if l != 'ı' {
		l = unicode.ToLower(unicode.ToUpper(l)) // µ folds to μ and ſ to s, as in unicode61
	}
	var c byte = '.'
	switch {
	case 0xC0 <= l && l < 0x260:
		c = latinBase[l-0xC0]
	case 0x1E00 <= l && l < 0x1F00:
		c = latinExtBase[l-0x1E00]
	}
	if c != '.' {
		return string(rune(c))
	}
	return string(l)
}

// latinBase and latinExtBase give the base letter FTS5 folds each of
// U+00C0..U+025F and U+1E00..U+1EFF to, '.' where it keeps the letter
// (read off FTS5 itself; TestFTSTermsMatchFTS5 checks every one).
const latinBase = "" +
	"aaaaaa.ceeeeiiii.nooooo..uuuuy.." + // U+00C0
	"aaaaaa.ceeeeiiii.nooooo..uuuuy.y" + // U+00E0
	"aaaaaaccccccccdd..eeeeeeeeeegggg" + // U+0100
	"gggghh..iiiiiiii....jjkk.llllll." + // U+0120
	"...nnnnnn...oooooo..rrrrrrssssss" + // U+0140
	"sstttt..uuuuuuuuuuuuwwyyyzzzzzz." + // U+0160
	"................................" + // U+0180
	"oo.............uu..............." + // U+01A0
	".............aaiioouu..........." + // U+01C0
	"......ggkkoo....j...gg..nn......" + // U+01E0
	"aaaaeeeeiiiioooorrrruuuusstt..hh" + // U+0200
	"......aaee....oo..yy............" + // U+0220
	"................................" //   U+0240

const latinExtBase = "" +
	"aabbbbbb..dddddddddd....eeee..ff" + // U+1E00
	"gghhhhhhhhhhii..kkkkkkll..llllmm" + // U+1E20
	"mmmmnnnnnnnn........pppprrrr..rr" + // U+1E40
	"ssss......ttttttttuuuuuu....vvvv" + // U+1E60
	"wwwwwwwwwwxxxxyyzzzzzzhtwy.s...." + // U+1E80
	"aaaa....................eeeeee.." + // U+1EA0
	"........iiiioooo................" + // U+1EC0
	"....uuuu..........yyyyyyyy......" //   U+1EE0

// porterStem is the Porter (1980) stemmer exactly as FTS5's porter
// tokenizer applies it: only to tokens of 3 to 64 bytes, on bytes (a
// non-ASCII byte counts as a consonant), with its step tables and its
// reading of the measure conditions.
func porterStem(w string) string {
	if len(w) < 3 || len(w) > 64 {
		return w
	}
	b := []byte(w)
	// Step 1a.
	if b[len(b)-1] == 's' {
		n := len(b)
		switch {
		case b[n-2] == 'e' && (n > 4 && b[n-4] == 's' && b[n-3] == 's' || n > 3 && b[n-3] == 'i'):
			b = b[:n-2]
		case b[n-2] == 'e':
			b = b[:n-1]
		case b[n-2] != 's':
			b = b[:n-1]
		}
	}
	// Step 1b: "eed" becomes "ee" and stops; removing "ed" or "ing" goes on
	// to tidy the stem.
	if n := len(b); n > 3 && string(b[n-3:]) == "eed" {
		if measureGt0(b[:n-3]) {
			b = b[:n-1]
		}
	} else if cut := trimmedSuffix(b, "ed", "ing"); cut > 0 && hasVowel(b[:n-cut]) {
		b = b[:n-cut]
		if b2, ok := applyRules(b, step1b2); ok {
			b = b2
		} else if c := b[len(b)-1]; !isVowel(c, false) && c != 'l' && c != 's' && c != 'z' && c == b[len(b)-2] {
			b = b[:len(b)-1]
		} else if measureEq1(b) && endsCVC(b) {
			b = append(b, 'e')
		}
	}
	// Step 1c.
	if b[len(b)-1] == 'y' && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	b, _ = applyRules(b, step2)
	b, _ = applyRules(b, step3)
	b, _ = applyRules(b, step4)
	// Step 5a.
	if n := len(b); b[n-1] == 'e' && (measureGt1(b[:n-1]) || measureEq1(b[:n-1]) && !endsCVC(b[:n-1])) {
		b = b[:n-1]
	}
	// Step 5b.
	if n := len(b); n > 1 && b[n-1] == 'l' && b[n-2] == 'l' && measureGt1(b[:n-1]) {
		b = b[:n-1]
	}
	return string(b)
}

type porterRule struct {
	suffix, repl string
	cond         func([]byte) bool
}

// applyRules takes the first rule whose suffix ends b with a non-empty stem
// before it; if its condition holds on the stem the suffix is replaced and
// ok is true (the tables are ordered so that no later rule could match instead).
func applyRules(b []byte, rules []porterRule) ([]byte, bool) {
	for _, r := range rules {
		if len(b) <= len(r.suffix) || string(b[len(b)-len(r.suffix):]) != r.suffix {
			continue
		}
		stem := b[:len(b)-len(r.suffix)]
		if !r.cond(stem) {
			return b, false
		}
		return append(stem[:len(stem):len(stem)], r.repl...), true
	}
	return b, false
}

// trimmedSuffix is the length of the first of sufs that ends b after at
// least one byte, or 0.
func trimmedSuffix(b []byte, sufs ...string) int {
	for _, s := range sufs {
		if len(b) > len(s) && string(b[len(b)-len(s):]) == s {
			return len(s)
		}
	}
	return 0
}

func isVowel(c byte, yIsVowel bool) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || yIsVowel && c == 'y'
}

// gobbleVC returns the length of the first vowel-then-consonant run of b (0
// if none); prevCons says whether the byte before b was a consonant (y
// after a consonant is a vowel).
func gobbleVC(b []byte, prevCons bool) int {
	cons := prevCons
	i := 0
	for ; i < len(b); i++ {
		if cons = !isVowel(b[i], cons); !cons {
			break
		}
	}
	for i++; i < len(b); i++ {
		if cons = !isVowel(b[i], cons); cons {
			return i + 1
		}
	}
	return 0
}

func measureGt0(b []byte) bool { return gobbleVC(b, false) > 0 }

func measureGt1(b []byte) bool {
	n := gobbleVC(b, false)
	return n > 0 && gobbleVC(b[n:], true) > 0
}

func measureEq1(b []byte) bool {
	n := gobbleVC(b, false)
	return n > 0 && gobbleVC(b[n:], true) == 0
}

// endsCVC is Porter's *o: consonant, vowel, consonant other than w, x or y.
func endsCVC(b []byte) bool {
	n := len(b)
	if n == 0 || b[n-1] == 'w' || b[n-1] == 'x' || b[n-1] == 'y' {
		return false
	}
	mask, cons := 0, false
	for _, c := range b {
		cons = !isVowel(c, cons)
		mask <<= 1
		if cons {
			mask |= 1
		}
	}
	return mask&7 == 5
}

func hasVowel(b []byte) bool {
	for i, c := range b {
		if isVowel(c, i > 0) {
			return true
		}
	}
	return false
}

func measureGt1ST(b []byte) bool {
	n := len(b)
	return n > 0 && (b[n-1] == 's' || b[n-1] == 't') && measureGt1(b)
}

func always([]byte) bool { return true }

var (
	step1b2 = []porterRule{{"at", "ate", always}, {"bl", "ble", always}, {"iz", "ize", always}}
	step2   = []porterRule{
		{"ational", "ate", measureGt0}, {"tional", "tion", measureGt0},
		{"enci", "ence", measureGt0}, {"anci", "ance", measureGt0},
		{"izer", "ize", measureGt0},
		{"logi", "log", measureGt0},
		{"bli", "ble", measureGt0}, {"alli", "al", measureGt0}, {"entli", "ent", measureGt0}, {"eli", "e", measureGt0}, {"ousli", "ous", measureGt0},
		{"ization", "ize", measureGt0}, {"ation", "ate", measureGt0}, {"ator", "ate", measureGt0},
		{"alism", "al", measureGt0}, {"iveness", "ive", measureGt0}, {"fulness", "ful", measureGt0}, {"ousness", "ous", measureGt0},
		{"aliti", "al", measureGt0}, {"iviti", "ive", measureGt0}, {"biliti", "ble", measureGt0},
	}
	step3 = []porterRule{
		{"ical", "ic", measureGt0}, {"ness", "", measureGt0}, {"icate", "ic", measureGt0}, {"iciti", "ic", measureGt0},
		{"ful", "", measureGt0}, {"ative", "", measureGt0}, {"alize", "al", measureGt0},
	}
	step4 = []porterRule{
		{"al", "", measureGt1}, {"ance", "", measureGt1}, {"ence", "", measureGt1}, {"er", "", measureGt1}, {"ic", "", measureGt1},
		{"able", "", measureGt1}, {"ible", "", measureGt1},
		{"ant", "", measureGt1}, {"ement", "", measureGt1}, {"ment", "", measureGt1}, {"ent", "", measureGt1},
		{"ion", "", measureGt1ST}, {"ou", "", measureGt1},
		{"ism", "", measureGt1}, {"ate", "", measureGt1}, {"iti", "", measureGt1},
		{"ous", "", measureGt1}, {"ive", "", measureGt1}, {"ize", "", measureGt1},
	}
)
