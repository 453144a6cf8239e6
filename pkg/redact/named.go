package redact

import (
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// namedRules find a value under a name that says it is a secret, where the
// older key rules read too narrow a value or too narrow a name (round 13,
// by class):
//   - a value of any printable bytes, quoted or not, under a secret's name:
//     symbols a generator or a person puts in a password ('?', '^', '[',
//     '~', a properties file's escaped ':') end no value;
//   - a name in the person's own language, written as an identifier
//     (passwort_datenbank, mot_de_passe, CONTRASENA_DB, senha_do_banco,
//     DB_ПАРОЛЬ, a properties key with a \u escape);
//   - Windows' setx NAME VALUE and a key string then its value as two
//     arguments (os.environ.setdefault("OCI_AUTH_TOKEN", "…"));
//   - a secret's name that ends its line ("New value for `X`:", "X set
//     to"), its value alone on a line below, in a fence or not;
//   - an element named for a password with a namespace, attributes, a
//     CDATA section or a nested <Value>;
//   - an armored block whose label calls it a private, secret or static
//     key (OpenVPN's static key).
//
// What the name says decides how made the value must look: a password's
// name takes anything chosen (a word and a number, words joined, a
// symbol); a token's or a secret's a made value; a name that merely ends
// in key or seed a generated one. A name for what identifies or
// describes a secret (…_id, …_length, …_policy, …_url) gives none.
func namedRules() []rule {
	return []rule{
		{
			name:     "secret-value",
			window:   true,
			assigned: true,
			span:     keySpan,
			hints:    namedHints,
			gate:     namedGate,
			re: lazy.RE(`((?:^|[^A-Za-z0-9_\\.\-\x{80}-\x{10FFFF}])((?:[A-Za-z0-9_.\-\x{80}-\x{10FFFF}]|\\u[0-9a-fA-F]{4})*(?i:` + namedStems + `)(?:[A-Za-z0-9_.\-\x{80}-\x{10FFFF}]|\\u[0-9a-fA-F]{4})*)` +
				`["']?\]?[ \t]*` + assign + `[ \t]*)(r#{1,3}"[^"\n]{4,200}"#{1,3}|"[^"\n]{4,1000}"|'[^'\n]{4,1000}'|[^\s"'\x60]{6,1000})`),
			repl: func(m []string) string {
				if h := rawHashes(m[3]); h > 0 {
					return m[1] + m[3][:h+2] + Mask + m[3][len(m[3])-h-1:]
				}
				return m[1] + quoteMask(m[3])
			},
			keep: func(m []string) bool { return !namedSecret(m[2], m[3]) },
		},
		{
			// setx NAME VALUE [/M]; a key string and its value as two
			// arguments of one call. A hint opens a window only where the
			// rest of a name leads to a space (setx) or to a quote and a
			// comma.
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   64,
			// A personal access token's name ends in _PAT
			// (os.Setenv("AZURE_DEVOPS_EXT_PAT", "…")).
			hints: append(namedHints[:len(namedHints):len(namedHints)], "_pat", "-pat"),
			gate:  pairAfter,
			// Gradle's buildConfigField("String", "NAME", "\"…\"") quotes
			// the value again inside its literal; the name holds a
			// secret's stem, so a type's string before it ("String", "NAME")
			// is not read as a name and its value.
			re: lazy.RE(`((?i:\bsetx[ \t]+)([\p{L}\p{N}_.-]+)[ \t]+|["']([\p{L}\p{N}_.-]*(?i:` + namedStems + `|[_-]pat)[\p{L}\p{N}_.-]*)["'][ \t]*,[ \t]*)` +
				`("\\"[^"\\\n]{4,1000}\\""|"[^"\n]{4,1000}"|'[^'\n]{4,1000}'|[^\s"'\x60,)]{6,1000})`),
			repl: func(m []string) string {
				if strings.HasPrefix(m[4], `"\"`) {
					return m[1] + `"\"` + Mask + `\""`
				}
				return m[1] + quoteMask(m[4])
			},
			keep: func(m []string) bool {
				v := m[4]
				if strings.HasPrefix(v, `"\"`) {
					v = `"` + v[3:len(v)-3] + `"`
				}
				// delenv("API_KEY", raising=False): the call's next
				// argument given by its keyword, not the name's value.
				return !namedSecret(m[2]+m[3], v) || keywordArg(v)
			},
		},
		{
			// A secret's name ending its line, its value alone on a line
			// below (past a blank line or a fence's opening); a remark in
			// parentheses may follow the name ("hs_ed25519_secret_key
			// (base64 of file, for backup):"). A hint opens a window only
			// where its line ends within a few bytes.
			name:   "secret-value",
			window: true,
			span:   1200,
			hints:  []string{"key", "token", "secret", "pass", "pwd", "_pat"},
			gate:   lineEndsAfter,
			re: lazy.RE(`((?:^|[^\p{L}\p{N}_])([A-Za-z0-9_]*(?i:key|token|secret|pass|pwd|pat)[A-Za-z0-9_]*)\x60?(?:[^\n\x60=]{0,24}|[ \t]*\([^()\n]{1,48}\))(?::|\bto|\bis|=)?[ \t]*\r?\n(?:[ \t]*\r?\n)?(?:[ \t]*(?:\x60\x60\x60|~~~)[A-Za-z0-9]*[ \t]*\r?\n)?[ \t]*)` +
				`([^\s]{16,1000})([ \t]*(?:\r?\n|$))`),
			repl: func(m []string) string { return m[1] + Mask + m[4] },
			keep: func(m []string) bool {
				v := m[3]
				name := m[2]
				return !secretName(name) || !strings.ContainsAny(name, "_") && !strings.EqualFold(name, "token") && !strings.EqualFold(name, "secret") ||
					refName(name) || idName(name) || notAValue(v) || redacted(v) || pathLike(v) || strings.ContainsAny(v[:1], "/~.") || strings.Contains(v, "://") || !tokenLike(v)
			},
		},
		{
			// <wsse:Password Type="PasswordText">…</wsse:Password>, <Pass
			// encoding="base64">…, <secret><![CDATA[…]]></secret>,
			// <AdministratorPassword><Value>…</Value>, <credential>…
			// (round 26).
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   48,
			hints:  []string{"pass", "pwd", "secret", "token", "psk", "credential"},
			re: lazy.RE(`(?i)(<((?:[a-z0-9_.-]+:)?[a-z0-9_.-]*(?:password|passwd|pwd|secret|token|passphrase|psk|pass|credential)[a-z0-9_.-]*)(?:[ \t]+[^<>\n]*[^<>\n/])?>\s*(?:<value>)?(?:<!\[CDATA\[)?)` +
				`([^<\]\n]{4,500})((?:\]\]>)?[ \t]*</)`),
			repl: func(m []string) string { return m[1] + Mask + m[4] },
			keep: func(m []string) bool {
				v := strings.TrimSpace(m[3])
				return refName(m[2]) || idName(m[2]) || notAValue(v) || redacted(v) || strings.Contains(v, " ") && !passphrase(`"`+v+`"`) ||
					!madePhrase(v) && !wordNumber(v) && !wordsNumber(v) && !symbolMixed(v) && !scrambled(v)
			},
		},
		{
			// An armored block whose label calls it a private, secret or
			// static key (OpenVPN's "Static key V1"): its body is the key.
			name:  "private-key",
			hints: []string{"key"},
			pre:   func(lower string) bool { return strings.Contains(lower, "-----begin") },
			re:    lazy.RE(`(?i)-----BEGIN [A-Za-z0-9 ]*(?:STATIC|SECRET) KEY[A-Za-z0-9 ]*-----[\s\S]*?-----END [A-Za-z0-9 ]*KEY[A-Za-z0-9 ]*-----`),
		},
	}
}

// namedStems are the words a secret's name holds, in English and the
// languages people name a password in as an identifier.
const namedStems = `パスワード|密码|密碼|비밀번호|סיסמ|pass|pwd|pw|secret|token|key|auth|cred|psk|seed|passwort|kennwort|contrase|contrasenya|senha|парол|parola|wachtwoord|lozink|hasl|hasło|heslo|salasana|jelsz|sifre|şifre|losenord|lösenord|adgangskode|passord|clave|geslo|mima|pasuwaado`

var namedHints = []string{"パスワード", "密码", "密碼", "비밀번호", "סיסמ", "pass", "pwd", "pw", "secret", "token", "key", "auth", "cred", "psk", "seed", "kennwort", "contrase", "senha", "парол", "parola", "wachtwoord", "lozink", "hasl", "hasło", "heslo", "salasana", "jelsz", "sifre", "şifre", "losenord", "lösenord", "adgangskode", "clave", "geslo", "mima"}

// pwStems open a name part that names a password, in any of the
// languages of namedStems.
// The first five are English (namedGate reads the rest as another
// language's).
var pwStems = []string{"pass", "pwd", "passwd", "passe", "authtok", "パスワード", "密码", "密碼", "비밀번호", "סיסמ", "passwort", "kennwort", "contrase", "contrasenya", "senha", "парол", "parol", "wachtwoord", "lozink", "haslo", "hasło", "heslo", "salasana", "jelsz", "sifre", "şifre", "losenord", "lösenord", "adgangskode", "passord", "clave", "geslo", "mima", "pasuwaado", "psk"}

// idLast are the last parts of a name that identifies, measures or
// describes a secret rather than holding it (token_id, password_length).
var idLast = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"id": true, "ids": true, "uuid": true, "type": true, "kind": true, "length": true, "len": true, "ttl": true, "expiry": true, "expires": true,
		"policy": true, "hash": true, "hashed": true, "digest": true, "fingerprint": true, "count": true, "size": true, "format": true, "prompt": true, "label": true, "hint": true,
		"encryption": true, "encoding": true, "storage": true, "store": true, "backend": true, "provider": true, "manager": true, "source": true, "helper": true, "command": true, "cmd": true,
		"lifetime": true, "timeout": true, "rotation": true, "interval": true,
		"regex": true, "pattern": true, "min": true, "max": true, "mode": true, "method": true, "algorithm": true, "alg": true, "scheme": true, "header": true, "field": true}
}}

