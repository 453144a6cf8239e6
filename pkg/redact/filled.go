package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// filledRules find a secret a command or a request fills in where a name
// stands for it rather than beside it (round 28, by class):
//   - sed's substitution whose pattern is a placeholder named for a secret
//     (s/__API_KEY__/…/, s|{{DB_PASSWORD}}|…|): the replacement is its
//     value;
//   - a literal printed into a file whose path names a secret (printf
//     '%s' '…' > /run/secrets/api_key, echo -n … | tee …/token): the file
//     holds it;
//   - a GraphQL request whose query binds a secret's argument to a
//     variable (auth(token: $t)) and whose variables give it ("t": "…");
//   - a value under a secret's name split into an array of string chunks
//     ("license": ["…", "…"]), as long keys are wrapped in JSON: the
//     chunks together are the value.
//
// Each value must look made or generated.
func filledRules() []rule {
	return []rule{
		{
			// Only a script's opening (a quote or a space before the s)
			// opens a window: "s/" ends every plural in a path.
			name:   "secret-value",
			window: true,
			back:   8,
			span:   400,
			hints:  []string{"s/", "s|", "s#"},
			gate:   scriptOpens,
			pre:    func(lower string) bool { return strings.Contains(lower, "sed") || strings.Contains(lower, "perl") },
			re: lazy.RE(`(?i)(\bs/[^/\n]{0,60}?(?:key|token|secret|passw|pass|pwd|cred)[^/\n]{0,60}/)([^/\s'"]{8,300})(/)` +
				`|(\bs\|[^|\n]{0,60}?(?:key|token|secret|passw|pass|pwd|cred)[^|\n]{0,60}\|)([^|\s'"]{8,300})(\|)` +
				`|(\bs#[^#\n]{0,60}?(?:key|token|secret|passw|pass|pwd|cred)[^#\n]{0,60}#)([^#\s'"]{8,300})(#)`),
			repl: func(m []string) string {
				for g := 1; g < len(m); g += 3 {
					if m[g] != "" {
						return m[g] + Mask + m[g+2]
					}
				}
				return m[0]
			},
			keep: func(m []string) bool {
				for g := 1; g < len(m); g += 3 {
					if m[g] != "" {
						v := m[g+1]
						return notAValue(v) || strings.HasPrefix(v, "$") || strings.Contains(v, "\\") || !(made(v) || tokenLike(v) || generated(v))
					}
				}
				return true
			},
		},
		{
			name:   "secret-value",
			window: true,
			back:   8,
			span:   600,
			hints:  []string{"printf", "echo -n", "echo -e"},
			pre:    func(lower string) bool { return strings.Contains(lower, ">") || strings.Contains(lower, "tee ") },
			re:     lazy.RE(`(?i)(\b(?:printf[ \t]+(?:'%s'|"%s"|%s)|echo[ \t]+-[ne]+)[ \t]+(['"]?))([^\s'"]{12,400})(['"]?[ \t]*(?:>>?|\|[ \t]*(?:sudo[ \t]+)?tee(?:[ \t]+-a)?)[ \t]*['"]?[^\s'"]*(?:secret|token|key|passw|pass|pwd|cred)[^\s'"]*)`),
			repl:   func(m []string) string { return m[1] + Mask + m[4] },
			keep: func(m []string) bool {
				v := m[3]
				return notAValue(v) || strings.HasPrefix(v, "$") || !(made(v) || tokenLike(v) || generated(v))
			},
		},
		{
			name:  "secret-value",
			hints: []string{`"variables"`},
			pre:   func(lower string) bool { return strings.Contains(lower, "$") },
			re:    lazy.RE(`("query"[ \t]*:[ \t]*"((?:[^"\\\n]|\\.)*)"[^\n]*?"variables"[ \t]*:[ \t]*\{)([^{}\n]*)(\})`),
			repl:  func(m []string) string { return m[1] + boundSecrets(m[2], m[3]) + m[4] },
			keep:  func(m []string) bool { return boundSecrets(m[2], m[3]) == m[3] },
		},
		{
			// A window opens where a secret's word names the array.
			name:   "secret-value",
			window: true,
			back:   80,
			span:   4000,
			hints:  []string{`": [`, `":[`},
			gate:   secretNamedBefore,
			re:     lazy.RE(`(?i)("[a-z0-9_.-]*(?:licen[cs]e|secret|token|key|passw|cert|private|credential)[a-z0-9_.-]*"[ \t]*:[ \t]*\[\s*")((?:[A-Za-z0-9+/=_-]{16,}"\s*,\s*")+[A-Za-z0-9+/=_-]{16,})("\s*\])`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				for _, c := range strings.Split(m[2], `"`) {
					if c = strings.Trim(c, " \t\r\n,"); c != "" && !random(c) {
						return true
					}
				}
				return false
			},
		},
	}
}

// scriptOpens reports a substitution's "s/" (its hint ends at j) right
// after a quote or a space: a sed script's start, not a path's plural.
func scriptOpens(lower string, j int) bool {
	i := j - 3
	return i >= 0 && (lower[i] == '\'' || lower[i] == '"' || lower[i] == ' ')
}

// secretNamedBefore reports a secret's word in the name that closes at
// the hint ending at j ("license": [).
func secretNamedBefore(lower string, j int) bool {
	before := lower[max(0, j-80):j]
	if k := strings.LastIndexByte(before[:max(0, len(before)-4)], '"'); k >= 0 {
		before = before[k:]
	}
	return anyOf(before, "licen", "secret", "token", "key", "passw", "cert", "private", "credential")
}

// graphqlBindRE: a query's argument named for a secret bound to a
// variable (auth(token: $t), login(password: $pw)).
var graphqlBindRE = lazy.RE(`(?i)\b[A-Za-z_]*(?:token|password|passwd|secret|apikey|api_key|key|credential)[A-Za-z_]*[ \t]*:[ \t]*\$([A-Za-z_][A-Za-z0-9_]*)`)

// boundSecrets masks, in a GraphQL request's variables, the values of the
// variables its query binds to a secret's argument, where they look made.
func boundSecrets(query, vars string) string {
	for _, b := range graphqlBindRE.Get().FindAllStringSubmatch(query, -1) {
		key := `"` + b[1] + `"`
		i := strings.Index(vars, key)
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(vars[i+len(key):], " \t")
		if !strings.HasPrefix(rest, ":") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if !strings.HasPrefix(rest, `"`) {
			continue
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			continue
		}
		v := rest[1 : end+1]
		if notAValue(v) || redacted(v) || !(made(v) || tokenLike(v) || generated(v)) {
			continue
		}
		at := len(vars) - len(rest) + 1
		vars = vars[:at] + Mask + vars[at+len(v):]
	}
	return vars
}
