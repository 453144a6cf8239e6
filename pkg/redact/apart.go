package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// apartRules find a secret's name and its value set apart by the text's
// layout rather than by ':' or '=' (round 17, by class):
//   - a line holding only a name and one value, apart by a tab, spaces
//     or an arrow (PRIVATE_TOKEN -> '…', ENCRYPTION-KEY<TAB>…, bindpw …,
//     a listing of `env`, a TSV export, a mapping written as a table);
//   - a value wrapped in a conversion or a constructor in the value's
//     place (String::from("…"), "…".to_string(), new String("…"),
//     SecretString::new("…"), Some("…"), str("…")).
//
// What the name says decides how made the value must look, as for
// namedRules (namedSecret): a word, a path or a description stays.
func apartRules() []rule {
	return []rule{
		{
			name:  "secret-value",
			hints: namedHints,
			pre:   lineApart,
			// The name is any identifier: lineApart has read the line's
			// first word for a secret's, and namedSecret judges it.
			re: lazy.RE(`(?m)^([ \t]*["']?((?:[A-Za-z0-9_.\-\x{80}-\x{10FFFF}]|\\u[0-9a-fA-F]{4})+)["']?` +
				`(?:[ \t]*(?:->|=>|→|⇒|⟶)[ \t]*|\t[ \t]*|[ \t]+))` +
				`("[^"\n]{4,}"|'[^'\n]{4,}'|[^\s"'\x60]{6,})[ \t]*,?[ \t]*\r?$`),
			repl: func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool { return !namedSecret(m[2], m[3]) },
		},
		{
			// A literal handed to a conversion or a constructor in the
			// value's place: the call is the language's way to write a
			// string, not a reference.
			name:   "secret-value",
			window: true,
			span:   keySpan,
			hints:  namedHints,
			gate:   callAfter,
			re: lazy.RE(`((?:^|[^A-Za-z0-9_\\.\-\x{80}-\x{10FFFF}])([A-Za-z0-9_.\-\x{80}-\x{10FFFF}]*(?i:` + namedStems + `)[A-Za-z0-9_.\-\x{80}-\x{10FFFF}]*)` +
				`["']?\]?[ \t]*(?::[ \t]*[A-Za-z_][A-Za-z0-9_<>&]*[ \t]*)?` + assign + `[ \t]*(?:new[ \t]+)?(?:[A-Za-z_][A-Za-z0-9_]*(?:::|\.))*(?:from|new|String|string|str|Some|Secret|SecretString|SecStr|Zeroizing|Password|Sensitive|Box|Arc|Rc|Cow|Owned|text|unicode|bytes|utf8|u|b|L)[ \t]*\([ \t]*&?[ \t]*)` +
				`("[^"\n]{4,}"|'[^'\n]{4,}')`),
			repl: func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool { return !namedSecret(m[2], m[3]) },
		},
	}
}

// callAfter reports whether the rest of a name, a type and an operator
// lead from lower[j:] to a call (an identifier, '::' or '.', then '(')
// whose first argument opens with a quote: the only hints the
// conversion rule's window opens at.
func callAfter(lower string, j int) bool {
	k := j
	for k < len(lower) && k < j+64 && (isAlnum(lower[k]) || strings.IndexByte("_.-\"' \t]:<>&", lower[k]) >= 0) {
		k++
	}
	if k >= len(lower) || lower[k] != '=' {
		return false
	}
	rest := strings.TrimLeft(lower[k+1:min(len(lower), k+80)], "> \t")
	rest = strings.TrimPrefix(rest, "new ")
	i := 0
	for i < len(rest) && (isAlnum(rest[i]) || rest[i] == '_' || rest[i] == ':' || rest[i] == '.') {
		i++
	}
	if i == 0 || i >= len(rest) || rest[i] != '(' {
		return false
	}
	rest = strings.TrimLeft(rest[i+1:], " \t&")
	return rest != "" && (rest[0] == '"' || rest[0] == '\'')
}

// lineApart reports a line that opens with a name holding a secret's
// word and goes on, after a tab, spaces or an arrow, to one more field:
// the only lines apartRules' first rule reads.
func lineApart(lower string) bool {
	for line := range strings.SplitSeq(lower, "\n") {
		line = strings.TrimLeft(line, " \t\"'")
		i := strings.IndexAny(line, " \t")
		if i <= 0 || i >= 64 || i+1 >= len(line) {
			continue
		}
		if !anyOf(line[:i], "pass", "pw", "secret", "token", "key", "cred", "auth", "psk", "seed") && !nonASCII(line[:i]) {
			continue
		}
		rest := strings.TrimLeft(line[i:], " \t")
		rest = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(rest, "->"), "=>"), "→"), " \t")
		if rest != "" && !strings.ContainsAny(rest, " \t") || rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			return true
		}
	}
	return false
}

// nonASCII reports a byte of a multi-byte character in s (a name in
// another script).
func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