// idName reports a name for what identifies or describes a secret (a
// Vault AppRole's secret_id is the secret itself).
func idName(name string) bool {
	parts := nameParts(name)
	last := strings.ToLower(parts[len(parts)-1])
	if len(parts) == 2 && strings.EqualFold(parts[0], "secret") && last == "id" {
		return false
	}
	return len(parts) >= 2 && idLast.Get()[last]
}

// namedSecret reports whether v, given to the identifier name, is a
// secret: how made it must look depends on what the name says.
func namedSecret(name, v string) bool {
	// A flag's name (--secret=NAME, "--password", prompt=True) is the
	// flag rules' to judge.
	if strings.HasPrefix(name, "-") {
		return false
	}
	// secret::Key, Credentials::new: a path's "::" assigns nothing.
	if strings.HasPrefix(v, ":") {
		return false
	}
	name = strings.Trim(name, `"'.-_`)
	if name == "" || refName(name) || idName(name) || badFixture(name) || publicKeyID(name, v) || hostPort(name, v) {
		return false
	}
	quoted := false
	if h := rawHashes(v); h > 0 {
		v = `"` + v[h+2:len(v)-h-1] + `"`
	}
	if _, q, _, ok := quotes(v); ok {
		v, quoted = q, true
	}
	v = strings.TrimSpace(v)
	if !quoted {
		v = strings.TrimRight(v, ",;")
	}
	// Inside quotes a bracket is the value's own ("UVT[4qBf]…"), not
	// an index or a call.
	nv := v
	if quoted && len(v) > 1 {
		nv = v[:1] + strings.NewReplacer("[", "_", "(", "_").Replace(v[1:])
	}
	if len(v) < 6 || notAValue(nv) || redacted(v) || strings.Contains(v, "://") || strings.HasPrefix(v, "arn:") || pathLike(v) || regexLike(v) || passWords.Get()[strings.ToLower(name)] ||
		sealed(v) || workDir(name, v) || namesSecret(v) || publishable(v) || namedDigest(v) {
		return false
	}
	pw, strongN := false, strongName(name)
	for _, p := range nameParts(name) {
		l := strings.ToLower(p)
		if l == "pw" {
			pw = true
		}
		for i, s := range pwStems {
			if strings.HasPrefix(l, s) && !passWords.Get()[l] && !strings.HasPrefix(l, "passage") && !strings.HasPrefix(l, "passen") && !strings.HasPrefix(l, "passi") {
				pw = true
			}
			// A compound ending in another language's word for a password
			// (Initialkennwort, rootwachtwoord, adminlösenord).
			if i >= 5 && len(s) >= 6 && strings.HasSuffix(l, s) {
				pw = true
			}
		}
		// A compound written as one word ending in a password's own
		// short name (bindpw, rootpw, dbpwd, adminpasswd).
		for _, s := range []string{"pw", "pwd", "passwd", "password", "passphrase"} {
			if strings.HasSuffix(l, s) && len(l) > len(s) {
				pw = true
			}
		}
	}
	if !pw && !strongN && !secretName(name) && !cryptoKeyName(name) {
		return false
	}
	// A key into a store (a cache's user:54837:profile) under a name
	// that merely ends in key is where the value lives, not a secret.
	if !pw && keyPath(v) {
		return false
	}
	if strings.ContainsAny(v, " \t") {
		// Words between spaces: a passphrase, or a scheme and a token
		// ("FlyV1 fm2_…").
		if quoted && passphrase(`"`+v+`"`) {
			return true
		}
		for _, f := range strings.Fields(v) {
			if len(f) >= 20 && generated(f) {
				return true
			}
		}
		return false
	}
	switch {
	case pw:
		return madePhrase(v) || wordNumber(v) || wordsNumber(v) || symbolMixed(v) || scrambled(v) || wordsAndNumber(v) || escapedMix(v)
	case strongN:
		return made(v) && len(v) >= 8 || passphrase(v) || wordsNumber(v) || symbolMixed(v) || scrambled(v)
	}
	// A key named for what it encrypts or signs may be typed, not
	// generated: letters and symbols without a digit count (round 28).
	return generated(v) || base32Key(v) || strong(v) && symbolMixed(v) || cryptoKeyName(name) && (hexOnly(v) && len(v) >= 16 || tokenLike(v) || len(v) >= 12 && symbolMixed(v))
}

