package redact

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// nestedRules find a secret whose name and value stand apart in the text's
// own syntax, so no rule reading "name = value" sees them together:
//   - a command whose subcommand or flag says it stores or sets a password
//     or a token, the value given as an argument after it (x11vnc
//     -storepasswd V FILE, consul acl set-agent-token default V,
//     rabbitmqctl change_password USER V);
//   - a login written as two code spans joined by a slash on a line about
//     an account (`app` / `V`);
//   - an XML element named for a secret whose child <Value> holds it
//     (unattend.xml's <AdministratorPassword><Value>), or a .NET
//     setting named so whose <value> does;
//   - a key written after its type's prefix (Tor's ED25519-V3:…,
//     RSA1024:…);
//   - a seed, entropy or private key written in hex after a label naming it
//     ("BIP32 root seed (hex): …").
func nestedRules() []rule {
	return []rule{{
		name:   "password-flag",
		hints:  []string{"passwd", "password", "token", "secret"},
		window: true,
		span:   200,
		re:     lazy.RE(`(?i)((?:^|[\s;&|])-{0,2}(?:[a-z0-9]+[-_])*(?:set|store|change|add|update|reset)[-_]?(?:[a-z0-9]+[-_])*(?:passwd|password|token|secret)(?:[ \t]+[A-Za-z][\w.@\\-]{0,30}){0,2}?[ \t]+)([^\s'"-][^\s'"]{7,200})`),
		repl:   func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			v := m[2]
			return cliNotSecret(v) || pathLike(v) || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.Contains(v, "=") || strings.HasPrefix(v, "~") ||
				!strong(v) && !tokenLike(v) && !uuidShape(v) && !passphrase(v) && !chosen(v) && !mixedLetters(v)
		},
	}, {
		name:  "secret-value",
		hints: []string{"` / `", "`/`"},
		re:    lazy.RE("(?i)(\\b(?:db|database|login|user|admin|creds?|credentials|account|ssh|ftp|sftp|smtp|vpn|staging|prod|production|root|postgres|mysql|redis|mongo|rabbitmq|ldap)\\b[^\\n]{0,60}?\\x60[^\\x60\\s]{1,40}\\x60[ \\t]*/[ \\t]*\\x60)([^\\x60\\s]{6,100})(\\x60)"),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			v := m[2]
			return notAValue(v) || redacted(v) || pathLike(v) || !strong(v) && !(passphrase(v) && strings.ContainsAny(v, digits)) && !chosen(v) && !tokenLike(v)
		},
	}, {
		name:  "secret-value",
		hints: []string{"<value>"},
		re:    lazy.RE(`(?is)(<(?:[\w:-]*(?:password|passwd|secret|token|apikey|api_key|passphrase)\b[^>]*|setting\b[^>]*\bname="[^"]*(?:password|secret|token|apikey|api_key|connectionkey)[^"]*"[^>]*)>\s*(?:<!--.*?-->\s*)?<value>)([^<\s]{4,200})(</value>)`),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			v := strings.ToLower(m[2])
			return notAValue(m[2]) || redacted(m[2]) || v == "true" || v == "false" || strings.Contains(v, "sensitive") || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%")
		},
	}, {
		// A record whose name field names a secret and whose value field,
		// a few lines below, holds it: Terraform's aws_ssm_parameter (in a
		// plan, each line after "+ "), SSM's get-parameter output
		// ("Name": "/prod/db/password", … "Value": "…").
		name:   "secret-value",
		hints:  []string{"name"},
		pre:    func(lower string) bool { return strings.Contains(lower, "value") },
		window: true,
		span:   400,
		back:   8,
		re:     lazy.RE(`(?i)(\bname["']?[ \t]*[:=][ \t]*["'][^"'\n]*(?:password|passwd|secret|token|api[_-]?key|private[_-]?key)["'][ \t]*,?[ \t]*\r?\n(?:[^\n]*\n){0,3}?[ \t+~-]*["']?value["']?[ \t]*[:=][ \t]*["'])([^"'\n]{6,200})(["'])`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			v := m[2]
			return notAValue(v) || redacted(v) || strings.HasPrefix(v, "$") || strings.Contains(strings.ToLower(v), "sensitive")
		},
	}, {
		// GitHub Actions' debug log evaluating a secret's expression: the
		// Result line below gives its value (unmasked when the runner
		// did not know it as a secret).
		name:  "secret-value",
		hints: []string{"##[debug]evaluating"},
		re:    lazy.RE(`(?i)(##\[debug\]Evaluating:[ \t]*secrets\.[A-Za-z0-9_]+[ \t]*\r?\n(?:##\[debug\][^\n]*\r?\n){0,3}?##\[debug\]Result:[ \t]*')([^'\n]+)(')`),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) || strings.Trim(m[2], "*") == "" },
	}, {
		name:  "private-key",
		hints: []string{"ed25519-v3:", "rsa1024:"},
		re:    lazy.RE(`(?i)(\b(?:ED25519-V3|RSA1024):)([A-Za-z0-9+/]{40,}={0,2})`),
		repl:  func(m []string) string { return m[1] + Mask },
	}, {
		name:   "secret-value",
		hints:  []string{"seed", "entropy", "private key", "privkey", "master key", "root key"},
		window: true,
		span:   240,
		re:     lazy.RE(`(?i)(\b(?:seed|entropy|master[ _-]?key|root[ _-]?key|private[ _-]?key|priv[ _-]?key)\b[^\n:=]{0,60}[:=][ \t]*(?:0x)?)([0-9a-f]{32,256})\b`),
		repl:   func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			l := strings.ToLower(m[1])
			return !hexKey(m[2]) || len(m[2])%32 != 0 || anyOf(l, "commit", "sha", "hash", "digest", "checksum", "fingerprint", " id", "_id", "-id", "public", "pubkey")
		},
	}}
}

