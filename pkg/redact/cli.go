package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// cliRules find a secret a command sets by its own syntax rather than by a
// password flag: a secret-setting subcommand of any tool (gh secret set
// NAME --body V, pulumi config set --secret NAME V, doppler secrets set
// NAME V, dotnet user-secrets set KEY V, az keyvault secret set --value V,
// aws secretsmanager put-secret-value --secret-string V), and an
// encrypted database's key given by PRAGMA (SQLCipher's PRAGMA key = 'V').
func cliRules() []rule {
	return []rule{
		{
			// A key given as a literal to a signing or MAC call: the JWT
			// libraries' encode, sign, decode and verify, HMAC's
			// constructors in Python, Node, Java, Go, PHP and Ruby. The
			// first quoted argument that is no algorithm's name is the key
			// (after a payload's object literal: jwt.sign({ sub }, '…'));
			// a stand-in ("secret", "your-256-bit-secret") is no value, nor a
			// literal inside an argument (a payload's claim).
			name:  "secret-value",
			hints: []string{"jwt", "jws", "hmac", "signedstring", "signwith"},
			re: lazy.RE(`(?i)(\b(?:jwt|jws|jose)(?:\.|::)(?:encode|decode|sign|verify)|\bhmac\.(?:new|digest)|createHmac|hmacShaKeyFor|\bHmacSHA\d+|hash_hmac|HMAC\.(?:digest|hexdigest|new)|SignedString|signWith|new_from_slice)[ \t]*\(` +
				`((?:(?:[^\n"'(){}\[\],]|\([^\n"'(){}]*\)|\{(?:[^\n"'{}]|'[^'\n]*'|"[^"\n]*")*\})*(?:["'](?:sha-?\d+|md5|hs\d+|sha\d+withrsa)["'])?[ \t]*,[ \t]*)*?(?:key[ \t]*=[ \t]*)?(?:b|\[\]byte\()?["'])([^"'\s]{12,200})(["'])`),
			repl: func(m []string) string { return m[1] + "(" + m[2] + Mask + m[4] },
			// Python's keyword (hmac.new(key=b"…")) names the key too; a
			// hex key counts.
			keep: func(m []string) bool {
				return notAValue(m[3]) || redacted(m[3]) || !random(m[3]) && !madePhrase(m[3]) && !hexKey(m[3])
			},
		},
		{
			// A literal echoed or printed into a command that reads a secret
			// from its stdin (p4 login, op signin, keepassxc-cli, vncpasswd
			// -f, ipa … --password, npm login, vercel env add, kinit,
			// cryptsetup, gpg --passphrase-fd, elasticsearch-reset-password
			// -i), or fed to one as a here-string (wrangler secret put N
			// <<< V). What reads it is told by its words: a login, an
			// unlock, a password, a secret, a variable set.
			name:   "password-flag",
			hints:  []string{"echo", "printf", "<<<"},
			pre:    func(lower string) bool { return strings.Contains(lower, "|") || strings.Contains(lower, "<<<") },
			window: true,
			span:   keySpan,
			back:   200,
			// A decoding stage may come between (echo '<base64>' | base64
			// -d | vault login -): what is decoded is the secret.
			re: lazy.RE(`((?:\becho|\bprintf)[ \t]+(?:-[neE]+[ \t]+)*(?:'%s[^'\n]*'[ \t]+|"%s[^"\n]*"[ \t]+)?)('[^'\n]+'|"[^"\n]+"|[^\s'"|;&<>]+)([ \t]*\|[ \t]*(?:(?:base64[ \t]+(?:-d|--decode|-D)|xxd[ \t]+-r(?:[ \t]+-p)?)[ \t]*\|[ \t]*)?(?:sudo[ \t]+(?:-\S+[ \t]+)*)?([^|\n;&]*))` +
				`|((?:^|[\n|;&])[^\n|;&]{0,200}<<<[ \t]*)('[^'\n]+'|"[^"\n]+"|[^\s'"|;&<>]+)`),
			repl: func(m []string) string {
				if m[1] != "" {
					return m[1] + quoteMask(m[2]) + m[3]
				}
				return m[5] + quoteMask(m[6])
			},
			keep: func(m []string) bool {
				if m[1] != "" {
					return !stdinSecretRE.Get().MatchString(m[4]) || cliNotSecret(m[2]) || shortAnswer(m[2]) || shellRefRE.Get().MatchString(m[2])
				}
				return !stdinSecretRE.Get().MatchString(m[5]) || cliNotSecret(m[6])
			},
		},
		{
			// A secret a command prints from where it is kept, on the line
			// under the command: a password manager's (bw get password, op
			// read op://…, pass show, security find-generic-password -w), a
			// CLI's own token (gh auth token, heroku auth:token, gcloud
			// auth print-access-token), a secret store's (vault … -field,
			// gcloud secrets versions access, doppler secrets get --plain)
			// or a variable a container prints (printenv DB_PASSWORD). A
			// field that names no secret (op://…/username) prints none.
			// Claude Code's tool output sets the line off with ⎿.
			name:  "secret-value",
			hints: []string{"bw get", "op read", "pass show", "gopass ", "find-generic-password", "find-internet-password", "printenv ", "auth token", "auth:token", "print-access-token", "print-identity-token", "versions access", "secrets get", "-field"},
			pre:   func(lower string) bool { return strings.Contains(lower, "\n") },
			re:    lazy.RE(`(?i)(\b(?:bw[ \t]+get[ \t]+password|op[ \t]+read|g?pass[ \t]+show|gopass[ \t]+cat|security[ \t]+find-(?:generic|internet)-password\b[^\n]*[ \t]-w|printenv[ \t]+[A-Za-z0-9_]*(?:PASS|TOKEN|SECRET|KEY|PWD)[A-Za-z0-9_]*|gh[ \t]+auth[ \t]+token|heroku[ \t]+auth:token|gcloud[ \t]+auth[ \t]+(?:application-default[ \t]+)?print-(?:access|identity)-token|gcloud[ \t]+secrets[ \t]+versions[ \t]+access|doppler[ \t]+secrets[ \t]+get\b[^\n]*--plain|vault[ \t]+(?:kv[ \t]+get|read)\b[^\n]*-field)([^\n]*)\r?\n(?:[ \t]*⎿[ \t]*)?)([^\s]{6,400})([ \t]*(?:\r?\n|$))`),
			repl:  func(m []string) string { return m[1] + Mask + m[4] },
			keep: func(m []string) bool {
				v := m[3]
				return redacted(v) || notAValue(v) || strings.HasPrefix(v, "$") || noSecretField(m[2]) ||
					!made(v) && !madePhrase(v) && !tokenLike(v) && !strong(v) && !symbolMixed(v) && !wordNumber(v) && !wordsAndNumber(v)
			},
		},
		{
			// A Python REPL's expression that names a token, a secret or a
			// key (>>> Token.objects.create(user=u).key), then the value
			// it echoes on the line below (round 26): a generated one only.
			name:  "secret-value",
			hints: []string{">>> "},
			pre: func(lower string) bool {
				return anyOf(lower, "token", "secret", "password", "passwd", "api_key", "apikey", ".key")
			},
			re:   lazy.RE(`(?m)(^>>>[ \t]+[^\n]*?(?i:token|secret|password|passwd|api_?key|\.key\b)[^\n]*\r?\n)(['"]?)([^\s'"]{16,400})(['"]?[ \t]*(?:\r?\n|$))`),
			repl: func(m []string) string { return m[1] + m[2] + Mask + m[4] },
			keep: func(m []string) bool {
				v := m[3]
				return redacted(v) || notAValue(v) || !generated(v)
			},
		},
		{
			// Oracle's Easy Connect login, USER/PASSWORD@HOST:PORT/SERVICE,
			// as a value or an argument: the port and the service after the
			// host tell it from a path with an @ (a module's x/tools@v0.1.0/).
			// The password runs to the last @ before the host.
			name:   "password-flag",
			window: true,
			span:   120,
			back:   160,
			hints:  []string{"@"},
			pre:    func(lower string) bool { return strings.Contains(lower, "/") },
			re:     lazy.RE(`((?:^|[\s="'])[A-Za-z][A-Za-z0-9_$#]{0,29}/)([^\s/'"]{1,128}?)(@[A-Za-z0-9][A-Za-z0-9.-]*:\d{2,5}/[A-Za-z][A-Za-z0-9_.$-]*)`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep:   func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) || strings.HasPrefix(m[2], "$") },
		},
		{
			// A login written USER/PASSWORD[@DB] after the key that names it
			// (Oracle's userid=, a loader's connect=, logon=).
			name:   "password-flag",
			window: true,
			span:   keySpan,
			hints:  []string{"userid", "connect", "logon"},
			re:     lazy.RE(`(?i)(\b(?:userid|connect|logon|login)[ \t]*=[ \t]*["']?[A-Za-z][A-Za-z0-9_$#]*/)([^\s@/'"]+)`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep:   func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) || strings.EqualFold(m[2], "as") },
		},
		{
			// A -D system property whose name ends in a secret's word
			// (-Dsonar.login=…, -Dsonar.token=…, -Djavax.net.ssl.
			// keyStorePassword=…): a login there is a token when it looks
			// generated or made.
			name:   "password-flag",
			window: true,
			span:   keySpan,
			hints:  []string{"-d"},
			pre: func(lower string) bool {
				return anyOf(lower, "login=", "token=", "password=", "secret=", "key=", "passphrase=", "pass=")
			},
			re:   lazy.RE(`(-D[A-Za-z0-9_.-]*(?:login|token|[Pp]assword|[Ss]ecret|[Kk]ey|[Pp]assphrase|[Pp]ass)=)("[^"\n]*"|'[^'\n]*'|[^\s"']+)`),
			repl: func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `"'`)
				return cliNotSecret(v) || strings.HasSuffix(m[1], "login=") && !generated(v) && !made(v)
			},
		},
		{
			// A keyword that names a plain-text password and its value
			// (Junos' plain-text-password-value "…", FreeRADIUS's
			// Cleartext-Password := "…").
			name:  "password-flag",
			hints: []string{"plain-text-password", "cleartext-password", "clear-text-password", "plaintext-password"},
			re:    lazy.RE(`(?i)(\b(?:plain-?text|clear-?text)-password(?:-value)?[ \t]*(?::=|=|:)?[ \t]*)("[^"\n]+"|'[^'\n]+'|[^\s"';]+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) },
		},
		{
			// A vault's master password by position (bw unlock PW, bw login
			// EMAIL PW) and a password hashed inline (openssl passwd -6 PW,
			// mkpasswd -m sha-512 PW).
			name:  "password-flag",
			hints: []string{"bw unlock", "bw login", "openssl passwd", "mkpasswd"},
			re:    lazy.RE(`(\bbw[ \t]+unlock[ \t]+|\bbw[ \t]+login[ \t]+\S+@\S+[ \t]+|\bopenssl[ \t]+passwd[ \t]+(?:-(?:1|5|6|apr1|aixmd5|crypt)[ \t]+|-salt[ \t]+\S+[ \t]+)*|\bmkpasswd[ \t]+(?:-(?:m|S|R)[ \t]+\S+[ \t]+|--method=\S+[ \t]+)*)('[^'\n]+'|"[^"\n]+"|[^\s'"\-)$][^\s'")]*)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) },
		},
		{
			// The value after a flag that carries it.
			name:  "secret-value",
			hints: []string{"secret", "variable", "--body"},
			pre: func(lower string) bool {
				return anyOf(lower, "--body", "--value", "--secret-string", "--secret-value", "--data ")
			},
			re: lazy.RE(`(?i)(\b(?:secrets?|variables?)[ \t]+(?:set|put|add|create|update)\b[^\n|;&]*?[ \t](?:--body|-b|--value|--secret-string|--secret-value|--data)(?:[ \t]+|=))('[^'\n]+'|"[^"\n]+"|[^\s'"]+)|(\bput-secret-value\b[^\n|;&]*?[ \t]--secret-string(?:[ \t]+|=))('[^'\n]+'|"[^"\n]+"|[^\s'"]+)`),
			repl: func(m []string) string {
				if m[1] != "" {
					return m[1] + quoteMask(m[2])
				}
				return m[3] + quoteMask(m[4])
			},
			keep: func(m []string) bool { return cliNotSecret(m[2] + m[4]) },
		},
		{
			// A name and its value by position after a secret-setting
			// subcommand: the name is kept, the value masked.
			name:  "secret-value",
			hints: []string{"secret"},
			pre:   func(lower string) bool { return anyOf(lower, "secret set", "secrets set", "config set") },
			re:    lazy.RE(`(?i)(\b(?:config[ \t]+set[ \t]+--secret|(?:user-)?secrets[ \t]+set|secret[ \t]+set)[ \t]+(?:-[a-z-]+[ \t]+)*["']?[A-Za-z_][A-Za-z0-9_.:-]*["']?[ \t]+)('[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) },
		},
		{
			// An expect script's answer to a password prompt: expect
			// "password:" then send "V\r".
			name:  "password-flag",
			hints: []string{"expect"},
			pre:   func(lower string) bool { return strings.Contains(lower, "send") },
			re:    lazy.RE(`(?i)(\bexpect[ \t]+(?:-\w+[ \t]+)*"[^"\n]*(?:pass|pwd|passphrase|kennwort|contrase)[^"\n]*"[ \t]*\r?\n[ \t]*send[ \t]+(?:--[ \t]+)?")([^"\n\\]+)((?:\\[rn])*")`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) || shellRefRE.Get().MatchString(m[2]) },
		},
		{
			// A login file written by printf, its user on the first line
			// and the password on the second, into a file named for
			// credentials (OpenVPN's --auth-user-pass auth.txt, a
			// .credentials file for mount.cifs).
			name:  "password-flag",
			hints: []string{"printf"},
			pre:   func(lower string) bool { return strings.Contains(lower, `\n`) && strings.Contains(lower, ">") },
			re:    lazy.RE(`(\bprintf[ \t]+(?:--[ \t]+)?['"][^'"\\\n]{1,64}\\n)([^'"\\\n]{6,128})((?:\\n)?['"][ \t]*>{1,2}[ \t]*\S*(?i:auth|pass|cred|secret|login)\S*)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) || shellRefRE.Get().MatchString(m[2]) },
		},
		{
			// fish's set -gx NAME VALUE (and csh's setenv NAME VALUE): a
			// variable set by position, its name naming a secret.
			name:   "secret-value",
			window: true,
			span:   keySpan,
			back:   96,
			hints:  []string{"set -", "setenv "},
			re:     lazy.RE(`((?:\bset[ \t]+(?:-[a-zA-Z]+[ \t]+)+|\bsetenv[ \t]+)([A-Za-z_][A-Za-z0-9_]*)[ \t]+)('[^'\n]+'|"[^"\n]+"|[^\s'";]+)`),
			repl:   func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[3], `'"`)
				return cliNotSecret(m[3]) || !namedSecret(m[2], m[3]) && !(secretName(m[2]) && !refName(m[2]) && !idName(m[2]) && tokenLike(v))
			},
		},
		{
			// AWS SSM's put-parameter --value V, stored as a SecureString
			// or under a name whose last segment names a secret
			// (/prod/billing/whatsapp_token).
			name:  "secret-value",
			hints: []string{"put-parameter"},
			pre:   func(lower string) bool { return strings.Contains(lower, "--value") },
			re:    lazy.RE(`(?i)(\bput-parameter\b[^\n|;&]*?[ \t]--value(?:[ \t]+|=))('[^'\n]+'|"[^"\n]+"|[^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return !secureParameter(m[1]) || cliNotSecret(m[2]) },
		},
		{
			// SQLCipher's key: PRAGMA key = 'V' (or rekey; x'…' is raw hex).
			name:  "secret-value",
			hints: []string{"pragma"},
			re:    lazy.RE(`(?i)(\bPRAGMA[ \t]+(?:[a-z_]+\.)?(?:re)?key[ \t]*=[ \t]*)("[^"\n]+"|'[^'\n]+')`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) },
		},
	}
}

