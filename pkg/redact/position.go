package redact

import (
	"encoding/base64"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// positionRules find a secret where the syntax of a statement, a protocol
// or an encoding places it rather than a name beside it (round 14):
//   - SQL's INSERT, whose column list names a secret's column and whose
//     VALUES give the literal at that position (a call among the values,
//     now(), is one value);
//   - a protocol's AUTH given as a quoted argument (redis MONITOR's
//     "AUTH" "…", a RESP array's arguments);
//   - a bech32 key whose human-readable part says it is secret (Cardano's
//     ed25519_sk1…, addr_xsk1…, Nostr's nsec1…);
//   - a user:password literal encoded for a Basic header in code
//     (Buffer.from(`user:pw`).toString('base64'), btoa('user:pw'),
//     base64.b64encode(b'user:pw'), Base64.encode("user:pw"));
//   - a cookie set by a call or assigned in script (cookies.set('sid',
//     '…'), document.cookie = "sid=…", setcookie("sid", "…")).
func positionRules() []rule {
	return []rule{
		{
			name:  "secret-value",
			hints: []string{"insert"},
			pre:   func(lower string) bool { return strings.Contains(lower, "values") },
			re:    lazy.RE(`(?is)\binsert\s+into\s+[^\s(]+\s*\(([^()]{1,400})\)\s*values\s*\(((?:[^()'"]|[A-Za-z_][\w.]*\((?:[^()'"]|'[^'\n]*')*\)|'(?:[^'\\]|''|\\.)*'|"(?:[^"\\]|\\.)*")*)\)`),
			repl:  func(m []string) string { return maskInsert(m[0], m[1], m[2]) },
			keep:  func(m []string) bool { return maskInsert(m[0], m[1], m[2]) == m[0] },
		},
		{
			name:  "secret-value",
			hints: []string{`"auth"`},
			re:    lazy.RE(`(?i)("AUTH"(?:[ \t]+"[A-Za-z0-9_.@-]{1,64}")?[ \t]+")([^"\s]{6,200})(")`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// SMTP's AUTH PLAIN <base64 of \0user\0password>, and AUTH
			// LOGIN's answer to the server's 334 UGFzc3dvcmQ6 (base64 of
			// "Password:"): the line a transcript gives the password on.
			name:  "secret-value",
			hints: []string{"auth plain", "ugfzc3dvcmq6"},
			re:    lazy.RE(`((?i:\bAUTH[ \t]+PLAIN)[ \t]+|\b334[ \t]+UGFzc3dvcmQ6[ \t]*\r?\n(?:[ \t]*C:)?[ \t]*)([A-Za-z0-9+/]{8,}={0,2})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				d, err := base64.StdEncoding.DecodeString(m[2])
				return err != nil || strings.HasPrefix(strings.ToUpper(m[1]), "AUTH") && strings.Count(string(d), "\x00") != 2
			},
		},
		{
			// WireGuard's private key or preshared key printed by the
			// command that made it (wg genkey | tee …, wg genpsk): the
			// output line under the command.
			name:  "private-key",
			hints: []string{"wg genkey", "wg genpsk"},
			re:    lazy.RE(`(\bwg[ \t]+gen(?:key|psk)\b[^\n]*\r?\n)([A-Za-z0-9+/]{42,43}=)`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		{
			// A cookie copied from a browser's cookie table (devtools):
			// name, value, domain and path split by tabs.
			name:  "cookie",
			hints: []string{"\t/"},
			re:    lazy.RE(`(?m)^([A-Za-z0-9_.-]{1,64}\t)([^\t\n]{16,1000})(\t\.?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\t/)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				return !sessionCookie(strings.ToLower(strings.TrimSpace(m[1]))) && !random(m[2]) || redacted(m[2])
			},
		},
		{
			// A value handed over in a chat's words: "new one is `…`",
			// "try again with this one? …", "pasting the … here so I
			// don't lose it: …", "pasted the new gitea one here …: …"
			// (round 27: a vendor's name before "one"). Only a generated
			// value counts, and a UUID or hex only where its line or the
			// next names a secret or what happens to one.
			name:   "secret-value",
			window: true,
			span:   320,
			back:   200,
			hints:  []string{"new one is", "this one", "lose it", "use this", "try again with", "new key", "new token", "one here"},
			re:     lazy.RE("(?i)((?:^|\n)([^\n]*?)(?:\\bnew one is|\\bwith this one\\??|\\bthis one:|\\bso i don'?t lose it:|\\buse this(?: one)?(?: for now| instead)?:|\\btry again with|\\bnew (?:key|token)\\b[^\n:>]{0,40}?(?:->|=>|:)|\\bnew [\\w.-]+ one here\\b[^\n:>]{0,60}?:)[ \t]*\x60?)([A-Za-z0-9_.+/=:~-]{16,400})([^\n]{0,120}(?:\n[^\n]{0,80})?)"),
			repl:   func(m []string) string { return m[1] + Mask + m[4] },
			// A UUID or a hex value (a record's, a commit's) only where its
			// line names a secret or what happens to one ("revoked",
			// "write scope", "the vault").
			keep: func(m []string) bool {
				v := strings.TrimRight(m[3], ".")
				if notAValue(v) || redacted(v) {
					return true
				}
				named := secretName(strings.Join(strings.Fields(m[2]), "_")) || handedSecret(strings.ToLower(m[1]+m[4]))
				if uuidShape(v) || hexOnly(v) {
					return !named || len(v) < 24
				}
				return !generated(v) && !tokenLike(v)
			},
		},
		{
			// A chat line that names a service's key and gives it after
			// "is" ("the gitea key for staging is …", "the ngrok token is
			// …"): prose's "key" takes a value only when it is generated.
			name:   "secret-value",
			window: true,
			span:   160,
			back:   8,
			hints:  []string{"key for", "key is", "token for", "token is"},
			re:     lazy.RE("(?i)(\\b(?:key|token)(?:[ \t]+(?:for|of|on)[ \t]+[\\w.-]+)?[ \t]+is[ \t]+\x60?)([A-Za-z0-9_.+/=:~-]{20,400})"),
			repl:   func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], ".:")
				return notAValue(v) || redacted(v) || namedDigest(v) || pathLike(v) || strings.Contains(v, "://") || !generated(v) && !tokenLike(v)
			},
		},
		{
			// A credential an error message quotes as refused ("AuthError:
			// rejected key …", "invalid token: …", "revoked api key '…'"):
			// a generated value, or a UUID the message calls a key.
			name:   "secret-value",
			window: true,
			span:   120,
			back:   8,
			hints:  []string{"rejected", "invalid", "revoked", "expired", "unknown", "unauthorized", "incorrect"},
			re:     lazy.RE("(?i)(\\b(?:rejected|invalid|revoked|expired|unknown|unauthorized|incorrect)[ \t]+(?:api[ _-]?|access[ _-]?|auth[ _-]?)?(?:key|token|secret|credential|password)s?[ \t]*[:=]?[ \t]*[\"'\x60]?)([A-Za-z0-9_.+/=~-]{16,400})"),
			repl:   func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], ".")
				return notAValue(v) || redacted(v) || !generated(v) && !tokenLike(v) && !generatedLetters(v) && !uuidShape(v)
			},
		},
		{
			// A WebSocket subprotocol that carries a token
			// (Sec-WebSocket-Protocol: token.…, Kubernetes'
			// base64url.bearer.authorization.k8s.io.…).
			name:  "authorization",
			hints: []string{"sec-websocket-protocol"},
			re:    lazy.RE(`(?i)(sec-websocket-protocol:[ \t]*(?:[^\s,'"]+,[ \t]*)*[A-Za-z0-9.-]*(?:token|bearer|auth)[A-Za-z0-9.-]*\.)([A-Za-z0-9_-]{16,})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return !random(m[2]) && !tokenLike(m[2]) },
		},
		{
			// The same subprotocols given to a browser's WebSocket: the
			// scheme's name, then the token ("new WebSocket(url, ['bearer',
			// '…'])").
			name:  "authorization",
			hints: []string{"websocket("},
			re:    lazy.RE(`(?i)(\bWebSocket\(\s*[^,()\n]{1,300},\s*\[\s*["'](?:bearer|token|auth|access[_.-]?token|authorization)["']\s*,\s*["'])([A-Za-z0-9_.~+/=-]{16,})(["'])`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return !random(m[2]) && !tokenLike(m[2]) },
		},
		{
			// Postfix's sasl_passwd: [relay]:port user:password.
			name:  "secret-value",
			hints: []string{"sasl_passwd"},
			re:    lazy.RE(`(?m)^(\[?[A-Za-z0-9.-]+\]?(?::\d+)?[ \t]+[^\s:]+:)(\S+)[ \t]*$`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			name:  "private-key",
			hints: []string{"sk1", "nsec1", "xprv1", "prv1"},
			re:    lazy.RE(`\b(?:[a-z0-9]+_)?(?:[a-z]*sk|nsec|[a-z]*prv)1[02-9ac-hj-np-z]{50,}\b`),
		},
		{
			name:  "secret-value",
			hints: []string{"base64", "btoa", "b64encode", "buffer.from", "encode"},
			pre:   func(lower string) bool { return strings.Contains(lower, ":") },
			re:    lazy.RE("((?:Buffer\\.from|btoa|b64encode|Base64\\.(?:encode|getEncoder\\(\\)\\.encodeToString)|base64_encode|Convert\\.ToBase64String|encodeBase64|strict_encode64|encode64)\\(\\s*(?:b|Encoding\\.\\w+\\.GetBytes\\(|)[\"'`][A-Za-z0-9_.@+-]{0,64}:)([^\"'`\\s$]{6,200})([\"'`])"),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return notAValue(v) || redacted(v) || strings.HasPrefix(v, "{") || !tokenLike(v) && !strong(v) && !symbolMixed(v) && !chosen(v) && !wordsAndNumber(v)
			},
		},
		{
			name:  "cookie",
			hints: []string{"cookie"},
			re:    lazy.RE(`(?i)((?:cookies?\.(?:set|add)|set_?cookie|setCookie|Cookie(?:::new)?|new\s+Cookie)\(\s*["'][A-Za-z0-9_.-]{1,64}["']\s*,\s*["']|document\.cookie\s*=\s*["'][A-Za-z0-9_.-]{1,64}=)([^"';\s]{16,1000})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) || !random(m[2]) && !tokenLike(m[2]) },
		},
		{
			// A login given as "(user / secret)" in prose: a user name, a
			// slash between spaces and a generated value, alone in
			// parentheses or brackets.
			name:  "secret-value",
			hints: []string{" / "},
			re:    lazy.RE(`([(\[][ \t]*[A-Za-z0-9_.@-]{2,32}[ \t]+/[ \t]+)([^\s()\[\]/]{16,200})([ \t]*[)\]])`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				return notAValue(m[2]) || redacted(m[2]) || !generated(m[2]) && !tokenLike(m[2])
			},
		},
		{
			// A secret's name and its value between spaces inside a line,
			// as a CLI's arguments or a listing give them ("key_id rzp_…
			// key_secret VALUE", "… client_secret VALUE"): the name an
			// identifier whose last part names a secret, the value
			// generated.
			name:   "secret-value",
			window: true,
			span:   160,
			hints:  []string{"_secret", "_token", "_password", "_passwd", "-secret", "-token", "-password"},
			re:     lazy.RE(`(?i)((?:^|[ \t])[a-z0-9]+(?:[_-][a-z0-9]+)*[_-](?:secret|token|password|passwd)[ \t]+)([A-Za-z0-9_+/=.-]{16,200})([ \t]|$)`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				return notAValue(m[2]) || redacted(m[2]) || !generated(m[2]) && !tokenLike(m[2])
			},
		},
	}
}

// maskInsert masks, in an INSERT's VALUES, the literal at the position of
// a column that names a secret, where it looks made.
func maskInsert(all, cols, vals string) string {
	names := strings.Split(cols, ",")
	var lits [][2]int // spans of the values in vals
	start, q, depth := 0, byte(0), 0
	for i := 0; i < len(vals); i++ {
		c := vals[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			lits = append(lits, [2]int{start, i})
			start = i + 1
		}
	}
	lits = append(lits, [2]int{start, len(vals)})
	if len(lits) != len(names) {
		return all
	}
	out := vals
	for k := len(names) - 1; k >= 0; k-- {
		name := strings.Trim(strings.TrimSpace(names[k]), "`\"[]")
		if !secretName(name) && !strongName(name) || idName(name) || refName(name) {
			continue
		}
		lit := strings.TrimSpace(vals[lits[k][0]:lits[k][1]])
		v := strings.Trim(lit, `'"`)
		if len(lit) < 2 || lit[0] != '\'' && lit[0] != '"' || !namedSecret(name, lit) && !(generated(v) || hexOnly(v) && len(v) >= 16) {
			continue
		}
		at := lits[k][0] + strings.Index(vals[lits[k][0]:lits[k][1]], v)
		out = out[:at] + Mask + out[at+len(v):]
	}
	if out == vals {
		return all
	}
	i := strings.LastIndex(all, vals)
	return all[:i] + out + all[i+len(vals):]
}

// handedSecret reports a chat line that says what it hands over is a
// credential: by name, or by what happens to one (revoked, rotated, its
// scope, the vault it will be kept in).
func handedSecret(line string) bool {
	for _, w := range []string{"key", "token", "secret", "password", "credential", "revoked", "rotated", "scope", "vault", "expires", "rotate it"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}