// mixedLetters reports eight or more letters whose capitals and small
// letters alternate as a generator's do (xdnyiKlW): no word is spelled so.
func mixedLetters(v string) bool {
	if len(v) < 8 || !strings.ContainsAny(v, upper) || !strings.ContainsAny(v, lower) {
		return false
	}
	for _, c := range []byte(v) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	// A capital after a small letter and a small one after it, past the
	// first letter, as camelCase has too; a run of three or more small
	// letters after the last capital is a word's end.
	inner := 0
	for i := 1; i < len(v)-1; i++ {
		if v[i] >= 'A' && v[i] <= 'Z' && v[i-1] >= 'a' && v[i-1] <= 'z' {
			inner++
		}
	}
	last := strings.LastIndexAny(v, upper)
	return inner >= 1 && len(v)-last-1 <= 2
}

// bracedRules: an ODBC or ADO connection string's password quoted in
// braces (PWD={V}, Password={a;b}), read before the rules that end a
// value at its ';'. A second brace or a '%' opens a template's action
// (consul-template's {{ with secret "…" }}, Jinja's {% … %}): a
// reference to where the password is kept, not the password.
func bracedRules() []rule {
	return []rule{{
		name:  "secret-value",
		hints: []string{"pwd={", "password={", "pwd = {", "password = {"},
		re:    lazy.RE(`(?i)(\b(?:pwd|password)[ \t]*=[ \t]*\{)([^}\n]{1,200})(\})`),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			return notAValue(m[2]) || redacted(m[2]) || reference(m[2]) || strings.HasPrefix(m[2], "$") || strings.HasPrefix(m[2], "{") || strings.HasPrefix(m[2], "%")
		},
	}}
}

