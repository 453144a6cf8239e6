package redact

import (
	"encoding/base64"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// layoutRules find a secret by where a file format or a command puts it
// (round 13, by class), each gated on the value looking made:
//   - a column a header comment names ("# client server secret IP", as
//     chap-secrets and pap-secrets write) in the rows below it;
//   - user:password lines in a chpasswd list (cloud-init), a redis ACL
//     rule's >password, a bind DN followed by its password on one line
//     (ProFTPD's LDAPBindDN, nslcd's binddn … bindpw), a davfs2 secrets
//     line (a URL or mount point, a user, a password);
//   - a password typed or pasted at a prompt, told in prose;
//   - AUTH inside a protocol string (printf 'AUTH x\r\n' | nc, strace's
//     write(…, "AUTH x\r\n"));
//   - a token as a URL's path segment after /t/ or /token/ (conda);
//   - a secret file printed under cat whose name says password (a value
//     shorter than a generated one), and base64 of a keystore printed under
//     its command;
//   - a secret's word, a parenthesis and a colon before a generated value
//     ("signing seed (hex, 32 bytes): …");
//   - a TOTP seed in base32 given to an authenticator's add command;
//   - a Solana keypair's base58 where it is exported or named secret;
//   - (round 21) a Kubernetes Secret's data values, base64 whatever the key.
func layoutRules() []rule {
	return []rule{
		{
			// A Kubernetes Secret's data: every value is the secret's bytes
			// in base64, whatever its key (.dockerconfigjson, tls.key,
			// ca.crt's key), so a long base64 value on a key line of a
			// manifest of kind Secret is taken. Metadata's names and
			// labels are no base64 run of sixteen or more.
			name:  "secret-value",
			hints: []string{"kind: secret"},
			pre:   func(lower string) bool { return strings.Contains(lower, "\ndata:") },
			re:    lazy.RE(`(?m)^([ \t]+["']?\.?[A-Za-z0-9_.-]+["']?:[ \t]+["']?)([A-Za-z0-9+/]{16,}={0,2})(["']?[ \t]*)$`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				_, err := base64.StdEncoding.DecodeString(m[2])
				return err != nil || redacted(m[2])
			},
		},
		{
			name:  "secret-value",
			hints: []string{"secret", "password", "passwd"},
			pre:   headerComment,
			re:    lazy.RE(`(?im)^#[ \t]*((?:[a-z_-]+[ \t]+){1,6}(?:secret|password|passwd)(?:[ \t]+[a-z_-]+){0,6})[ \t]*\r?\n((?:[^\n#][^\n]*(?:\r?\n|$)){1,20})`),
			repl: func(m []string) string {
				i := strings.Index(m[0], m[2])
				return m[0][:i] + columnMask(m[1], m[2])
			},
			keep: func(m []string) bool { return columnMask(m[1], m[2]) == m[2] },
		},
		{
			name:  "secret-value",
			hints: []string{"chpasswd"},
			re:    lazy.RE(`(?i)(\bchpasswd:[^\n]*\r?\n(?:[ \t]+[^\n]*\r?\n){0,3}?[ \t]+list:[ \t]*\|?[ \t]*\r?\n)((?:[ \t]+[a-z_][a-z0-9_.-]*:[^\s:]+[ \t]*(?:\r?\n|$)){1,20})`),
			repl:  func(m []string) string { return m[1] + userLinesMask(m[2]) },
			keep:  func(m []string) bool { return userLinesMask(m[2]) == m[2] },
		},
		{
			// Redis ACL: user NAME on >PASSWORD ~keys +@cmds.
			name:  "password-flag",
			hints: []string{" on >", "setuser"},
			re:    lazy.RE(`(?i)(\b(?:acl[ \t]+setuser|user)[ \t]+\S+[ \t]+(?:[^\s>]+[ \t]+){0,6}>)([^\s]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || !madePhrase(m[2]) && !symbolMixed(m[2]) },
		},
		{
			// A bind DN, then its password on the same line.
			name:  "password-flag",
			hints: []string{"binddn", "bind_dn", "bind-dn"},
			re:    lazy.RE(`(?i)(bind[_-]?dn\b[ \t]*[=:]?[ \t]*(?:"[^"\n]*"|'[^'\n]*'|\S*=\S*)[ \t]+(?:bindpw[ \t]+)?)("[^"\n]{4,200}"|'[^'\n]{4,200}'|[^\s"']{6,200})`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"'`)
				return notAValue(v) || redacted(v) || !madePhrase(v) && !symbolMixed(v) && !scrambled(v)
			},
		},
		{
			// davfs2's secrets file: a URL or a mount point, a user, a
			// password, alone on a line.
			name:  "secret-value",
			hints: []string{"://", "/"},
			pre:   func(lower string) bool { return strings.Contains(lower, "/dav") || strings.Contains(lower, "davfs") },
			re:    lazy.RE(`(?m)^((?:https?://\S+|/\S+)[ \t]+[A-Za-z0-9_.@-]+[ \t]+)("[^"\n]+"|[^\s"]{8,128})[ \t]*$`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"`)
				return notAValue(v) || pathLike(v) || !strong(v) && !symbolMixed(v) && !generated(v)
			},
		},
		{
			// "typed X at the prompt", "pasted X into the password prompt".
			name:   "secret-value",
			window: true,
			span:   200,
			back:   120,
			hints:  []string{"prompt"},
			re:     lazy.RE(`(?i)(\b(?:typed|entered|pasted|keyed in|input)[ \t]+)(\S{6,128})([ \t]+(?:at|into|in|on)[ \t]+(?:the|its|a)[ \t]+(?:\S+[ \t]+)?prompt\b)`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return notAValue(v) || !strong(v) && !symbolMixed(v) && !generated(v)
			},
		},
		{
			// AUTH inside a protocol string: printf 'AUTH x\r\n' | nc …,
			// strace's write(3, "AUTH x\r\n", …).
			name:   "password-flag",
			hints:  []string{"auth "},
			window: true,
			back:   200,
			span:   200,
			pre: func(lower string) bool {
				return strings.Contains(lower, `\r\n`) || strings.Contains(lower, `\n"`) || strings.Contains(lower, `\n'`)
			},
			re:   lazy.RE(`(["'](?:[A-Z]+[ \t][^"'\n]*?\\r\\n)*AUTH[ \t]+(?:[A-Za-z0-9_.@-]+[ \t]+)?)([^\s"'\\]{6,128})(\\r\\n|\\n|["'])`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				return notAValue(m[2]) || !madePhrase(m[2]) && !symbolMixed(m[2]) && !mixedCase(m[2])
			},
		},
		{
			// A token as a URL's path segment: conda's /t/TOKEN/, /token/TOKEN/.
			name:  "secret-value",
			hints: []string{"/t/", "/token/", "/tokens/"},
			re:    lazy.RE(`(https?://[^\s/]+(?:/[^\s/]+)*?/(?:t|token|tokens)/)([A-Za-z0-9_.-]{16,})(/|\s|$)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			// A UUID with a page below it (/tokens/<uuid>/settings) is a
			// token's record in a dashboard's route, not the token.
			keep: func(m []string) bool { return !tokenLike(m[2]) || uuidShape(m[2]) && m[3] == "/" },
		},
		{
			// A password file printed under cat: a chosen value, shorter
			// than a generated one.
			name:   "secret-value",
			hints:  []string{"cat "},
			pre:    func(lower string) bool { return strings.Contains(lower, "\n") && anyOf(lower, "pass", "pwd") },
			window: true,
			back:   1,
			span:   320,
			re:     lazy.RE(`(\bcat[ \t]+\S*(?i:pass|pwd)\S*[ \t]*\r?\n)([^\s]{8,128})[ \t]*(?:\r?\n|$)`),
			repl:   func(m []string) string { return m[1] + Mask + "\n" },
			keep: func(m []string) bool {
				v := m[2]
				return notAValue(v) || redacted(v) || !strong(v) && !symbolMixed(v) && !generated(v)
			},
		},
		{
			// base64 of a keystore printed under its command.
			name:  "private-key",
			hints: []string{"base64"},
			pre: func(lower string) bool {
				return anyOf(lower, ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".key", ".p8")
			},
			re:   lazy.RE(`(\bbase64\b[^\n]*\.(?:p12|pfx|jks|keystore|kdbx|key|p8)\b[^\n]*\r?\n)([A-Za-z0-9+/=]{64,})`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool { return !random(m[2]) },
		},
		{
			// A secret's word, a parenthesis, a colon, a generated value.
			name:   "secret-value",
			window: true,
			span:   200,
			hints:  []string{"seed", "secret", "private key", "token", "password"},
			re:     lazy.RE(`(?i)(\b(?:seed|secret|private key|token|password)[ \t]*\([^()\n]{1,40}\)[ \t]*[:=][ \t]*)([A-Za-z0-9+/=_-]{16,})`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep:   func(m []string) bool { return notAValue(m[2]) || !generated(m[2]) },
		},
		{
			// A TOTP seed in base32 given to an authenticator's add
			// command (ykman oath accounts add … SECRET, oathtool, 2fa add).
			name:  "secret-value",
			hints: []string{"oath", "otp", "2fa", "authenticator"},
			pre:   func(lower string) bool { return strings.Contains(lower, " add ") },
			re:    lazy.RE(`(?i)(\b(?:oath|otp|totp|2fa|authenticator)\b[^\n]{0,120}?\badd\b[^\n]*?[ \t])([A-Z2-7]{16,}=*)(\s|$)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return strings.Trim(m[2], "=") == "" },
		},
		{
			// A credential encoded for a Basic header in the command
			// itself: printf ':%s' 'PAT' | base64, echo -n 'user:pw' | base64.
			name:  "secret-value",
			hints: []string{"base64"},
			pre:   func(lower string) bool { return strings.Contains(lower, "printf") || strings.Contains(lower, "echo") },
			re:    lazy.RE(`(\b(?:printf[ \t]+(?:'[^'\n]*%s[^'\n]*'|"[^"\n]*%s[^"\n]*")|echo[ \t]+-n)[ \t]+['"])([^'"\n]{8,200})(['"][ \t]*\|[ \t]*base64\b)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2][strings.IndexByte(m[2], ':')+1:]
				return notAValue(v) || strings.HasPrefix(v, "$") || !tokenLike(v) && !strong(v) && !symbolMixed(v)
			},
		},
		{
			// An answer to a request for credentials on the next line of a
			// chat: "can someone give me the grafana admin creds" then
			// "admin / VALUE".
			name:  "secret-value",
			hints: []string{"creds", "credential", "password", "login"},
			pre:   func(lower string) bool { return strings.Contains(lower, " / ") },
			re:    lazy.RE(`(?i)(\b(?:creds|credentials?|password|login)\b[^\n]*\r?\n[^\n]{0,40}?\b[A-Za-z0-9_.@-]{2,32}[ \t]+/[ \t]+)([^\s/]{6,64})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], ".,;)")
				return notAValue(v) || pathLike(v) || !strong(v) && !symbolMixed(v) && !scrambled(v) && !mixedCase(v)
			},
		},
		{
			// A Solana keypair's secret (64 bytes in base58) where it is
			// exported or named a secret or private key; a transaction's
			// signature has the same shape and stays.
			name:  "private-key",
			hints: []string{"export", "secret", "private", "keypair", "phantom", "solflare"},
			pre:   func(lower string) bool { return alnumRun(lower, 86) },
			re:    lazy.RE(`(?i)(\b(?:export(?:ed)?|secret(?:[ _]key)?|private[ _]key|keypair|phantom|solflare)\b[^\n]{0,40}?[:=][ \t]*["']?)([1-9A-HJ-NP-Za-km-z]{86,88})\b`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return strings.Contains(strings.ToLower(m[1]), "signature") },
		},
	}
}