// publicKeyID reports the id of an OpenPGP key given under a name that
// picks a key to sign or encrypt with (git's user.signingkey, gpg's
// default-key, a GPG_KEY_ID, a pgp fingerprint): 8, 16 or 40 hex digits
// as gpg prints them, in capitals (optionally 0x before and '!' after,
// quoted or not); under git's own name signingkey also in small letters,
// or the public key git signs with (key::ssh-…, ssh-ed25519 …). An id
// names a public key; a symmetric signing key (a JWT's signingKey) is
// longer or not hex.
func publicKeyID(name, v string) bool {
	v = strings.Trim(strings.TrimRight(strings.TrimSpace(v), ",;"), `"'`)
	l := strings.ToLower(name)
	if i := strings.LastIndexAny(l, ".:"); i >= 0 {
		l = l[i+1:]
	}
	h := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(v, "0x"), "0X"), "!")
	idShape := (len(h) == 8 || len(h) == 16 || len(h) == 40) && hexOnly(h) && strings.Trim(h, digits) != ""
	// git's key is written in small letters (signingkey, user.signingkey)
	// or under its section; code's variable is a hump (C#'s var signingKey
	// = "<40 hex>" is a symmetric key).
	n := name
	if i := strings.LastIndexAny(n, ".:"); i >= 0 {
		n = n[i+1:]
	}
	if l == "signingkey" && (n == "signingkey" || strings.Contains(strings.ToLower(name), "user.")) && (idShape || strings.HasPrefix(v, "key::") || strings.HasPrefix(v, "ssh-")) {
		return true
	}
	if !anyOf(l, "sign", "gpg", "pgp", "keyid", "key_id", "key-id", "fingerprint", "default-key", "default_key", "defaultkey") {
		return false
	}
	return idShape && h == strings.ToUpper(h)
}