// stdinSecretRE: the words of a command that reads a secret from its
// stdin.
var stdinSecretRE = lazy.RE(`(?i)\b(?:login|signin|sign-in|logon|auth|authenticate|unlock|passwd|password|passphrase(?:-fd)?|secrets?|token|keyring|user-add|user-mod|useradd|usermod|chpasswd|htpasswd|vncpasswd|runas|savecred|keepassxc-cli|kinit|cryptsetup|reset-password|set-password|env[ \t]+add|env:add|env:set|variables?[ \t]+(?:set|add|create))\b|--[a-z-]*stdin\b|(?:^|[ \t])-i(?:[ \t]|$)`)

// shellRefRE: a shell variable or command inside a literal
// ("deploy:${DEPLOY_PW}", "$(pass show db)", "$DB_PW").
var shellRefRE = lazy.RE(`\$\{[A-Za-z_]|\$\([a-z]|\$[A-Z_][A-Z0-9_]{2,}`)

// shortAnswer: an answer to a prompt piped in (y, yes, no, a number).
func shortAnswer(v string) bool {
	v = strings.ToLower(strings.Trim(v, `'"`))
	v = strings.TrimSuffix(strings.TrimSuffix(v, `\n`), `\r`)
	return len(v) <= 3 || v == "yes" || v == "no"
}

