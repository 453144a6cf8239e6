package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// shapeRules find secrets by the shape of the file, command or table that
// carries them: a config line whose key names a secret and whose value
// follows spaces (mosquitto, keepalived, msmtprc), a directive or a
// command that takes a password by position (Cisco's "secret 0", ipsec's
// PSK, an ftp script's "user NAME PASSWORD", a CLI's "login TOKEN"), a
// short flag given a generated value, a Java literal turned into a char
// array, a TOTP seed, a PKCS#12 blob under a keystore's name, and a
// Markdown table whose column or row names a secret. Each value is judged
// by its shape (made, random), so a word, a path or a default stays.
func shapeRules() []rule {
	return []rule{
		{
			// A config line of a key that names a secret, spaces and one
			// value (remote_password X, auth_pass X, requirepass X); a
			// Google app password is four groups of four letters.
			name:  "secret-value",
			hints: []string{"pass", "secret", "psk", "token", "masterauth"},
			pre:   lineKey,
			re: lazy.RE(`(?im)^([ \t]*(?:[a-z0-9_.-]*(?:password|passwd|_pass|passphrase|secret|psk|token)|requirepass|masterauth|pass)[ \t]+)` +
				`("[^"\n]*"|[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}|\S+)[ \t]*$`),
			repl: func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"`)
				key := strings.ToLower(strings.TrimSpace(m[1]))
				app := len(v) == 19 && strings.Count(v, " ") == 3
				return notAValue(v) || redacted(v) || !app && !madePhrase(v) && key != "requirepass" && key != "masterauth"
			},
		},
		{
			// Cisco IOS: "secret 0 X" and "password 0 X" give the password
			// in clear (type 0).
			name:  "secret-value",
			hints: []string{"secret 0 ", "password 0 "},
			re:    lazy.RE(`(\b(?:secret|password)[ \t]+0[ \t]+)(\S+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) },
		},
		{
			// ipsec.secrets: "left right : PSK "X"" (and EAP, XAUTH).
			name:  "secret-value",
			hints: []string{"psk", "eap", "xauth"},
			re:    lazy.RE(`(:[ \t]*(?:PSK|EAP|XAUTH)[ \t]+)("[^"\n]+"|'[^'\n]+'|\S+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return notAValue(strings.Trim(m[2], `"'`)) },
		},
		{
			// pgbouncer's userlist.txt: "user" "password" on a line.
			name:  "secret-value",
			hints: []string{`" "`},
			re:    lazy.RE(`(?m)^([ \t]*"[^"\n]+"[ \t]+")([^"\n]+)("[ \t]*)$`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return notAValue(v) || !madePhrase(v) || strings.HasPrefix(v, "md5") || strings.HasPrefix(v, "SCRAM-")
			},
		},
		{
			// A directive or script line that takes a user, then its
			// password: ftp's "user NAME PASSWORD", ProFTPD's
			// "SQLConnectInfo DB USER PASSWORD".
			name:  "secret-value",
			hints: []string{"user ", "sqlconnectinfo"},
			pre:   func(lower string) bool { return strings.Contains(lower, "ftp") },
			re:    lazy.RE(`(?im)^([ \t]*(?:user|SQLConnectInfo[ \t]+\S+)[ \t]+\S+[ \t]+)(\S+)[ \t]*$`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || !made(m[2]) },
		},
		{
			// A CLI's login given its token by position: wandb login KEY,
			// huggingface-cli login TOKEN (a generated value only).
			name:   "password-flag",
			window: true,
			hints:  []string{"login "},
			span:   160,
			back:   40,
			re:     lazy.RE(`(\b[a-z][a-z0-9_-]*[ \t]+(?:auth[ \t]+)?login[ \t]+(?:--?[a-z-]+[ \t]+)*)([A-Za-z0-9_.-]{20,})`),
			repl:   func(m []string) string { return m[1] + Mask },
			// az login --identity --username <client id>: the value
			// of a flag that takes a name or an id.
			keep: func(m []string) bool { f := strings.Fields(m[1]); return !generated(m[2]) || nameFlag(f[len(f)-1]) },
		},
		{
			// A short flag given a generated value (-k=SECRET, -t TOKEN,
			// -p PASSWORD): ids and names are not random.
			name:   "password-flag",
			window: true,
			hints:  []string{" -"},
			span:   80,
			back:   1,
			re:     lazy.RE(`(\s-[kKtTsSaApPwWx](?:[ \t]+|=)["']?)([A-Za-z0-9+/=_.-]{24,})`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep:   func(m []string) bool { return !generated(m[2]) || pathLike(m[2]) || minisignPublic(m[2]) },
		},
		{
			// Any command's user flag, then its password flag: "-u root -p
			// X", "--user admin --pass X", "-l ops -pw X" (a made value; a
			// port, "8080:80", is none).
			name:   "password-flag",
			window: true,
			hints:  []string{" -u", " -l", " --user", " -U"},
			span:   160,
			re:     lazy.RE(`((?:^|\s)(?:-[uUl]|--user(?:name)?)[ \t=]+["']?[^\s"'-][^\s"']*["']?[ \t]+(?:-[A-Za-z]\S*[ \t]+\S+[ \t]+)?(?:-[pPw]|-pw|--pass)[ \t=]+)('[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `'"`)
				return notAValue(v) || redacted(v) || !made(v) || portLike(v)
			},
		},
		{
			// snmp tools' -c community, when made (public stays).
			name:  "password-flag",
			hints: []string{"snmp"},
			re:    lazy.RE(`(\bsnmp[a-z]*\b[^\n|;&]*?[ \t]-c[ \t]+)('[^'\n]+'|"[^"\n]+"|\S+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return !made(strings.Trim(m[2], `'"`)) },
		},
		{
			// SQLcl and sqlplus: USER/PASSWORD@SERVICE.
			name:  "password-flag",
			hints: []string{"sql"},
			re:    lazy.RE(`(\bsql(?:cl)?[ \t]+(?:-\S+[ \t]+)*[A-Za-z0-9_$#]+/)([^\s@/'"]+)(@)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// Java's "…".toCharArray(): a literal made a char array is a
			// password (KeyStore.load, PasswordAuthentication).
			name:  "secret-value",
			hints: []string{".tochararray()"},
			re:    lazy.RE(`(")([^"\n]{6,200})("\.toCharArray\(\))`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return notAValue(m[2]) || !made(m[2]) },
		},
		{
			// A TOTP seed: pyotp.TOTP("BASE32"), or a grouped setup key
			// after its name ("2FA setup key: z556 ay7z …").
			name:  "secret-value",
			hints: []string{"totp", "hotp", "2fa", "mfa", "setup key", "secret key", "authenticator"},
			re: lazy.RE(`(?i)(\b[HT]OTP\([ \t]*["'])([A-Z2-7]{16,}=*)(["'])|` +
				`(\b(?:2fa|mfa|totp|otp|setup|secret|authenticator)\b[^\n:]{0,60}:[ \t]*)((?:[a-z2-7]{4}[ -]){3,}[a-z2-7]{4})\b`),
			repl: func(m []string) string {
				if m[1] != "" {
					return m[1] + Mask + m[3]
				}
				return m[4] + Mask
			},
			// pyotp's and Google Authenticator's documented examples stay.
			keep: func(m []string) bool {
				v := m[2] + m[5]
				return notAValue(v) || strings.Contains(strings.ToLower(v), "secret") || v == "JBSWY3DPEHPK3PXP"
			},
		},
		{
			// A PKCS#12 or keystore file as base64 under its name
			// (APPLE_CERT_P12_BASE64=MII…): the key is inside.
			name:  "private-key",
			hints: []string{"mii"},
			re:    lazy.RE(`(?i)(\b[a-z0-9_]*(?:p12|pfx|pkcs12|keystore|jks)[a-z0-9_]*["']?[ \t]*[:=][ \t]*["']?)(MII[A-Za-z0-9+/]{100,}={0,2})`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		{
			// kubeadm's bootstrap token (abcdef.0123456789abcdef) in prose.
			name:   "vendor-token",
			window: true,
			hints:  []string{"token"},
			back:   160,
			span:   160,
			re:     lazy.RE(`\b([a-z0-9]{6})\.([a-z0-9]{16})\b`),
			keep: func(m []string) bool {
				return !strings.ContainsAny(m[2], digits) || strings.Trim(m[2], digits) == "" || m[0] == "abcdef.0123456789abcdef" || !strings.ContainsAny(m[1], digits) && !strings.ContainsAny(m[2], lower)
			},
		},
		{
			// A seed phrase named in another language ("frase semilla:",
			// "phrase de récupération :", "ニーモニック：", "복구 문구:"): 12 to
			// 24 words of any script.
			name:  "mnemonic",
			hints: []string{"semilla", "récupération", "recuperación", "recuperação", "recupero", "ニーモニック", "シードフレーズ", "リカバリーフレーズ", "fráze", "문구", "니모닉", "助记词", "мнемони", "сид-фраз", "wiederherstellungsphrase", "frase seed"},
			re: lazy.RE(`((?i:frase semilla|frase de recuperación|phrase de récupération|phrase secrète|frase di recupero|frase seed|frase semente|frase de recuperação|ニーモニック|シードフレーズ|リカバリーフレーズ|obnovovací fráze|복구 문구|시드 문구|니모닉|助记词|мнемоническая фраза|сид-фраза|wiederherstellungsphrase)[^\n:：]{0,40}[:：][ \t]*[«"“]?[ \t]*)` +
				`((?:[\p{L}\p{M}]{2,16}[ \t\x{3000}]+){11,23}[\p{L}\p{M}]{2,16})`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				n := len(strings.FieldsFunc(m[2], func(r rune) bool { return r == ' ' || r == '\t' || r == '\u3000' }))
				return n%3 != 0
			},
		},
		{
			// A Markdown table whose header names a secret's column
			// (| Passwort |) or whose row names a secret before its value
			// (| SECRET_KEY | `…` |): the made values in it.
			name:  "secret-value",
			hints: []string{"|"},
			pre: func(lower string) bool {
				return strings.Contains(lower, "|-") || strings.Contains(lower, "| -") || strings.Contains(lower, "|:-")
			},
			re:   lazy.RE(`(?m)(?:^[ \t]*\|[^\n]*\|[ \t]*(?:\n|$)){3,}`),
			repl: func(m []string) string { return maskTable(m[0]) },
			keep: func(m []string) bool { return maskTable(m[0]) == m[0] },
		},
	}
}

// maskTable masks a Markdown table's made values: every cell in a column
// whose header names a secret, and the cell after one that names a secret
// on its row.
func maskTable(t string) string {
	lines := strings.Split(t, "\n")
	cells := func(l string) []string {
		l = strings.TrimSpace(l)
		return strings.Split(strings.Trim(l, "|"), "|")
	}
	head := cells(lines[0])
	secretCol := make([]bool, len(head))
	// A column headed only "key" or "value" holds secrets only where a
	// value is generated (an API key's column, not a lookup key's).
	keyCol := make([]bool, len(head))
	// A password's column takes a value a person chose (words and a
	// number) as well as a made one.
	pwCol := make([]bool, len(head))
	for i, h := range head {
		secretCol[i] = tableSecretWord(h)
		pwCol[i] = pwWordRE.Get().MatchString(strings.ToLower(strings.Trim(strings.TrimSpace(h), "`*")))
		hl := strings.ToLower(strings.Trim(strings.TrimSpace(h), "`*"))
		keyCol[i] = hl == "key" || hl == "keys" || hl == "value"
	}
	for k := 2; k < len(lines); k++ {
		row := cells(lines[k])
		changed := false
		for i, c := range row {
			v := strings.Trim(strings.TrimSpace(c), "`")
			named := i < len(secretCol) && secretCol[i] || i > 0 && secretName(strings.Trim(strings.TrimSpace(row[i-1]), "`")) && strongName(row[i-1])
			if !named && !(i < len(keyCol) && keyCol[i] && generated(v)) || v == "" || strings.ContainsAny(v, " \t`") || notAValue(v) || redacted(v) || !(made(v) || random(v) || i < len(pwCol) && pwCol[i] && (chosen(v) || wordsAndNumber(v) || symbolMixed(v) || scrambled(v))) {
				continue
			}
			row[i] = strings.Replace(c, v, Mask, 1)
			changed = true
		}
		if changed {
			lead := lines[k][:strings.Index(lines[k], "|")]
			lines[k] = lead + "|" + strings.Join(row, "|") + "|"
		}
	}
	return strings.Join(lines, "\n")
}

// tableSecretWord reports a table header that names a password, a secret
// or a token (in the languages the prose rules know).
func tableSecretWord(h string) bool {
	l := strings.ToLower(strings.TrimSpace(h))
	switch l {
	case "key", "api_key", "access_key", "access key", "private_key", "private key", "license_key", "license key":
		return true
	}
	return pwWordRE.Get().MatchString(l) || anyOf(l, "secret", "token", "api key", "apikey", "credential")
}

var pwWordRE = lazy.RE(`(?i)^(?:` + pwWords + `|pw|pwd)$`)

// lineKey reports a line whose first field names a secret and is followed
// by another (the config-line rule's shape), cheaper than its regexp.
func lineKey(lower string) bool {
	for line := range strings.SplitSeq(lower, "\n") {
		line = strings.TrimLeft(line, " \t")
		i := strings.IndexAny(line, " \t")
		if i > 0 && i < 64 && i+1 < len(line) && anyOf(line[:i], "pass", "secret", "psk", "token", "masterauth") {
			return true
		}
	}
	return false
}

// proseShapes find a password told in prose by the order of its words
// rather than a key word and a verb before it. They share the prose rules'
// hint list and run right after them, so the list is asked once.
func proseShapes() []rule {
	return []rule{
		{
			// Verb-final languages put the value before the copula: "पासवर्ड
			// X है", "پاس ورڈ X ہے", "pasahitza X da", "கடவுச்சொல் X ஆகும்".
			name:   "secret-value",
			window: true,
			hints:  pwHints,
			span:   160,
			pre:    func(lower string) bool { return anyOf(lower, copulas...) },
			re: lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + pwWords + `)[ \t]+(?:[^\s"'\x60]+[ \t]+){0,3}?)([^\s"'\x60]{6,200})` +
				`([ \t]+(?:है|हैं|आहे|ہے|ہیں|da|ஆகும்|است|dır|dir|dur|dür|tır|tir|です|입니다|է)(?:[^\p{L}]|$))`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return !strong(v) && !chosen(v) && !passphrase(v) && !(random(v) && !hexOnly(v)) && !symbolMixed(v) && !scrambled(v) && !mixedCase(v)
			},
		},
		{
			// A passphrase of plain words told in prose ("… lautet maple
			// staple orbit mosaic, bitte …"): four to eight small words after
			// the word and a verb, to the clause's end, none a word of grammar
			// or a participle ("Password policy: minimum length twelve
			// characters" has no verb).
			name:   "secret-value",
			window: true,
			hints:  pwHints,
			span:   160,
			re: lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + pwWords + `)(?:[ \t]+[^:：\n]{1,48}?)?[ \t]+(?:is|ist|lautet|est|es|è|é|är|er|on|ni|je|yw|—)[ \t]+)` +
				`((?:[a-z]{3,9}[ \t]+){3,7}[a-z]{3,9}[0-9!?#$%&*]*)([,.;!]|[ \t]*$)`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				if m[2] != strings.ToLower(m[2]) {
					return true
				}
				for _, w := range strings.Fields(strings.TrimRight(m[2], digits+"!?#$%&*")) {
					if grammarWords.Get()[w] || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ly") || strings.HasSuffix(w, "tion") {
						return true
					}
				}
				return false
			},
		},
		{
			// The value before the word: Irish "Is é X an focal faire", "use
			// X as the password": a random or chosen value up to three words
			// before it (a hex digest is neither).
			name:   "secret-value",
			window: true,
			hints:  pwHints,
			back:   80,
			span:   32,
			re:     lazy.RE(`(?i)(^|[\s(])([^\s"'\x60(]{8,64})([ \t]+(?:\p{L}+[ \t]+){0,3}(?:` + pwWords + `)(?:[^\p{L}]|$))`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return hexOnly(v) || strings.ContainsAny(v, ":/\\=@") || !strings.ContainsAny(v, upper) || !strings.ContainsAny(v, lower) || !strings.ContainsAny(v, digits) || !strong(v)
			},
		},
	}
}

// grammarWords are words of grammar that no generated passphrase holds
// ("stored in the vault", "bitte nicht weitergeben").
var grammarWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"the": true, "and": true, "for": true, "with": true, "from": true, "this": true, "that": true, "are": true, "was": true, "has": true, "have": true,
		"not": true, "but": true, "you": true, "your": true, "our": true, "its": true, "can": true, "will": true, "all": true, "any": true, "into": true, "onto": true, "when": true, "then": true,
		"every": true, "each": true, "only": true, "also": true, "still": true, "never": true, "always": true, "must": true, "should": true, "same": true, "there": true, "here": true,
		"der": true, "die": true, "das": true, "und": true, "den": true, "dem": true, "ein": true, "eine": true, "ist": true, "nicht": true, "mit": true, "von": true, "bei": true, "auf": true,
		"les": true, "des": true, "une": true, "est": true, "pas": true, "par": true, "pour": true, "dans": true, "los": true, "las": true, "del": true, "con": true, "por": true, "una": true,
		"para": true, "che": true, "per": true, "non": true, "sono": true, "nel": true, "met": true, "het": true, "een": true, "niet": true, "och": true, "som": true, "att": true}
}}

// copulas close a clause in the verb-final languages the prose rules know.
var copulas = []string{"है", "आहे", " է", "ہے", "ہیں", " da", "ஆகும்", "است", "dır", "dir", "dur", "dür", "tır", "tir", "です", "입니다"}

// portLike reports a port or a mapping of ports ("8080", "8080:80",
// "127.0.0.1:5432:5432", "53/udp").
func portLike(v string) bool {
	return strings.Trim(v, "0123456789.:/tcpud") == "" && strings.ContainsAny(v, digits)
}
