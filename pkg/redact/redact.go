// Package redact removes secrets from text before it is stored in a note or
// sent to a model. Notes sync to every machine a user owns and live in git
// history for good, so a token pasted into a prompt must never reach disk.
//
// The rules favour catching real credentials over preserving every byte of
// prose: a false positive costs a word in a session summary, a false negative
// leaks a credential to every clone of the memory repository.
package redact

import (
	"regexp"
	"strings"
)

// Mask replaces a secret value whose key is kept (password=[REDACTED]).
const Mask = "[REDACTED]"

type rule struct {
	name string
	re   *regexp.Regexp
	// repl builds the replacement from one match's submatches; nil means
	// the whole match becomes "[REDACTED:name]".
	repl func(m []string) string
	// keep, when set, vetoes a match (RE2 has no lookaround).
	keep func(m []string) bool
	// hints are lower-case substrings one of which every match contains;
	// checking them first keeps ordinary prose off the slower regexps.
	hints []string
}

// Redactor applies a fixed rule list. It is safe for concurrent use.
type Redactor struct {
	rules []rule
}

// pairKeys are key names whose value is a secret. The key must be followed
// directly by ':' or '=' (optionally after a closing quote), so "tokenizer:",
// "max_tokens=" and "the token you pasted" are left alone.
const pairKeys = `(?:pass(?:word|wd|phrase)|pwd|secret(?:[_-]?access)?(?:[_-]?key)?|client[_-]?secret|` +
	`(?:access|auth|refresh|id|session|bearer|api|bot|private)?[_-]?token|` +
	`api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|private[_-]?key|credentials?)`