// cliNotSecret reports a command's argument that is no secret: a
// reference ($VAR, a file by @ or <), a stand-in, one already masked.
func cliNotSecret(v string) bool {
	v = strings.Trim(v, `'"`)
	return v == "" || redacted(v) || notAValue(v) || strings.HasPrefix(v, "@") && !strings.HasPrefix(v, "@@") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "file://") || strings.HasPrefix(v, "fileb://")
}

// secureParameter reports a put-parameter command, up to its --value,
// that stores a secret: its type is SecureString, or its --name's last
// segment names a secret.
func secureParameter(cmd string) bool {
	if strings.Contains(strings.ToLower(cmd), "securestring") {
		return true
	}
	f := strings.Fields(cmd)
	for i, w := range f {
		name, ok := strings.CutPrefix(w, "--name=")
		if !ok && w == "--name" && i+1 < len(f) {
			name, ok = f[i+1], true
		}
		if ok {
			name = strings.Trim(name, `'"`)
			return secretName(name[strings.LastIndexByte(name, '/')+1:])
		}
	}
	return false
}

// noSecretField reports a command's argument that names a field holding
// no secret (op://vault/item/username, --field=url).
func noSecretField(args string) bool {
	l := strings.ToLower(strings.TrimRight(strings.TrimSpace(args), `"'`))
	for _, f := range []string{"user", "username", "login", "email", "url", "host", "hostname", "port", "name"} {
		if strings.HasSuffix(l, "/"+f) || strings.HasSuffix(l, "="+f) {
			return true
		}
	}
	return false
}