// cryptoKeyName reports a key's name that says what it protects or signs
// (ENCRYPTION_KEY, signingKey, MASTER_KEY, hmac_key, APP_KEY): a key of
// that kind is secret whatever its length, sixteen hex digits or more.
func cryptoKeyName(name string) bool {
	parts := nameParts(name)
	// A name written in one case with nothing between its words
	// (HMACKEY, encryptionkey) ends in "key" as well as one split does.
	if l := strings.ToLower(name); len(parts) == 1 && len(l) > 3 && strings.HasSuffix(l, "key") {
		parts = []string{l[:len(l)-3], "key"}
	}
	if len(parts) < 2 || !strings.EqualFold(parts[len(parts)-1], "key") {
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		switch strings.ToLower(p) {
		case "encryption", "encrypt", "crypt", "crypto", "cipher", "aes", "signing", "sign", "hmac", "mac", "master", "jwt", "session", "cookie", "app", "webhook", "wrapping", "kek", "dek", "data", "secret", "private", "shared", "symmetric":
			return true
		}
	}
	return false
}

// regexLike reports a pattern a password is checked against
// ("^[A-Za-z0-9!@#]{12,}$"), not a password.
func regexLike(v string) bool {
	return strings.HasPrefix(v, "^") && strings.HasSuffix(v, "$") || strings.Contains(v, "{8,") || strings.Contains(v, "{12,") || strings.Contains(v, `\d`) || strings.Contains(v, "[A-Z")
}