// New compiles the rule list. Callers normally use String, which shares one
// compiled Redactor; New exists for tests and for callers that want their own.
func New() *Redactor {
	whole := func(name, expr string, hints ...string) rule {
		return rule{name: name, re: regexp.MustCompile(expr), hints: hints}
	}
	rules := []rule{
		// A complete PEM private key block, any algorithm, then one whose END
		// line is missing (a truncated paste still leaks the key material).
		whole("private-key", `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`, "private key"),
		whole("private-key", `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*`, "private key"),
		// JWTs before the generic token rules so the whole token goes at once.
		whole("jwt", `\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`, "eyj"),
		whole("aws-access-key-id", `\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{16}\b`, "akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "abia", "acca"),
		whole("github-token", `\bgh[pousr]_[A-Za-z0-9]{20,255}\b`, "gh"),
		whole("github-token", `\bgithub_pat_[A-Za-z0-9_]{22,255}\b`, "github_pat_"),
		whole("gitlab-token", `\bglpat-[A-Za-z0-9_-]{20,}`, "glpat-"),
		whole("npm-token", `\bnpm_[A-Za-z0-9]{36}\b`, "npm_"),
		whole("huggingface-token", `\bhf_[A-Za-z0-9]{30,}\b`, "hf_"),
		whole("slack-token", `\bxox[abposre]-[A-Za-z0-9-]{10,}`, "xox"),
		whole("slack-token", `\bxapp-[0-9]-[A-Za-z0-9-]{10,}`, "xapp-"),
		whole("google-api-key", `\bAIza[0-9A-Za-z_-]{35}`, "aiza"),
		{
			// OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), Stripe (sk_live_,
			// rk_test_, pk_live_) and the many services that copied them.
			// Generated keys carry digits; kebab-case words ("pk-long-name")
			// usually do not, so a key without a digit is kept.
			name:  "api-key",
			hints: []string{"sk-", "sk_", "rk-", "rk_", "pk-", "pk_"},
			re:    regexp.MustCompile(`\b(?:sk|rk|pk)[-_][A-Za-z0-9_-]{16,}`),
			keep:  func(m []string) bool { return !strings.ContainsAny(m[0][3:], "0123456789") },
		},
		{
			// An Authorization header's credential, whatever its length or
			// scheme: "Basic YWRtaW46YWRtaW4=" (admin:admin) is shorter than
			// the bearer rule's minimum. The JSON form may be backslash-escaped
			// inside a shell command.
			name:  "authorization",
			hints: []string{"authorization"},
			re: regexp.MustCompile(`(?i)\b((?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?)` +
				`((?:bearer|basic|token|digest|negotiate|bot)[ \t]+)?([^\s"'\\,;]+)`),
			repl: func(m []string) string { return m[1] + m[2] + Mask },
			keep: func(m []string) bool { return strings.HasPrefix(m[3], "[REDACTED") },
		},
		{
			name:  "bearer",
			hints: []string{"bearer", "token", "basic"},
			re:    regexp.MustCompile(`(?i)\b(bearer|token|basic)(\s+)([A-Za-z0-9._~+/-]{16,}=*)`),
			repl:  func(m []string) string { return m[1] + m[2] + Mask },
			// "Basic"/"token" followed by a long plain word is prose, not a
			// credential: require a digit or a symbol that words lack.
			keep: func(m []string) bool {
				if strings.EqualFold(m[1], "bearer") {
					return false
				}
				return !strings.ContainsAny(m[3], "0123456789+/=._~-")
			},
		},
		{
			// user:password@ in URLs.
			name: "url-password",
			// The user may be empty (redis://:password@host).
			hints: []string{"://"},
			re:    regexp.MustCompile(`\b([a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)([^\s@/]+)(@)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return strings.Contains(m[0], "[REDACTED") },
		},
		{
			// A token as the whole userinfo (https://<token>@github.com):
			// long and with a digit, unlike user names such as git@.
			name:  "url-token",
			hints: []string{"://"},
			re:    regexp.MustCompile(`\b([a-zA-Z][a-zA-Z0-9+.-]*://)([A-Za-z0-9_-]{20,})(@)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return !strings.ContainsAny(m[2], "0123456789") },
		},
		{
			// --password VALUE, --token VALUE (the --key=value form is a pair).
			// The flag must end at the space: --token-file and --password-stdin stay.
			name:  "flag",
			hints: []string{"--"},
			re: regexp.MustCompile(`(?i)(--(?:[a-z0-9]+-)*(?:password|passwd|pass|token|secret|api-?key|access-key|secret-key|private-key))` +
				`([ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'-]\S*)`),
			repl: func(m []string) string {
				v := m[3]
				if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
					return m[1] + m[2] + v[:1] + Mask + v[:1]
				}
				return m[1] + m[2] + Mask
			},
			keep: func(m []string) bool {
				v := strings.Trim(m[3], `"'`)
				return v == "" || strings.HasPrefix(v, "[REDACTED")
			},
		},
		{
			// key=value, key: value, "key": "value", KEY='value'. The key name
			// stays so the note still says what was there.
			name:  "pair",
			hints: []string{"pass", "pwd", "secret", "token", "key", "credential"},
			// The key may be glued to a prefix (PGPASSWORD=), and JSON may be
			// backslash-escaped inside a shell command (\"password\": \"x\").
			re: regexp.MustCompile(`(?i)(\b[A-Za-z0-9_.-]*` + pairKeys + `)` +
				`(\\?["']?[ \t]*[:=][ \t]*)` +
				`(\\"(?:[^"\\\n]|\\[^"\n])*\\"|"[^"\n]*"|'[^'\n]*'|[^\s,;&"'\x60\\]+)`),
			repl: func(m []string) string {
				v := m[3]
				if strings.HasPrefix(v, `\"`) {
					return m[1] + m[2] + `\"` + Mask + `\"`
				}
				if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
					return m[1] + m[2] + v[:1] + Mask + v[:1]
				}
				return m[1] + m[2] + Mask
			},
			keep: func(m []string) bool {
				v := strings.Trim(m[3], `"'\`)
				return v == "" || strings.HasPrefix(v, "[REDACTED")
			},
		},
	}
	return &Redactor{rules: rules}
}

// String returns s with every secret the rules recognise replaced.
func (r *Redactor) String(s string) string {
	lower := strings.ToLower(s)
	for i := range r.rules {
		ru := &r.rules[i]
		if !anyHint(lower, ru.hints) {
			continue
		}
		locs := ru.re.FindAllStringSubmatchIndex(s, -1)
		if locs == nil {
			continue
		}
		var b strings.Builder
		b.Grow(len(s))
		last := 0
		m := make([]string, ru.re.NumSubexp()+1)
		for _, loc := range locs {
			for g := range m {
				if loc[2*g] >= 0 {
					m[g] = s[loc[2*g]:loc[2*g+1]]
				} else {
					m[g] = ""
				}
			}
			if ru.keep != nil && ru.keep(m) {
				continue
			}
			b.WriteString(s[last:loc[0]])
			if ru.repl != nil {
				b.WriteString(ru.repl(m))
			} else {
				b.WriteString("[REDACTED:" + ru.name + "]")
			}
			last = loc[1]
		}
		b.WriteString(s[last:])
		s = b.String()
		lower = strings.ToLower(s)
	}
	return s
}

func anyHint(lower string, hints []string) bool {
	if len(hints) == 0 {
		return true
	}
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// std is compiled once per process; it is immutable after construction, so
// sharing it is not mutable global state.
var std = New()

// String redacts s with the default rules.
func String(s string) string { return std.String(s) }
