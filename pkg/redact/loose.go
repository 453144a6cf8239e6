package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// looseSymbols are the symbols a generated or chosen password holds and
// the other long tokens of a note do not: base64 has '+', '/', '=', ids
// and paths '-', '_', '.', '/', hex and fingerprints ':'.
const looseSymbols = "!@#$%^&*~?|"

// looseSpans returns the spans of s that are shaped as a password, named
// or not, in any language's prose: a token between spaces (its quotes,
// brackets and closing punctuation trimmed) of 8 to 64 bytes holding a
// capital, a small letter, a digit and one of looseSymbols. Prose never
// spells a word so; the tokens that do and are no secret are left by
// structure: a URL, a path, an e-mail address, a shell or template
// reference, percent-encoding, a time stamp, code's operators and calls,
// a list or a bracketed value (SOPS' ENC[…]), Markdown emphasis.
func looseSpans(s string) [][2]int {
	var out [][2]int
	for from := 0; from < len(s); {
		i := strings.IndexAny(s[from:], looseSymbols+"()[]{}")
		if i < 0 {
			break
		}
		i += from
		start, end := i, i
		for start > 0 && !spaceByte(s[start-1]) {
			start--
		}
		for end < len(s) && !spaceByte(s[end]) {
			end++
		}
		from = end
		a, b := start, end
		for a < b && strings.IndexByte("\"'`([{<,;*_", s[a]) >= 0 {
			a++
		}
		for a < b && strings.IndexByte("\"'`)]}>,;.*_", s[b-1]) >= 0 {
			b--
		}
		// Closing quotes and brackets of other scripts (“…”, «…», 「…」).
		for a < b {
			r, n := utf8.DecodeLastRuneInString(s[a:b])
			if r < utf8.RuneSelf || !unicode.IsPunct(r) {
				break
			}
			b -= n
		}
		for a < b {
			r, n := utf8.DecodeRuneInString(s[a:b])
			if r < utf8.RuneSelf || !unicode.IsPunct(r) {
				break
			}
			a += n
		}
		if t := s[a:b]; passwordShaped(t) && !fakeSpan(t) {
			out = append(out, [2]int{a, b})
		} else if x, y, ok := bracketSpan(s, start, end); ok {
			out = append(out, [2]int{x, y})
		}
	}
	return out
}

func spaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// passwordShaped reports a token shaped as a password (looseSpans).
func passwordShaped(t string) bool {
	// A '!' or '?' that only ends the token ends a sentence ("Baz3Qux!").
	if len(t) < 8 || len(t) > 64 || !strings.ContainsAny(strings.TrimRight(t, "!?"), looseSymbols) {
		return false
	}
	var up, low, dig bool
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		case c >= '0' && c <= '9':
			dig = true
		case c >= utf8.RuneSelf:
			return false // a word of another script glued on: prose
		}
	}
	if !up || !low || !dig {
		return false
	}
	// A run of mask characters shows a value hidden, as a dashboard
	// prints a token (ghp_****…z8dD): what is left of it is no secret.
	if masked(t) {
		return false
	}
	if strings.ContainsAny(t, `/\[](){}<>,"'`+"`") || t[0] == '$' || t[0] == '%' || t[0] == '#' {
		return false
	}
	for _, op := range []string{"://", "==", "!=", "&&", "||", "->", "=>", "::", "${", "#{", "{{", "REDACTED"} {
		if strings.Contains(t, op) {
			return false
		}
	}
	return !looseRefRE.Get().MatchString(t)
}

// looseRefRE: an e-mail address or user@host, percent-encoding, a time
// stamp, a labelled digest or id (SHA256:…, h1:…), colon-separated hex,
// a key=value pair.
var looseRefRE = lazy.RE(`@[A-Za-z0-9-]+\.[A-Za-z]|%[0-9A-Fa-f]{2}.*%[0-9A-Fa-f]{2}|\d{4}-\d{2}-\d{2}T|^[A-Za-z0-9]{1,8}:|(?:[0-9a-fA-F]{2}:){3}|[a-z_]{3,}=|^[A-Za-z_.-]+[:=]`)

// bracketSpan returns the span of s[start:end] (a token between spaces)
// shaped as a generated password whose one symbol is a bracket or a
// parenthesis ("m7GcYm[1vMYWg=", "WOqX8S)ubXrwT;"), alone or as the value
// of a key or flag (--password=…, FLASK_SECRET_KEY=…): the generator puts
// it anywhere, so it opens or closes nothing. Code spells a bracket after
// an identifier whose case goes in words (Uint8Array(buf2, getById(x)), so
// the letters' case must change as a generator's does (bracketShaped).
func bracketSpan(s string, start, end int) (int, int, bool) {
	a, b := start, end
	for a < b && strings.IndexByte("\"'`*", s[a]) >= 0 {
		a++
	}
	for a < b && strings.IndexByte("\"'`.,;:?!*", s[b-1]) >= 0 {
		b--
	}
	t := s[a:b]
	br := strings.IndexAny(t, "()[]{}")
	if br < 0 {
		return 0, 0, false
	}
	// A key or a flag given the value: --password=…, NAME=…, name:….
	if k := strings.IndexAny(t[:br], "=:"); k > 0 {
		if strings.Trim(t[:k], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != "" {
			return 0, 0, false
		}
		a += k + 1
		t = t[k+1:]
		br -= k + 1
	}
	if !bracketShaped(t, br) {
		return 0, 0, false
	}
	return a, b, true
}

// bracketShaped reports a token of 10 to 48 bytes of letters, digits and
// a generator's symbols, holding exactly one bracket (at br) with three
// or more letters and digits on each side, capitals and small letters
// whose case changes as a generator's does: runs of one case average at
// most two and a half letters with a digit among them; with no digit, at
// most two with capitals together or five in three. An identifier's case
// goes in words.
func bracketShaped(t string, br int) bool {
	if len(t) < 10 || len(t) > 48 || strings.Contains(t, "REDACTED") {
		return false
	}
	var up, low, dig, runs, before, after int
	together := false
	prev := 0 // 1 capital, 2 small letter
	for i := 0; i < len(t); i++ {
		c := t[i]
		cs := 0
		switch {
		case c >= 'A' && c <= 'Z':
			up++
			cs = 1
			if i > 0 && t[i-1] >= 'A' && t[i-1] <= 'Z' {
				together = true
			}
		case c >= 'a' && c <= 'z':
			low++
			cs = 2
		case c >= '0' && c <= '9':
			dig++
		case strings.IndexByte("()[]{}", c) >= 0:
			if i != br {
				return false
			}
			continue
		case strings.IndexByte(";,+=?!~^*&|", c) >= 0:
			continue
		default:
			return false
		}
		if i < br {
			before++
		} else {
			after++
		}
		if cs != 0 && cs != prev {
			runs++
			prev = cs
		}
	}
	letters := up + low
	if up < 2 || low < 2 || before < 3 || after < 3 || letters < 6 || runs < 4 || entropy(t) < 3.2 {
		return false
	}
	if dig > 0 {
		return 2*letters <= 5*runs
	}
	return together && letters <= 2*runs || 3*letters <= 5*runs
}