// scrambled reports letters whose case changes as a generator's does, not
// as words or an identifier's humps do ("qAiozBmzCuljWqKLkwYV"): twelve or
// more, with the case switching between neighbouring letters at least
// every other letter, and two capitals together somewhere inside or the
// case switching at two letters in three.
func scrambled(v string) bool {
	var letters, switches int
	pair := false
	var prev rune
	for i, r := range v {
		if !unicode.IsLetter(r) {
			prev = 0
			continue
		}
		letters++
		if prev != 0 {
			if unicode.IsUpper(r) != unicode.IsUpper(prev) {
				switches++
			} else if unicode.IsUpper(r) && i > 1 {
				pair = true
			}
		}
		prev = r
	}
	return letters >= 12 && (pair || 3*switches >= 2*letters) && 2*switches >= letters && entropy(v) >= 3.5
}

// tokenLike reports one token a generator made, in any alphabet: random,
// a hex key, or sixteen or more letters and digits (with '_', '-', '.',
// '+', '/', '=') holding both, with a high entropy (Pushover's
// lower-case tokens, a JWT).
func tokenLike(v string) bool {
	if generated(v) {
		return true
	}
	var dig, let int
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			dig++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			let++
		case strings.ContainsRune("_-.+/=:~", r):
		default:
			return false
		}
	}
	return len(v) >= 16 && dig >= 2 && let >= 8 && entropy(v) >= 3.8
}

// wordsAndNumber reports words and a number joined by '-', '_' or '.' in
// any order ("marble-6153saturn", "copper_8929pepper"): a password a
// person made, where its name says it is one.
func wordsAndNumber(v string) bool {
	var letters, digitRuns int
	inDigits := false
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letters++
			inDigits = false
		case r >= '0' && r <= '9':
			if !inDigits {
				digitRuns++
			}
			inDigits = true
		case r == '-' || r == '_' || r == '.':
			inDigits = false
		default:
			return false
		}
	}
	return letters >= 6 && digitRuns >= 1 && strings.ContainsAny(v, digits) && strings.ContainsAny(v, "-_.") && len(v) >= 10
}

// escapedMix reports capitals and small letters with a symbol or an
// escape among them ("a\\:bvBCb_KcafkMczyOcA"), ten bytes or more, of a
// high entropy.
func escapedMix(v string) bool {
	return len(v) >= 10 && strings.ContainsAny(v, upper) && strings.ContainsAny(v, lower) && strings.ContainsAny(v, "\\:_~!@#$%^&*+=?[]{}|;,<>") && entropy(v) >= 3.5
}

// namesSecret reports a value that is a secret's name: words joined,
// the last of them a secret's word ("billing-api-token", "db-password").
func namesSecret(v string) bool {
	parts := nameParts(v)
	return len(parts) >= 2 && nameWords.Get()[strings.ToLower(parts[len(parts)-1])] && strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) < 0
}