// encodedRules: a secret carried encoded, found by decoding what the text
// says is encoded: a blob named or described as base64 (ENV_FILE_B64=…,
// "decoded with base64 -d") whose text holds a secret the rules find
// (a .env, a config), and a value in hex under a secret's name that
// decodes to a password's characters (db_pass_hex=674a…). A blob that
// decodes to bytes, or to text assigning no secret, stays.
func encodedRules() []rule {
	return []rule{{
		name:   "secret-value",
		hints:  []string{"b64", "base64"},
		window: true,
		span:   4096,
		back:   400,
		re:     lazy.RE(`([=:"'\s]|^)([A-Za-z0-9+/]{16,}={0,2})`),
		repl:   func(m []string) string { return m[1] + Mask },
		// A private key's PEM in a whole JSON object (a service
		// account's key file on one line) counts.
		keep: func(m []string) bool {
			d, ok := decodedText(m[2])
			return !ok || !assignsSecret(d) && !madePair(d) && !pemObject(d)
		},
	}, {
		// A secret's name given a base64 literal decoded in place
		// (DB_PASS=$(echo 'X' | base64 -d), base64 --decode <<< 'X',
		// [Convert]::FromBase64String('X'), atob("X"), b64decode("X"),
		// Buffer.from("X", "base64"), and wrapped in a call that makes
		// text of the bytes: [Text.Encoding]::Unicode.GetString(…)): the
		// literal is the secret, encoded.
		name:   "secret-value",
		hints:  []string{"base64", "b64decode", "atob", "frombase64"},
		window: true,
		span:   200,
		back:   160,
		re: lazy.RE(`(?i)(\b[\w.-]*(?:pass|pwd|pw|secret|token|key|cred|auth)[\w.-]*["']?\]?[ \t]*(?::=|[=:])[ \t]*(?:["']?\$\(|(?:\[[\w.]+\]::[\w.]+\([ \t]*)?\[[\w.]+\]::)?[ \t]*` +
			`(?:echo[ \t]+(?:-n[ \t]+)?|printf[ \t]+|base64[ \t]+(?:-d|--decode|-D)[ \t]*<<<[ \t]*|(?:[\w.]*b64decode|atob|frombase64string|buffer\.from|base64\.[\w.]*decode[\w]*)\([ \t]*[bu]?)["']?)` +
			`([A-Za-z0-9+/_-]{8,}={0,2})(["']?)`),
		repl: func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			d, ok := decodedText(strings.NewReplacer("-", "+", "_", "/").Replace(m[2]))
			return !ok || len(d) < 6 || refName(m[1]) || notAValue(d) || !(made(d) || strong(d) || symbolMixed(d) || wordNumber(d) || tokenLike(d) || basicPair(d))
		},
	}, {
		// A literal echoed into a base64 decoder, named or not, whose
		// text is one token of a password's shape (echo bWFuZ2…= |
		// base64 -d gives mango95#v3q2c6W): the literal is a password,
		// encoded. Decoded prose ("hello world") or a word stays.
		name:   "secret-value",
		hints:  []string{"base64"},
		window: true,
		span:   200,
		back:   160,
		re:     lazy.RE(`(\becho[ \t]+(?:-n[ \t]+)?["']?)([A-Za-z0-9+/]{8,}={0,2})(["']?[ \t]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b)`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			d, ok := decodedText(m[2])
			// A login and its password (user:password) counts too.
			if ok && loginPair(d) {
				return false
			}
			return !ok || len(d) < 6 || strings.ContainsAny(d, " \t\n{}[]\":/") || notAValue(d) || !(made(d) || strong(d) || symbolMixed(d) || wordNumber(d) || scrambled(d))
		},
	}, {
		// The line a command prints after it decodes a Kubernetes
		// Secret's field (kubectl get secret … -o jsonpath='{.data.x}' |
		// base64 -d): the output is the secret itself.
		name:  "secret-value",
		hints: []string{"get secret"},
		re:    lazy.RE(`(?i)(\b(?:kubectl|oc)[ \t]+get[ \t]+secrets?\b[^\n]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b[^\n]*\r?\n)([^\s]{4,200})[ \t]*(\r?\n|$)`),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep:  func(m []string) bool { return redacted(m[2]) || notAValue(m[2]) || strings.HasPrefix(m[2], "$") },
	}, {
		// PowerShell's -EncodedCommand (-enc, -ec, -e): base64 of the
		// script's UTF-16LE text, the secret when the script holds one (a
		// secret's name assigned a value, or a made literal handed to a
		// login: net use … /user:, -Credential, ConvertTo-SecureString).
		name:   "secret-value",
		hints:  []string{"-enc", "-ec ", "powershell", "pwsh"},
		window: true,
		span:   8192,
		back:   8,
		re:     lazy.RE(`(?i)(\s-(?:e|ec|enc|encodedcommand)[ \t]+["']?)([A-Za-z0-9+/]{20,}={0,2})`),
		repl:   func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			d, ok := decodedText(m[2])
			return !ok || !assignsSecret(d) && !loginScript(d)
		},
	}, {
		// A Basic header's credentials joined to the scheme in code
		// ('Basic ' + 'X', "Basic %s" % "X", String.format("Basic %s",
		// "X")): base64 of user:password.
		name:   "secret-value",
		hints:  []string{"basic"},
		window: true,
		span:   200,
		back:   8,
		re:     lazy.RE(`(?i)(\bbasic\b[ \t]*(?:%s|\{\}|\{0\})?["'\x60][ \t]*(?:\+|%|,|\.\.|\.)[ \t]*(?:\(?[ \t]*)?["'\x60])([A-Za-z0-9+/]{8,}={0,2})(["'\x60])`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			d, ok := decodedText(m[2])
			return !ok || !basicPair(d)
		},
	}, {
		// Round 26: the same object wrapped as base64 tools wrap it, 64
		// or 76 columns a line (base64, openssl base64, MIME): the lines
		// are read joined.
		name:  "secret-value",
		hints: []string{"eyj"},
		re:    lazy.RE(`([=:"'\s]|^)(eyJ[A-Za-z0-9+/]{61}(?:[A-Za-z0-9+/]{12})?(?:\r?\n[A-Za-z0-9+/]{64}(?:[A-Za-z0-9+/]{12})?)*\r?\n[A-Za-z0-9+/]{4,76}={0,2})([^A-Za-z0-9+/=._-]|$)`),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			// A private key's PEM in the object is a secret too (a
			// service account's "private_key").
			d, ok := decodedText(strings.NewReplacer("\r", "", "\n", "").Replace(m[2]))
			return !ok || !jsonSecret(d) && !strings.Contains(d, "PRIVATE KEY-----")
		},
	}, {
		// A JSON object carried in base64 (it opens "eyJ", '{"'), not a
		// JWT's part: Docker's config.json as a .dockerconfigjson, a
		// credentials file inlined. It is the secret when it holds a
		// registry's login ("auth": base64 of user:password) or a
		// password's, token's or secret's field with a made value.
		name:   "secret-value",
		hints:  []string{"eyj"},
		window: true,
		span:   4096,
		back:   8,
		re:     lazy.RE(`([=:"'\s]|^)(eyJ[A-Za-z0-9+/]{20,}={0,2})([^A-Za-z0-9+/=._-]|$)`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			d, ok := decodedText(m[2])
			return !ok || !jsonSecret(d)
		},
	}, {
		// A gzip stream in base64 (it opens "H4sI") under a name that says
		// it carries an environment or secrets (ENV_BUNDLE_GZ_B64=…): a
		// compressed .env is the .env.
		name:  "secret-value",
		hints: []string{"h4si"},
		re:    lazy.RE(`(\b[\w.-]*(?i:env|secret|cred|vault)[\w.-]*["']?[ \t]*[=:][ \t]*["']?)(H4sI[A-Za-z0-9+/]{36,}={0,2})`),
		repl:  func(m []string) string { return m[1] + Mask },
	}, {
		name:  "secret-value",
		hints: []string{"hex"},
		re:    lazy.RE(`(?i)(\b[\w.-]*(?:pass|pwd|secret|token)[\w.-]*[ \t]*[=:][ \t]*["']?)([0-9a-f]{16,128})\b`),
		repl:  func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			b, err := hex.DecodeString(m[2])
			if err != nil || len(b) < 8 || !utf8.Valid(b) {
				return true
			}
			for _, c := range b {
				if c < 0x21 || c > 0x7e {
					return true
				}
			}
			return false
		},
	}}
}

