package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// carryRules find secrets by the syntax that carries them where a key word
// and an operator do not stand side by side: a declaration whose type
// stands between the name and its literal (TypeScript's `PASS: string =`,
// Visual Basic's `Dim pwd As String =`, T-SQL's `DECLARE @pwd NVARCHAR(50)
// =`), a brace or tuple that pairs a name with its literal (C++'s
// `password{"…"}`, Erlang's `{password, "…"}`), a YAML block scalar, a
// directive that sets a variable by name and value (Apache's SetEnv, a
// Dockerfile's ENV, csh's setenv), Go's MySQL DSN (user:password@tcp(…)),
// a redis-cli session's AUTH, commands that take a password by position or
// by a flag of their own (isql, ldappasswd, ssh-keygen, oathtool, a
// client's -auth USER:SECRET), a value written into a file named for a
// secret, a secret file printed, the standard shapes of a Wi-Fi QR code, a
// BitLocker recovery password and an authenticator's export, and a seed
// phrase numbered one word a line or named in Chinese, Japanese or Korean.
func carryRules() []rule {
	return []rule{
		{
			// A declaration whose type stands between a secret's name and
			// its literal (only a hint that a name, spaces and a type lead
			// to ':' or '=' opens a window).
			name:     "secret-value",
			window:   true,
			assigned: true,
			hints:    []string{"pass", "pwd", "secret", "token", "key", "cred"},
			span:     keySpan,
			// A modifier may stand before the name (private readonly, pub
			// const, static let) and a slice or reference before the type
			// (Zig's []const u8, Rust's &str, &'static str, &[u8] and its
			// byte string b"…"). A name that ends in "key" holds a secret
			// where it says what kind (HMAC_KEY, SIGNING_KEY: cryptoKeyName).
			re: lazy.RE(`(?i)((?:\bdim[ \t]+|\bconst[ \t]+|\blet[ \t]+|\bvar[ \t]+|\bval[ \t]+|\b(?:readonly|private|public|protected|static|pub|export|internal)[ \t]+|^[ \t]*|[(,][ \t]*)([a-z0-9_]*(?:pass|pwd|secret|token|api_?key|cred|key)[a-z0-9_]*)` +
				`(?:[ \t]*:[ \t]*(?:\[\][ \t]*(?:const[ \t]+)?|&(?:'static[ \t]+)?(?:mut[ \t]+)?)?(?:[a-z_][\w.]*(?:<[\w, ]*>)?|\[u8(?:[ \t]*;[ \t]*\d+)?\])\??|[ \t]+as[ \t]+[a-z_][\w.]*)` +
				`[ \t]*=[ \t]*(?:[NE@]|&?b)?)("[^"\n]{4,200}"|'[^'\n]{4,200}')`),
			repl: func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				v := m[3][1 : len(m[3])-1]
				if !anyOf(strings.ToLower(m[2]), "pass", "pwd", "secret", "token", "apikey", "api_key", "cred") && !cryptoKeyName(m[2]) {
					return true
				}
				// Mattermost's tokens are 26 small letters and digits.
				return refName(m[2]) || notAValue(v) || redacted(v) || !madePhrase(v) && !random(v) && !(strongName(m[2]) && tokenLike(v))
			},
		},
		{
			// A key string and its value as consecutive arguments
			// (props.setProperty("mail.smtp.password", "…"), config.set(
			// 'auth.secret', '…'), map.put("apiKey", "…")): the call pairs
			// them as a config line does.
			name:   "secret-value",
			window: true,
			hints:  []string{"pass", "pwd", "secret", "token", "apikey", "api_key", "api-key"},
			span:   keySpan,
			pre: func(lower string) bool {
				return strings.Contains(lower, "\", ") || strings.Contains(lower, "', ") || strings.Contains(lower, "\",\"") || strings.Contains(lower, "','")
			},
			re:   lazy.RE(`(?i)([(,][ \t]*(?:"[\w.:-]*(?:password|passwd|pwd|secret|token|api[_-]?key)"|'[\w.:-]*(?:password|passwd|pwd|secret|token|api[_-]?key)')[ \t]*,[ \t]*)("[^"\n]{4,200}"|'[^'\n]{4,200}')`),
			repl: func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := m[2][1 : len(m[2])-1]
				return notAValue(v) || redacted(v) || !madePhrase(v) && !random(v)
			},
		},
		{
			// T-SQL's DECLARE @pwd NVARCHAR(50) = N'…'.
			name:  "secret-value",
			hints: []string{"declare"},
			re: lazy.RE(`(?i)(\bdeclare[ \t]+@([a-z0-9_]*(?:pass|pwd|secret|token|api_?key|cred)[a-z0-9_]*)[ \t]+[a-z]+(?:\([ \t]*(?:\d+|max)[ \t]*\))?` +
				`[ \t]*=[ \t]*N?)('[^'\n]{4,200}')`),
			repl: func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				v := m[3][1 : len(m[3])-1]
				return refName(m[2]) || notAValue(v) || redacted(v) || !madePhrase(v) && !random(v)
			},
		},
		{
			// A brace or a tuple pairing a secret's name with its literal:
			// std::string password{"…"}, {password, "…"} (Erlang),
			// {:password, "…"} (Elixir).
			name:   "secret-value",
			window: true,
			hints:  []string{"password{", "pwd{", "secret{", "token{", "{password", "{:password", "{pwd", "{secret"},
			span:   keySpan,
			back:   80,
			re: lazy.RE(`(?i)(\b[a-z0-9_]*(?:password|passwd|pwd|secret|token)[a-z0-9_]*\{[ \t]*|\{[ \t]*:?[a-z_]*(?:password|passwd|pwd|secret|token)[a-z_]*[ \t]*,[ \t]*(?:<<)?)` +
				`("[^"\n]{4,200}"|'[^'\n]{4,200}')`),
			repl: func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := m[2][1 : len(m[2])-1]
				return notAValue(v) || redacted(v) || !madePhrase(v) && !random(v)
			},
		},
		{
			// A YAML block scalar under a secret's key: "password: |" and
			// the value on the next, indented line (round 26: "bearer: >-",
			// a credential's, an access or private key's).
			name:  "secret-value",
			hints: []string{": |", ": >"},
			re:    lazy.RE(`(?im)^([ \t]*[a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api_?key|bearer|credentials?|access_?key|private_?key|signing_?key|encryption_?key)[a-z0-9_.-]*[ \t]*:[ \t]*[|>][-+]?[ \t]*\r?\n[ \t]+)([^\s#][^\n]*?)[ \t]*$`),
			repl:  func(m []string) string { return m[1] + Mask },
			// Round 28: a signing or encryption key's, and letters mixed
			// with symbols.
			keep: func(m []string) bool {
				v := m[2]
				return strings.Contains(v, "-----") || notAValue(v) || redacted(v) || !madePhrase(v) && !random(v) && !(len(v) >= 12 && symbolMixed(v))
			},
		},
		{
			// A directive that sets a variable by name, then its value:
			// Apache's SetEnv DB_PASS "…", a Dockerfile's ENV API_TOKEN …,
			// csh's setenv SECRET …, fish's set -x TOKEN ….
			name:  "secret-value",
			hints: []string{"setenv", "env ", "set -"},
			pre:   func(lower string) bool { return anyOf(lower, "pass", "pwd", "secret", "token", "key", "psk") },
			re:    lazy.RE(`(?im)^([ \t]*(?:SetEnv|ENV|setenv|set[ \t]+-[gx]+)[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'=][^\s]*)[ \t]*$`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[3], `"'`)
				return !strongName(m[2]) && !keyLast(m[2]) || refName(m[2]) || notAValue(v) || redacted(v) || !madePhrase(v) && !random(v)
			},
		},
		{
			// Go's MySQL driver DSN: user:password@tcp(host:port)/db.
			name:  "credential-url",
			hints: []string{"@tcp(", "@unix(", "@udp("},
			re:    lazy.RE(`(\b[A-Za-z0-9_.-]+:)([^\s:@/"'` + "`" + `]+)(@(?:tcp|unix|udp)\()`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// AUTH in a redis-cli session (host:port> AUTH [user] password)
			// or sent by redis-cli.
			name:  "password-flag",
			hints: []string{"auth "},
			pre:   func(lower string) bool { return anyOf(lower, "> auth ", "redis", "valkey") },
			re:    lazy.RE(`(?im)((?:>|\bredis-cli\b[^\n]*?)[ \t]*\bAUTH[ \t]+(?:[A-Za-z0-9_.-]+[ \t]+)?)("[^"\n]+"|'[^'\n]+'|\S+)[ \t]*$`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"'`)
				// A word closing a sentence ("… the REDISCLI_AUTH
				// environment variable.") is the prose's, not a password.
				return notAValue(v) || redacted(v) || sentenceWord(v)
			},
		},
		{
			// unixODBC's isql DSN USER PASSWORD.
			name:  "password-flag",
			hints: []string{"isql "},
			re:    lazy.RE(`(\bisql(?:[ \t]+-[a-z0-9]+)*[ \t]+[^\s-]\S*[ \t]+[^\s-]\S*[ \t]+)("[^"\n]+"|'[^'\n]+'|[^\s-]\S*)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"'`)
				return notAValue(v) || redacted(v)
			},
		},
		// ldappasswd's -s (the new password) and -a (the old one);
		// ssh-keygen's -N (the new passphrase) and -P (the old one).
		flagRule(`ldappasswd`, `-s|-a`),
		flagRule(`ssh-keygen`, `-N|-P`),
		// Airflow's users create -p/--password.
		flagRule(`airflow[ \t]+users[ \t]+create`, `-p|--password`),
		{
			// A client's -auth USER:SECRET (jenkins-cli, and kin).
			name:   "basic-auth-flag",
			hints:  []string{"-auth"},
			window: true,
			span:   160,
			back:   2,
			re:     lazy.RE(`((?:^|\s)--?auth[ \t=]+["']?[^\s:'"@]+:)([^\s'"]+)`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep:   func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) || !madePhrase(m[2]) && !chosen(m[2]) },
		},
		{
			// oathtool's key, given by position: a base32 or hex seed.
			name:  "totp-seed",
			hints: []string{"oathtool"},
			re:    lazy.RE(`(\boathtool\b[^\n|;&]*?[ \t])("?)([A-Z2-7]{16,}=*|[0-9a-fA-F]{20,})\b`),
			repl:  func(m []string) string { return m[1] + m[2] + Mask },
		},
		{
			// An authenticator's export (otpauth-migration://…?data=…):
			// every seed it holds, encoded.
			name:  "totp-seed",
			hints: []string{"otpauth-migration:"},
			re:    lazy.RE(`(\botpauth-migration://[^\s?]*\?(?:[^\s#]*&)?data=)([^\s&#"']+)`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		{
			// A Wi-Fi QR code's string: WIFI:T:WPA;S:ssid;P:password;;
			name:  "secret-value",
			hints: []string{"wifi:"},
			re:    lazy.RE(`(?i)(\bWIFI:(?:[^\n]*?;)?P:)((?:\\.|[^;\\\n])+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// A BitLocker recovery password: eight groups of six digits.
			name:  "secret-value",
			hints: []string{"bitlocker", "recovery"},
			re:    lazy.RE(`\b\d{6}(?:-\d{6}){7}\b`),
		},
		{
			// A value written into a file named for a secret: echo X >
			// config/master.key, printf X > ~/.vault_pass.
			name:   "secret-value",
			hints:  []string{"echo ", "printf "},
			pre:    func(lower string) bool { return strings.Contains(lower, ">") },
			window: true,
			back:   1,
			span:   480,
			re:     lazy.RE(`(\b(?:echo|printf)[ \t]+(?:-n[ \t]+)?)("[^"\n]+"|'[^'\n]+'|[^\s"'|>]+)([ \t]*>>?[ \t]*\S*(?i:\.key|master\.key|secret|token|pass|credentials?|\.pem)\S*)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[2]) + m[3] },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"'`)
				return notAValue(v) || redacted(v) || !generated(v) && !hexKey(v) && !madePhrase(v)
			},
		},
		{
			// A secret file printed under its command: cat ~/.vault_pass,
			// then one line holding a generated value.
			name:  "secret-value",
			hints: []string{"cat ", "type ", "get-content "},
			pre: func(lower string) bool {
				return strings.Contains(lower, "\n") && anyOf(lower, "pass", "secret", "token", ".key", "credential")
			},
			window: true,
			back:   1,
			span:   480,
			re:     lazy.RE(`(\b(?:cat|type|Get-Content)[ \t]+\S*(?i:pass|secret|token|\.key\b|master\.key|credential)\S*[ \t]*\r?\n)([^\s]{16,})[ \t]*(?:\r?\n|$)`),
			repl:   func(m []string) string { return m[1] + Mask + "\n" },
			keep:   func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) || !generated(m[2]) && !hexKey(m[2]) },
		},
		{
			// A base64 blob decoded into a key store or key file: echo
			// "MII…" | base64 -d > cert.p12 (a PKCS#12 bundle holds the key).
			name:  "private-key",
			hints: []string{"base64"},
			pre: func(lower string) bool {
				return anyOf(lower, ".p12", ".pfx", ".key", ".jks", ".keystore", ".pem", ".p8")
			},
			re:   lazy.RE(`(\b(?:echo|printf)[ \t]+(?:-n[ \t]+)?["']?)([A-Za-z0-9+/]{64,}={0,2})(["']?[ \t]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b[^\n|]*>[ \t]*\S*\.(?:p12|pfx|key|jks|keystore|pem|p8)\b)`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
		},
		{
			// A seed phrase numbered one word a line (1. word, 2) word)
			// under its name.
			name:   "mnemonic",
			hints:  []string{"seed", "mnemonic", "recovery", "secret"},
			pre:    func(lower string) bool { return strings.Contains(lower, "\n1.") || strings.Contains(lower, "\n1)") },
			window: true,
			span:   600,
			re:     lazy.RE(`(?i)((?:mnemonic|seed|recovery|secret)[^\n]{0,60}\n)((?:[ \t]*\d{1,2}[.)][ \t]*[a-z]{3,8}[ \t]*(?:\n|$)){12,24})`),
			repl:   func(m []string) string { return m[1] + Mask + "\n" },
			keep:   func(m []string) bool { return strings.Count(strings.TrimSpace(m[2]), "\n")%3 != 2 },
		},
		{
			// A seed phrase named in Chinese, Japanese or Korean: twelve to
			// twenty-four words after the name, separated by spaces.
			name:  "mnemonic",
			hints: []string{"助记词", "助記詞", "復元フレーズ", "シードフレーズ", "ニーモニック", "니모닉", "시드 구문", "복구 구문", "시드구문", "복구구문"},
			re:    lazy.RE(`((?:助记词|助記詞|復元フレーズ|シードフレーズ|ニーモニック|니모닉|시드 ?구문|복구 ?구문)[^\n]{0,8}?[:：\s]\s*)((?:[^\s:：]{1,12}[ \t\x{3000}]+){11,23}[^\s:：]{1,12})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return len(strings.Fields(m[2]))%3 != 0 },
		},
	}
}

// proseCarryRules find a generated value handed to a secret's name in
// prose or in a listing: "set `SIGNING_KEY` to `…`", "signing secret ->
// …", "DEPLOY_KEY (masked) = …". Only a generated value counts.
func proseCarryRules() []rule {
	return []rule{
		{
			name:   "secret-value",
			window: true,
			hints:  []string{"set "},
			span:   160,
			re:     lazy.RE("(?i)(\\bset(?:ting)?[ \\t]+[\\x60\"']?([A-Za-z0-9_.-]*(?:key|token|secret|pass|pwd)[A-Za-z0-9_.-]*)[\\x60\"']?[ \\t]+to[ \\t]+[\\x60\"']?)([A-Za-z0-9_+/=.-]{16,})"),
			repl:   func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				return !secretName(m[2]) || refName(m[2]) || notAValue(m[3]) || !generated(m[3]) && !hexKey(m[3])
			},
		},
		{
			name:   "secret-value",
			window: true,
			hints:  []string{"->", "→", "⇒"},
			span:   keySpan,
			back:   16,
			// After a password's word a made value counts too ("admin pass
			// -> Hq8zLm2Vx!").
			re:   lazy.RE(`(?i)(\b(?:secret|token|key|api[ _-]?key|credentials?|(password|passphrase|passwd|pass|pwd|pw))\b[ \t]*(?:->|→|⇒)[ \t]*)([A-Za-z0-9_+/=.!@#$%^&*?~-]{8,})`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := m[3]
				return notAValue(v) || !generated(v) && !hexKey(v) && !(m[2] != "" && (strong(v) || chosen(v)))
			},
		},
		{
			name:   "secret-value",
			window: true,
			hints:  []string{") =", ")="},
			span:   keySpan,
			back:   80,
			re:     lazy.RE(`(\b([A-Za-z0-9_]*(?i:key|token|secret|pass|pwd)[A-Za-z0-9_]*)[ \t]*\([^()\n]{1,30}\)[ \t]*[:=][ \t]*)([A-Za-z0-9_+/=.-]{16,})`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				return !secretName(m[2]) || refName(m[2]) || notAValue(m[3]) || !generated(m[3]) && !hexKey(m[3])
			},
		},
	}
}

// keyLast reports a variable's name whose last part is KEY (OPENAI_KEY,
// STRIPE_KEY): set by a shell's directive (fish's set -gx, csh's setenv,
// a Dockerfile's ENV) as export sets it, the value is the key.
func keyLast(name string) bool {
	parts := nameParts(name)
	return len(parts) > 1 && strings.EqualFold(parts[len(parts)-1], "key")
}

// sentenceWord reports a word in lower case closed by a sentence's full
// stop, question or exclamation mark: the last word of prose.
func sentenceWord(v string) bool {
	w := strings.TrimRight(v, ".!?")
	return len(w) < len(v) && len(w) >= 2 && strings.ToLower(w) == w && word(w)
}
