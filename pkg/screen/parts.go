package screen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// literalRun returns the string literals of a run in code (a list's
// items, literals joined by '+' or set side by side) joined with nothing
// between them, where the run cuts a word or an address between two of
// its literals and reads as one text cut into pieces: the code joins
// them (a '+', '.', '&' or "||" between literals, literals side by side,
// or join, concat or implode in the note), a piece carries the space
// between two words at its edge (" tästä muistiinpanost"), or the pieces
// but the last are of one length (a text chunked at a fixed width).
// Pieces cut so that none reads as the order are joined back by whoever
// runs the code. A list of whole phrases (a blocklist of injection
// phrases, steps) is none of these and is left as it is. Runs are joined
// one per line; "" when the text has none.
func literalRun(text string) string {
	// Most notes hold no two literals in a row.
	if !strings.Contains(text, `",`) && !strings.Contains(text, `" `) && !strings.Contains(text, `',`) && !strings.Contains(text, `' `) && !strings.Contains(text, "\"\n") && !strings.Contains(text, "'\n") {
		return ""
	}
	lower := strings.ToLower(text)
	joinWord := strings.Contains(lower, "join(") || strings.Contains(lower, "concat") || strings.Contains(lower, "implode")
	var out []string
	var run []string
	cut, joinOp := false, false
	flush := func() {
		if len(run) >= 2 && cut && (joinOp || joinWord || spacedEdge(run) || oneWidth(run)) {
			out = append(out, strings.Join(run, ""))
		}
		run, cut, joinOp = run[:0], false, false
	}
	i := 0
	for i < len(text) {
		q := text[i]
		if q != '"' && q != '\'' || q == '\'' && i > 0 && isWordByte(text[i-1]) {
			// Not a quote, or an apostrophe inside a word.
			i++
			continue
		}
		j := i + 1
		for j < len(text) && text[j] != q && text[j] != '\n' {
			if text[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(text) || text[j] != q {
			flush()
			i = j
			continue
		}
		lit := text[i+1 : j]
		if len(run) > 0 && wordCut(run[len(run)-1], lit) {
			cut = true
		}
		run = append(run, lit)
		// What follows must be a separator and the next literal, or the
		// run ends.
		k := j + 1
		sep := false
		for k < len(text) && strings.IndexByte(" \t\r\n,+.&|", text[k]) >= 0 {
			if c := text[k]; c == '+' || c == '.' || c == '&' || c == '|' {
				sep = true
			} else if c == ',' {
				sep = false
			}
			k++
		}
		if k >= len(text) || text[k] != q {
			flush()
			i = k
			continue
		}
		// '+' between the literals, or none at all ("a" "b"): joined.
		if sep || !strings.Contains(text[j+1:k], ",") {
			joinOp = true
		}
		i = k
	}
	flush()
	return strings.Join(out, "\n")
}

// spacedEdge reports a piece that begins or ends with the space between
// two words: a cut of running text, not an item.
func spacedEdge(run []string) bool {
	for _, p := range run {
		if strings.HasPrefix(p, " ") || strings.HasSuffix(p, " ") {
			return true
		}
	}
	return false
}

// oneWidth reports pieces but the last of one length in characters, three
// pieces or more: a text chunked at a fixed width.
func oneWidth(run []string) bool {
	if len(run) < 3 {
		return false
	}
	n := utf8.RuneCountInString(run[0])
	for _, p := range run[1 : len(run)-1] {
		if utf8.RuneCountInString(p) != n {
			return false
		}
	}
	return n >= 4
}

// wordCut reports that two pieces join inside a word: a letter, a digit
// or an address's punctuation on both sides, with no space between.
func wordCut(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	x, y := ra[len(ra)-1], rb[0]
	inWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }
	return inWord(x) && (inWord(y) || y == '.' || y == '/') || (x == '.' || x == '/' || x == '-') && inWord(y)
}