// decodedText decodes base64 (standard or URL alphabet, padded or not) to
// text: valid UTF-8, printable but for line ends and tabs.
func decodedText(v string) (string, bool) {
	var b []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		if b, err = enc.DecodeString(v); err == nil {
			break
		}
	}
	if err != nil {
		return "", false
	}
	// Windows encodes text as UTF-16LE (PowerShell's
	// [Text.Encoding]::Unicode, -EncodedCommand): ASCII then a zero byte.
	if len(b) >= 4 && len(b)%2 == 0 {
		narrow := make([]byte, 0, len(b)/2)
		for i := 0; i < len(b); i += 2 {
			if b[i+1] != 0 || b[i] == 0 {
				narrow = nil
				break
			}
			narrow = append(narrow, b[i])
		}
		if narrow != nil {
			b = narrow
		}
	}
	if !utf8.Valid(b) {
		return "", false
	}
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' {
			return "", false
		}
	}
	return string(b), true
}

// loginScript reports a script that hands a quoted, made literal to a
// login (net use … /user:, -Credential, ConvertTo-SecureString, cmdkey):
// the literal is the password, whatever the variable holding it is named.
func loginScript(d string) bool {
	if !anyOf(strings.ToLower(d), "/user:", "-credential", "convertto-securestring", "cmdkey", "net use", "-password") {
		return false
	}
	for _, q := range []string{"'", `"`} {
		parts := strings.Split(d, q)
		for i := 1; i < len(parts)-1; i += 2 {
			if v := parts[i]; len(v) >= 6 && !strings.ContainsAny(v, " \t\\$") && (made(v) || strong(v)) && !notAValue(v) {
				return true
			}
		}
	}
	return false
}

