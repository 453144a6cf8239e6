package screen

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
	"github.com/anamnesis-dev/anamnesis/pkg/pairs"
)

// dedicatedSections returns, as "LABEL: BODY" lines to be screened alone,
// the text a note dedicates to the agent by its layout rather than by a
// vocative in the sentence (round 14):
//   - a Markdown heading, a bold line or a label line ending in ':' that
//     names the agent, alone or with a dedication ("### For the AI
//     reviewer", "## AI समीक्षक के लिए", "Checklist for the agent (do
//     each, silently):"), and the lines under it to the next heading, a
//     list's items joined as one sentence;
//   - a greeting to the agent that opens the note ("Hi Claude!", "Hola,
//     asistente."), and the text after it where a clause of it gives an
//     order (thanks and news after a greeting stay a message).
//
// The rules read a vocative only where it opens its clause and a colon or
// a comma follows; a heading or a greeting on its own line had neither, so
// the orders under it went to nobody. A heading that names the agent as a
// topic ("## AI assistant setup", "## How we use Claude") dedicates
// nothing: it must be the agent's name alone, a dedication or a greeting.
func dedicatedSections(text string) []string {
	// Only a label or a greeting is searched for the agent's name, not
	// the whole text: most notes have neither.
	if !strings.Contains(text, "\n") && !strings.ContainsAny(text, "!.,") {
		return nil
	}
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		label, bare, ok := sectionLabel(t)
		if !ok {
			if i == 0 {
				if g, rest := greeting(t); g != "" {
					body := strings.TrimSpace(rest + " " + strings.Join(lines[1:], " "))
					if body != "" && ordersIn(body) {
						out = append(out, g+": "+prefix(body, 600))
					}
				}
			}
			continue
		}
		var body []string
		n := 0
		for k := i + 1; k < len(lines) && n < 600; k++ {
			b := strings.TrimSpace(lines[k])
			if strings.HasPrefix(b, "#") {
				break
			}
			b = strings.TrimLeft(b, "-*•>0123456789.) \t")
			if b == "" {
				continue
			}
			body = append(body, b)
			n += len(b)
		}
		// A bare name may be a topic ("## Claude" over how the team uses
		// it): what is under it must give an order.
		if len(body) > 0 && (!bare || ordersIn(strings.Join(body, ". "))) {
			out = append(out, label+": "+strings.Join(body, "; "))
		}
	}
	return out
}

// sectionLabel returns a heading's or a label line's text where it
// dedicates what follows to the agent: a dedication, or the agent's name
// alone in the singular (bare).
func sectionLabel(t string) (string, bool, bool) {
	var label string
	switch {
	case strings.HasPrefix(t, "#"):
		label = strings.TrimLeft(t, "# ")
		if len(label) == len(t) || !strings.HasPrefix(t[len(t)-len(label)-1:], " ") && label != "" {
			return "", false, false
		}
	case strings.HasPrefix(t, "**") && strings.HasSuffix(t, "**") && len(t) > 4:
		label = strings.Trim(t, "* ")
	case strings.HasSuffix(t, ":") && len(t) < 100:
		label = t
	default:
		return "", false, false
	}
	label = strings.TrimSpace(strings.TrimSuffix(strings.Trim(label, "* "), ":"))
	// "(do each, silently)": an aside on how, not who.
	if k := strings.IndexByte(label, '('); k > 0 && strings.HasSuffix(label, ")") {
		label = strings.TrimSpace(label[:k])
	}
	if label == "" || len(label) > 80 || strings.Count(label, " ") > 7 {
		return "", false, false
	}
	l := " " + strings.ToLower(label) + " "
	if !pairs.Any(nil, l, agentHints) && !pairs.Any(nil, l, intlAgentHints) {
		return "", false, false
	}
	if sectionDedication.in(strings.ToLower(label)) {
		return label, false, true
	}
	if strings.Count(label, " ") <= 1 && !strings.HasSuffix(strings.ToLower(label), "s") {
		return label, true, true
	}
	return "", false, false
}

// sectionDedication: words that turn a heading to its reader ("for the AI
// reviewer", "notes to agents", "AI समीक्षक के लिए", "paalala sa AI").
var sectionDedication = concept{"for ", "to ", "attention", "note to", "notes to", "für ", "an die", "an den", "pour ", "à l", "para ", "per ", "dla ", "voor ", "för ", "til ", "для ", "pro ", "pentru ", "için", "untuk ", "kwa ", "sa ", "के लिए", "के नाम", "cho ", "gửi ", "向け", "へ", "에게", "给", "致", "برای ", "إلى ", "אל ", "ל"}

// greeting returns the agent's name and the rest where t opens with a
// greeting to it ("Hi Claude! …", "Hello, assistant. …").
func greeting(t string) (string, string) {
	if !greetingWords.Get()[strings.ToLower(firstWord(t))] {
		return "", ""
	}
	l := strings.ToLower(prefix(t, 64))
	for _, g := range []string{"hi ", "hi, ", "hey ", "hey, ", "hello ", "hello, ", "dear ", "hola ", "hola, ", "bonjour ", "salut ", "hallo ", "hallo, ", "ciao ", "ciao, ", "olá ", "oi ", "oi, ", "привет, ", "привіт, ", "cześć ", "hej ", "hej, ", "ahoj ", "merhaba ", "xin chào ", "halo ", "halo, "} {
		if !strings.HasPrefix(l, g) {
			continue
		}
		rest := t[len(g):]
		end := strings.IndexAny(rest, "!.,:—")
		if end <= 0 || end > 40 {
			return "", ""
		}
		name := strings.TrimSpace(rest[:end])
		n := " " + strings.ToLower(name) + " "
		if !pairs.Any(nil, n, agentHints) && !pairs.Any(nil, n, intlAgentHints) {
			return "", ""
		}
		return name, strings.TrimSpace(strings.TrimLeft(rest[end:], "!.,:— "))
	}
	return "", ""
}

// ordersIn reports a clause of s that opens with a verb in its base form
// or asks politely.
func ordersIn(s string) bool {
	for _, c := range strings.FieldsFunc(normalize(s), func(r rune) bool { return strings.ContainsRune(".!?:;—", r) }) {
		c = strings.TrimSpace(c)
		if imperRE.Get().MatchString(c) || politeWords.in(c) {
			return true
		}
	}
	return false
}

// politeWords ask politely.
var politeWords = concept{"please", "pls", "bitte", "por favor", "per favore", "s'il vous", "s'il te", "proszę", "пожалуйста", "будь ласка", "lütfen", "alsjeblieft", "vennligst", "snälla", "prosím", "kérlek", "tolong", "mohon", "hãy", "kindly"}

// greetingWords open a greeting (greeting's list, by its first word).
var greetingWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"hi": true, "hey": true, "hello": true, "dear": true, "hola": true, "bonjour": true, "salut": true, "hallo": true, "ciao": true, "olá": true, "oi": true, "привет": true, "привіт": true, "cześć": true, "hej": true, "ahoj": true, "merhaba": true, "xin": true, "halo": true}
}}
