package redact

import (
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// olderRules find secrets of classes round 23 found left on the older
// corpora, each a layout rather than one sample:
//   - a COBOL data item named for a secret and its VALUE literal
//     (01 WS-DB-PASSWORD PIC X(20) VALUE '…');
//   - a YAML block scalar (key: >- or |, the value on the lines below)
//     under a secret's key;
//   - a password echoed into a tool that reads it from standard input
//     ((echo X; echo X) | smbpasswd -s -a user, | chpasswd, passwd
//     --stdin);
//   - SQL*Plus's CONNECT user/password@… and a SIP URI's user:password@;
//   - a C++ brace initializer and a T-SQL DECLARE of a secret's name
//     (std::string kSigningKey{"…"}, DECLARE @pw NVARCHAR(64) = N'…');
//   - a secret's identifier, "is" or "was", and its value (MISTRAL_API_KEY
//     is …), as the arrow rule reads one;
//   - a .netrc entry on one line, whatever its password's shape;
//   - Hindi's password word, the value, then the copula (है);
//   - Fireworks' fw_ keys.
func olderRules() []rule {
	return []rule{
		{
			name:  "secret-value",
			hints: []string{"pic x(", "picture x("},
			re:    lazy.RE(`(?i)(\b[\w-]*(?:pass|pwd|secret|token|key|cred)[\w-]*[ \t]+PIC(?:TURE)? X\(\d+\)[ \t]+VALUE[ \t]+)('[^'\n]+'|"[^"\n]+")`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `'"`)
				return notAValue(v) || strings.TrimSpace(v) == ""
			},
		},
		{
			name:  "secret-value",
			hints: []string{": >", ": |"},
			re:    lazy.RE(`(?im)^([ \t]*["']?[\w.-]*(?:password|passwd|secret|token|api[_-]?key|private[_-]?key)[\w.-]*["']?:[ \t]*[>|][-+]?[ \t]*\r?\n[ \t]+)(\S[^\n]*)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := strings.TrimSpace(m[2])
				return redacted(v) || notAValue(v) || strings.Contains(v, " ") || strings.HasPrefix(v, "-----BEGIN")
			},
		},
		{
			name:   "password-flag",
			hints:  []string{"smbpasswd", "chpasswd", "--stdin", "pdbedit"},
			repeat: true,
			re:     lazy.RE(`(\becho[ \t]+(?:-[en][ \t]+)?)(["']?)([^\s'";|)]{4,200})(["']?[ \t]*[;)][^|\n]{0,60}\|[ \t]*(?:sudo[ \t]+)?(?:smbpasswd|chpasswd|pdbedit|passwd[ \t]+--stdin))`),
			// The confirmation echoes the same password: masked too.
			repl: func(m []string) string { return m[1] + m[2] + Mask + strings.ReplaceAll(m[4], m[3], Mask) },
			keep: func(m []string) bool { return redacted(m[3]) || notAValue(m[3]) || strings.HasPrefix(m[3], "$") },
		},
		{
			name:   "url-password",
			window: true,
			span:   200,
			back:   8,
			hints:  []string{"connect", "conn ", "sqlplus", "sip:", "sips:"},
			re:     lazy.RE(`(?i)((?:\b(?:connect|conn|sqlplus(?:[ \t]+-\w+)*)[ \t]+[\w$#]+/)|\bsips?:[^:@\s/]+:)([^\s@/]+)(@)`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep:   func(m []string) bool { return redacted(m[2]) || notAValue(m[2]) || len(m[2]) < 4 },
		},
		{
			name:  "secret-value",
			hints: []string{"{\"", "declare"},
			// Most texts' {" opens a JSON object after a bracket, a colon
			// or a comma; an initializer's follows a name.
			pre:  func(lower string) bool { return strings.Contains(lower, "declare") || namedBrace(lower) },
			re:   lazy.RE(`(?i)(\b([A-Za-z_@]\w*)[ \t]*\{[ \t]*"|\bdeclare[ \t]+(@\w+)[ \t]+\w+(?:\([ \t]*(?:\d+|max)[ \t]*\))?[ \t]*=[ \t]*N?')([^"'\n]{6,200})(["'])`),
			repl: func(m []string) string { return m[1] + Mask + m[5] },
			keep: func(m []string) bool {
				name, v := m[2]+m[3], m[4]
				if !secretName(strings.TrimPrefix(name, "@")) && !cryptoKeyName(name) && !anyOf(strings.ToLower(name), "pw", "pass", "pwd") {
					return true
				}
				return redacted(v) || notAValue(v) || !(madePhrase(v) || wordsNumber(v) || random(v))
			},
		},
		{
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   96,
			hints:  []string{"_key is", "_token is", "_secret is", "_password is", "_key was", "_token was", "_secret was", "_password was"},
			re:     lazy.RE(`((?:^|[^\w.\-])([A-Za-z][A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+)+)[ \t]+(?:is|was)[ \t]+(?:now[ \t]+)?)(["'\x60][^\s"'\x60]+["'\x60]|[A-Za-z0-9+/_\-]+=*)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				name, v := m[2], strings.Trim(m[3], "\"'`")
				return len(v) < 16 || !secretName(name) && !cryptoKeyName(name) || refName(name) || idName(name) || !generated(v) || notAValue(v) || redacted(v)
			},
		},
		{
			// A .netrc entry on one line: whatever the password's shape
			// (a hex digest is a token there), the layout names it.
			name:  "secret-value",
			hints: []string{"machine"},
			re:    lazy.RE(`(?i)(\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+)(\S+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return redacted(m[2]) || notAValue(m[2]) },
		},
		{
			// Hindi puts the copula after the value ("सर्वर का पासवर्ड
			// X है"): the value between the word and है or था.
			name:  "secret-value",
			hints: []string{"पासवर्ड", "कूटशब्द"},
			re:    lazy.RE(`((?:पासवर्ड|कूटशब्द)[ \t]+)([^\s,।]{6,200})([ \t]+(?:है|था|हैं))`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			// As "the password is X" reads one: a value with a character
			// no word has; a word of letters alone names something.
			keep: func(m []string) bool {
				v := m[2]
				// Letters whose case flips as a generator's do count (round 28).
				return redacted(v) || notAValue(v) || !isAlnum(v[0]) || !strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) }) && !mixedCase(v)
			},
		},
		{
			name:  "vendor-token",
			hints: []string{"fw_"},
			re:    lazy.RE(`\bfw_[A-Za-z0-9]{20,}\b`),
			keep:  func(m []string) bool { return !random(m[0][3:]) },
		},
	}
}

// namedBrace reports a {" right after a name's letter or digit, or after
// one space that follows one (kSigningKey{"…"}, key {"…"}).
func namedBrace(s string) bool {
	for i := strings.Index(s, "{\""); i >= 0; {
		j := i - 1
		if j >= 0 && s[j] == ' ' {
			j--
		}
		if j >= 0 && (isAlnum(s[j]) || s[j] == '_') {
			return true
		}
		k := strings.Index(s[i+2:], "{\"")
		if k < 0 {
			return false
		}
		i += 2 + k
	}
	return false
}