// basicPair reports decoded text that is a Basic header's user:password,
// the password not a placeholder.
func basicPair(d string) bool {
	u, pw, ok := strings.Cut(d, ":")
	return ok && u != "" && len(pw) >= 4 && !strings.ContainsAny(d, " \t\n") && !notAValue(pw) && !secretWordValue.Get()[strings.ToLower(pw)]
}

// loginPair reports decoded text that is a login's name, a colon and a
// password that looks made, chosen as a passphrase or generated
// (lea.ng:bPoKiXLAzBUvrCml, ops:glacier-quartz-tundra-69).
func loginPair(d string) bool {
	u, pw, _ := strings.Cut(d, ":")
	return basicPair(d) && u != "" && strings.Trim(u, lower+upper+digits+"._@-") == "" && !strings.HasPrefix(pw, "/") &&
		(strong(pw) || passphrase(pw) || mixedCase(pw) || letterWords(pw) >= 3)
}

// letterWords counts the parts of v, split at '-', '.' and '_', that are
// words of three letters or more (glacier-quartz-tundra-69 has three; an
// image's tag, 1.25-alpine, one).
func letterWords(v string) int {
	n := 0
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '.' || r == '_' }) {
		if len(p) >= 3 && strings.Trim(p, lower+upper) == "" {
			n++
		}
	}
	return n
}

// pemObject reports decoded text that is a whole JSON object holding a
// private key's PEM (a service account's key file on one line); a line
// of a wrapped blob decodes to a part of one, which the wrapped rule
// reads joined.
func pemObject(d string) bool {
	d = strings.TrimSpace(d)
	return strings.HasPrefix(d, "{") && strings.HasSuffix(d, "}") && strings.Contains(d, "PRIVATE KEY-----")
}

// madePair reports decoded text that is a login, user:password, whose
// password looks made (echo ZGVwbG95Oi… | base64 -d gives
// deploy:KUaryxz.4293eec): the pair Basic authentication encodes. A
// URL's scheme is no user (https://…), and an image's name:tag
// (nginx:1.25-alpine) mixes no cases.
func madePair(d string) bool {
	u, pw, _ := strings.Cut(d, ":")
	return basicPair(d) && !strings.HasPrefix(pw, "/") && strings.Trim(u, lower+upper+digits+"._@-") == "" && strong(pw)
}

// jsonSecret reports decoded JSON holding a registry's login ("auth":
// base64 of user:password, Docker's config.json) or a field named for a
// password, a token or a secret whose value looks made.
func jsonSecret(d string) bool {
	if !strings.HasPrefix(d, "{") {
		return false
	}
	for _, m := range jsonFieldRE.Get().FindAllStringSubmatch(d, -1) {
		k, v := strings.ToLower(m[1]), m[2]
		if k == "auth" {
			if p, ok := decodedText(v); ok && basicPair(p) {
				return true
			}
			continue
		}
		if !notAValue(v) && (strong(v) || tokenLike(v) || chosen(v)) {
			return true
		}
	}
	return false
}

var jsonFieldRE = lazy.RE(`"(?i)(auth|password|passwd|identitytoken|token|secret|api_?key|client_secret)"\s*:\s*"([^"\n]{4,})"`)

// assignsSecret reports decoded text with a line NAME=VALUE or NAME:
// VALUE whose name names a secret and whose value looks made (a .env, a
// config), as the name=value rules read one.
func assignsSecret(d string) bool {
	for _, line := range strings.Split(d, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export "))
		k := strings.IndexAny(line, "=:")
		if k < 1 {
			continue
		}
		name, v := strings.TrimSpace(line[:k]), strings.Trim(strings.TrimSpace(line[k+1:]), `"'`)
		if (strongName(name) || keyLast(name)) && !refName(name) && !notAValue(v) && (strong(v) || tokenLike(v) || chosen(v)) {
			return true
		}
	}
	return false
}