// uuidShape reports a UUID (8-4-4-4-12 hex digits).
func uuidShape(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i, c := range v {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// methodParam reports a method's parameter given by position (role=dev,
// username=ops): a short name of small letters, '=' and a value.
func methodParam(v string) bool {
	k, val, ok := strings.Cut(v, "=")
	return ok && val != "" && !strings.HasSuffix(val, "=") && len(k) >= 2 && len(k) <= 20 && strings.Trim(k, "abcdefghijklmnopqrstuvwxyz_") == ""
}

// badFixture reports a seed phrase's name that says it is a test's wrong
// input (BAD_MNEMONIC, invalid_seed, negative fixture): words a wallet
// must reject are no wallet's.
func badFixture(name string) bool {
	for _, p := range nameParts(strings.Fields(strings.ToLower(name) + " x")[0]) {
		switch p {
		case "bad", "invalid", "wrong", "broken", "negative", "malformed", "corrupt":
			return true
		}
	}
	return false
}

// pairAfter reports whether the rest of a name leads from lower[j:] to a
// quote and a comma (a key string given its value as the next argument).
func pairAfter(lower string, j int) bool {
	k := j
	for k < len(lower) && k < j+48 && (isAlnum(lower[k]) || lower[k] == '_' || lower[k] == '-' || lower[k] == '.' || lower[k] >= 0x80) {
		k++
	}
	if k < len(lower) && (lower[k] == '"' || lower[k] == '\'') {
		rest := strings.TrimLeft(lower[k+1:], " \t")
		return strings.HasPrefix(rest, ",")
	}
	// setx NAME VALUE: the hint is in the name after setx.
	return k < len(lower) && (lower[k] == ' ' || lower[k] == '\t') && strings.Contains(lower[max(0, j-64):j], "setx")
}

// lineEndsAfter reports whether the line of lower[j:] ends within 48
// bytes (a name, a colon or "set to", then the value below).
func lineEndsAfter(lower string, j int) bool {
	end := strings.IndexByte(lower[j:min(len(lower), j+48)], '\n')
	return end >= 0
}

// namedGate reports whether a hint at lower[:j] opens the named-value
// rule's window: its name is given a value (assignAfter) that the older
// key rules do not read whole: one holding a byte outside letters and
// digits, words between quotes, any value where the name is in another
// language or script, or a name that is the word alone (PASS=, pw =). A
// plain value of letters and digits under an English name is theirs.
func namedGate(lower string, j int) bool {
	if !assignAfter(lower, j) {
		return false
	}
	nameByte := func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80 }
	a, k := j, j
	for a > 0 && j-a < 64 && nameByte(lower[a-1]) {
		a--
	}
	for k < len(lower) && k < j+32 && nameByte(lower[k]) {
		k++
	}
	name := lower[a:k]
	if name == "pass" || name == "pw" || name == "pwd" || cryptoKeyName(name) {
		return true
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return true
		}
	}
	for _, st := range pwStems[5:] {
		if strings.Contains(name, st) {
			return true // a password's word in another language
		}
	}
	for k < len(lower) && (lower[k] == ':' || lower[k] == '=' || lower[k] == '>' || lower[k] == '?' || lower[k] == ']' || lower[k] == ' ' || lower[k] == '\t' || lower[k] == '"' || lower[k] == '\'') {
		k++
	}
	for n := 0; k < len(lower) && n < 200; k, n = k+1, n+1 {
		c := lower[k]
		if c == '\n' || c == '"' || c == '\'' || c == ' ' && n > 0 && lower[k-1] != ' ' && !strings.ContainsAny(lower[max(0, j-64):j], "\"'") {
			return false
		}
		if !isAlnum(c) {
			return true
		}
	}
	return false
}

// hostPort reports a host's name and its port (ldaps://auth-db.corp.internal:636/ou=…):
// a dotted name ending in a top-level domain, then digits up to a path or
// the end, is an address, however the host is named.
func hostPort(name, v string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || !topLevel.Get()[strings.ToLower(name[dot+1:])] {
		return false
	}
	n := 0
	for n < len(v) && n < 6 && v[n] >= '0' && v[n] <= '9' {
		n++
	}
	return n >= 1 && n <= 5 && (n == len(v) || v[n] == '/')
}
