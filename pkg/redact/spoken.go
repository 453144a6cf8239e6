package redact

import (
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// spokenRules find a secret under a name the older rules did not read as
// one (round 18, by class, from corpus20's misses):
//   - a session cookie's name as a key of a code map, a JSON object or a
//     record of name and value ({'sessionid': '…'}, "PHPSESSID": "…",
//     Playwright's {"name": "session", "value": "…"}), not only as
//     name=value;
//   - a login whose value is a generated token (sonar.login=…,
//     LOGIN_TOKEN-less tools that take a token where a user name goes):
//     no person's login is forty random letters and digits;
//   - a secret's identifier followed by its value with no operator, as a
//     log line or a call's trace prints them (using master_key "…",
//     loaded api_token 9f…): the identifier is code's (an underscore, a
//     dot or a hump), so prose's "key" is never one, and the value must
//     be generated;
//   - (round 23) such an identifier, a few words, then an arrow and its
//     value, as a chat line hands a rotated secret over ("new
//     DRONE_TOKEN after rotation → dpN…"): the arrow gives the name its
//     value;
//   - (round 26) no name at all, a chat line telling of a credential
//     made anew ("new one for staging, rotate after the demo -> …").
func spokenRules() []rule {
	return []rule{
		{
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   96,
			hints:  []string{"→", "->", "=>", "⇒"},
			re:     lazy.RE(`((?:^|[^\w.\-])([A-Za-z][A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+)*)[ \t]+(?:[\p{L}\p{N}(),.'’]+[ \t]+){0,4}(?:→|->|=>|⇒)[ \t]*)(["'\x60][^\s"'\x60]+["'\x60]|[A-Za-z0-9+/_\-]+=*)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				name, v := m[2], strings.Trim(m[3], "\"'`")
				return len(v) < 16 || !codeName(name) || !secretName(name) && !cryptoKeyName(name) || refName(name) || idName(name) || !generated(v) || notAValue(v) || redacted(v)
			},
		},
		{
			// Round 26: no name at all, the line telling of a credential
			// made anew ("ok new one for staging, rotate after the demo
			// -> dp.st.…"): the arrow hands over what was rotated.
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   96,
			hints:  []string{"→", "->", "=>", "⇒"},
			re:     lazy.RE(`(?i)(\b(?:rotat(?:e|ed|ion|ing)|regenerated|reissued|new\s+(?:one|key|token|secret|creds?|credentials?|password)|fresh\s+(?:one|key|token))\b[^\n]{0,60}?(?:→|->|=>|⇒)[ \t]*)(["'\x60]?[A-Za-z0-9+/_.\-]{16,}=*["'\x60]?)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], "\"'`")
				return len(v) < 16 || !generated(v) || notAValue(v) || redacted(v)
			},
		},
		{
			name:   "cookie",
			window: true,
			span:   keySpan,
			back:   48,
			hints:  []string{"session", "sid"},
			re: lazy.RE(`(?i)((?:["']name["'][ \t]*:[ \t]*["'](?:` + sessionNames + `)["'][ \t]*,[ \t]*["']value["']|["']?\b(?:` + sessionNames + `)["']?)[ \t]*(?::|=>|=|,)[ \t]*["'])` +
				`([^\s"']+)`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				return len(m[2]) < 16 || notAValue(m[2]) || redacted(m[2]) || !sessionValue(m[2])
			},
		},
		{
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   48,
			hints:  []string{"login", "logon"},
			re:     lazy.RE(`(?i)((?:^|[^\w.\-])[\w.\-]*(?:login|logon)["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?)([A-Za-z0-9_\-]+)`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep:   func(m []string) bool { return len(m[2]) < 20 || !generated(m[2]) || notAValue(m[2]) },
		},
		{
			name:   "secret-value",
			window: true,
			span:   keySpan,
			hints:  []string{"key", "token", "secret", "pass", "pwd", "cred", "auth"},
			re:     lazy.RE(`((?:^|[^\w.\-])([A-Za-z][A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+)*)[ \t]+)(["'\x60][^\s"'\x60]+["'\x60]|[A-Za-z+/_\-]*[0-9][A-Za-z0-9+/_\-]*\b)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				name, v := m[2], strings.Trim(m[3], "\"'`")
				return len(v) < 16 || len(v) == len(m[3]) && len(v) < 20 || !codeName(name) || !secretName(name) && !cryptoKeyName(name) || refName(name) || idName(name) || !generated(v) || notAValue(v) || redacted(v)
			},
		},
	}
}

// sessionNames are the names servers give a session cookie.
const sessionNames = `connect\.sid|phpsessid|jsessionid|asp\.net_sessionid|sessionid|session_id|sessid|session|laravel_session|_session_id|[a-z0-9_]*_session|[a-z0-9_]*logged_in[a-z0-9_]*|sid`

// codeName reports an identifier as code writes one, of two words or more
// joined by '_', '.', '-' or a hump (master_key, apiToken, SECRET-KEY), not
// a word of prose.
func codeName(name string) bool {
	if strings.ContainsAny(name, "_.-") {
		return true
	}
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(name[i-1])) {
			return true
		}
	}
	return false
}

// keyPath reports a value that is a key into a store, its parts joined by
// ':' (user:54837:profile, tenant:42:settings:v2, rl:ip:{addr}): three
// parts or more, each a lower-case word, a number or a placeholder. A
// generated part (user:Xk9pQ2mZ7vLs:profile) makes it none.
func keyPath(v string) bool {
	parts := strings.Split(v, ":")
	if len(parts) < 3 {
		return false
	}
	words := 0
	for _, p := range parts {
		if p == "" || p == "*" || strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") || strings.HasPrefix(p, "<") && strings.HasSuffix(p, ">") {
			continue
		}
		digits, lower := true, true
		for _, r := range p {
			if r < '0' || r > '9' {
				digits = false
			}
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
				lower = false
			}
		}
		switch {
		case digits:
		case lower && !random(p) && !hexKey(p):
			words++
		default:
			return false
		}
	}
	return words >= 2
}

// sessionValue reports a value a server generates for a session: random
// letters and digits (three of each or more), not a date or a name with
// a number.
func sessionValue(v string) bool {
	var let, dig int
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			dig++
		case unicode.IsLetter(r):
			let++
		}
	}
	return let >= 3 && dig >= 3 && generated(v) && !dateRE.Get().MatchString(v) && !uuidRE.Get().MatchString(v)
}

var uuidRE = lazy.RE(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

var dateRE = lazy.RE(`\d{4}-\d{2}-\d{2}|\d{2}\.\d{2}\.\d{4}`)