// columnMask masks, in rows, the fields under the header's secret or
// password column (fields split at spaces), where the field looks made.
func columnMask(header, rows string) string {
	cols := strings.Fields(strings.ToLower(header))
	at := -1
	for i, c := range cols {
		if c == "secret" || c == "password" || c == "passwd" {
			at = i
		}
	}
	if at < 0 {
		return rows
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(rows, "\n") {
		f := strings.Fields(line)
		if len(f) == len(cols) && at < len(f) {
			v := strings.Trim(f[at], `"`)
			if !notAValue(v) && !redacted(v) && (strong(v) || symbolMixed(v) || generated(v) || madePhrase(v)) {
				line = replaceField(line, at, Mask)
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// replaceField replaces the n-th space-separated field of line.
func replaceField(line string, n int, with string) string {
	i, k := 0, -1
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) || line[i] == '\n' || line[i] == '\r' {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\n' && line[j] != '\r' {
			j++
		}
		if k++; k == n {
			return line[:i] + with + line[j:]
		}
		i = j
	}
	return line
}

// userLinesMask masks the password of each user:password line that looks
// made (chpasswd's list; RANDOM asks chpasswd to make one).
func userLinesMask(lines string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(lines, "\n") {
		t := strings.TrimRight(line, "\r\n \t")
		if i := strings.LastIndexByte(t, ':'); i > 0 {
			v := t[i+1:]
			if !notAValue(v) && !strings.EqualFold(v, "random") && (madePhrase(v) || symbolMixed(v) || scrambled(v) || strong(v) || mixedCase(v)) {
				line = t[:i+1] + Mask + line[len(t):]
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// headerComment reports a line that opens with '#' and names a secret or
// password column among three or more words (chap-secrets' header).
func headerComment(lower string) bool {
	for line := range strings.SplitSeq(lower, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") && len(strings.Fields(t)) >= 4 && anyOf(t, "secret", "password", "passwd") {
			return true
		}
	}
	return false
}

// alnumRun reports a run of n or more letters and digits.
func alnumRun(lower string, n int) bool {
	run := 0
	for i := 0; i < len(lower); i++ {
		if isAlnum(lower[i]) {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
