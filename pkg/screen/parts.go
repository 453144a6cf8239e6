package screen

import (
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
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

// unwrapped returns the sentences of text that its hard-wrapped lines
// break (a commit body or a Markdown paragraph wrapped at 72 columns, a
// YAML folded scalar's lines), each joined back onto one line, one a
// line: a line break between a line that ends inside a sentence (a
// letter, a digit or a comma) and one that goes on in lower case, both
// prose (not a list item, a heading, a fence or a key). The sentence
// rules read a line break as a sentence's end, so an order wrapped across
// two lines is read whole only so. Only the joined lines are returned, so
// the screen reads again only what it could not read whole; "" when no
// line was joined.
func unwrapped(text string) string {
	if strings.Count(text, "\n") == 0 {
		return ""
	}
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i := 1; i < len(lines); i++ {
		if !continues(lines[i-1], lines[i]) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(lines[i-1])
		for ; i < len(lines) && continues(lines[i-1], lines[i]); i++ {
			b.WriteByte(' ')
			b.WriteString(strings.TrimLeft(lines[i], " \t"))
		}
	}
	return b.String()
}

// continues reports a line that goes on the sentence the line before it
// broke off.
func continues(prev, next string) bool {
	p := strings.TrimRight(prev, " \t\r")
	n := strings.TrimLeft(next, " \t")
	if p == "" || n == "" || strings.HasPrefix(strings.TrimLeft(p, " \t"), "```") || strings.HasPrefix(n, "```") {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(p)
	if !(unicode.IsLetter(last) || unicode.IsDigit(last) || last == ',') {
		return false
	}
	first, _ := utf8.DecodeRuneInString(n)
	if !unicode.IsLower(first) || wrapKeyRE.Get().MatchString(n) {
		return false
	}
	t := strings.TrimLeft(p, " \t")
	return !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "|") && !wrapKeyRE.Get().MatchString(t) || strings.HasSuffix(t, ">") || strings.HasSuffix(t, "|")
}

// wrapKeyRE is a line that opens with a key or a list's marker.
var wrapKeyRE = lazy.RE(`^(?:[-*+•]\s|\d+[.)]\s|[\w.-]+:\s*(?:$|[>|]|\S))`)

// elementTexts returns the text of each leaf element of XML or HTML markup
// in text (<body>…</body>, <assistant-instructions>…</…>): an element's
// text is a field of its own, read alone as a table's cell is, and its
// tags, glued to its first and last words, hide neither from the rules
// that read a sentence's first word. Texts of a dozen characters or more,
// outside code.
func elementTexts(text string) []string {
	if !strings.Contains(text, "</") {
		return nil
	}
	// Markup quoted as code (a chat template's `<s>[INST] … </s>`, a
	// fenced sample) is shown as code, not read as a field.
	if strings.Contains(text, "`") {
		text = codeRE.Get().ReplaceAllString(text, " … ")
	}
	var out []string
	for _, m := range leafElementRE.Get().FindAllStringSubmatch(text, -1) {
		if m[1] != m[3] {
			continue
		}
		if body := strings.TrimSpace(m[2]); len(body) >= 12 {
			// An element's text as it reads: its entities decoded
			// (bash &lt;(curl …) is bash <(curl …)).
			if strings.Contains(body, "&") {
				body = html.UnescapeString(body)
			}
			out = append(out, body)
		}
	}
	return out
}

// jsonTexts returns the string values of a note that is a JSON document
// (a notebook's cell, an issue's body, a tool's payload), unescaped: a
// value is a field of its own, as an element's text is, and the quotes and
// keys before it hide neither its first word nor its order. Values with a
// space and a dozen characters or more; keys stay out.
func jsonTexts(text string) []string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		// A JSON document on a line of its own after prose.
		i := strings.Index(t, "\n{")
		if i < 0 {
			return nil
		}
		t = t[i+1:]
	}
	var out []string
	for _, loc := range jsonStringRE.Get().FindAllStringIndex(t, -1) {
		rest := strings.TrimLeft(t[loc[1]:], " \t\r\n")
		if strings.HasPrefix(rest, ":") || loc[1]-loc[0] < 14 {
			continue
		}
		v, err := strconv.Unquote(t[loc[0]:loc[1]])
		if err != nil || !strings.Contains(v, " ") {
			continue
		}
		out = append(out, strings.TrimSpace(v))
	}
	return out
}

// jsonStringRE: a JSON string on one line.
var jsonStringRE = lazy.RE(`"(?:[^"\\\n]|\\.)*"`)

// leafElementRE: an element with text and no child element.
var leafElementRE = lazy.RE(`<([A-Za-z][\w:.-]*)(?:\s[^<>]*)?>([^<>]+)</([A-Za-z][\w:.-]*)\s*>`)
