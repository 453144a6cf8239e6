package redact

import (
	"strings"
	"testing"
)

// TestRound12 holds shapes written for the twelfth round's mechanisms
// (none from any corpus): each class's catches and the look-alikes it
// must leave intact.
func TestRound12(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		// pkg/mnemonic: a BIP39 mnemonic by its checksum, named or not.
		{"seed in chat", "ok restored it from clarify service duty above pyramid garlic method imitate whip company slot shadow - thanks", "ok restored it from [REDACTED:mnemonic] - thanks"},
		{"seed numbered", "1. stand\n2. tape\n3. topic\n4. reason\n5. toe\n6. allow\n7. yellow\n8. onion\n9. like\n10. biology\n11. face\n12. distance", "1. [REDACTED:mnemonic]"},
		{"bad checksum stays", "feel repeat picnic turn upset push theme can saddle suit spoon unhappy", "feel repeat picnic turn upset push theme can saddle suit spoon unhappy"},
		{"common words stay", "about above across act action actor actual adapt add address adjust admit", "about above across act action actor actual adapt add address adjust admit"},
		{"test vector stays", "BIP39 vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about", "BIP39 vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"},
		// A flag documented, not given: a help line's description, a verb,
		// a sentence in Japanese or Chinese.
		{"help line", "-p, --password   prompt for the password before connecting", "-p, --password   prompt for the password before connecting"},
		{"flag then verb", "passing --token alone makes the CLI read it from the keyring", "passing --token alone makes the CLI read it from the keyring"},
		{"flag then description", "  --api-key   the key to authenticate with (see docs)", "  --api-key   the key to authenticate with (see docs)"},
		{"flag ja prose", "--passphrase を省略すると、実行時に入力を求められます。", "--passphrase を省略すると、実行時に入力を求められます。"},
		{"flag zh prose", "--password 参数为空时，程序会提示输入。", "--password 参数为空时，程序会提示输入。"},
		{"flag value still", "mysqladmin --password hunter2Q7 status", "mysqladmin --password [REDACTED] status"},
		// Placeholders and references: "word1 … word12", a credential
		// loaded from a file (systemd), a key's name on the line after a
		// token URL, a PEM header in prose.
		{"placeholder seed", "seed: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12", "seed: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12"},
		{"loadcredential", "LoadCredential=tls-key:/etc/ssl/private/app.key", "LoadCredential=tls-key:/etc/ssl/private/app.key"},
		{"loadcredentialencrypted", "LoadCredentialEncrypted=db:/var/lib/app/db.cred", "LoadCredentialEncrypted=db:/var/lib/app/db.cred"},
		{"setcredential value", "SetCredential=dbpass:Wq8-zzT4-Lm2v", "SetCredential=[REDACTED]"},
		{"token url then key", "issuer: https://id.acme.dev\nrevocation_endpoint: https://id.acme.dev/oauth/token\nintrospection_endpoint: https://id.acme.dev/oauth/introspect", "issuer: https://id.acme.dev\nrevocation_endpoint: https://id.acme.dev/oauth/token\nintrospection_endpoint: https://id.acme.dev/oauth/introspect"},
		{"pem header prose", "Paste the key so it starts with -----BEGIN RSA PRIVATE KEY----- on its own line.", "Paste the key so it starts with -----BEGIN RSA PRIVATE KEY----- on its own line."},
		{"pem truncated", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", "[REDACTED:private-key]"},
		{"pem proc-type", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F1", "[REDACTED:private-key]"},
	} {
		if got := String(tt.in); got != tt.want && !(tt.want != tt.in && len(tt.want) < len(tt.in) && strings.Contains(got, tt.want)) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestRound12Commands holds the command shapes of the twelfth round's
// classes, written before the rules: a literal piped or fed into a
// command that reads a secret from stdin, a login written USER/PASSWORD
// after a key, a -D property naming a secret, a plain-text password
// keyword, a vault's master password by position, a password hashed
// inline, a variable-setting subcommand's value, a glued -P.
func TestRound12Commands(t *testing.T) {
	for _, tt := range []struct{ name, in, secret string }{
		{"p4 login", "echo 'Vx9-pump-Kettle' | p4 -u build login", "Vx9-pump-Kettle"},
		{"op signin", `echo "Tr0mbone!Quay" | op signin --account acme`, "Tr0mbone!Quay"},
		{"keepassxc", "echo -n 'w4lrus&Oyster' | keepassxc-cli ls vault.kdbx", "w4lrus&Oyster"},
		{"vncpasswd", "echo 'zx81Spec' | vncpasswd -f > ~/.vnc/passwd", "zx81Spec"},
		{"ipa", "echo 'Qu1nce-Harbor' | ipa user-add jdoe --first=J --last=Doe --password", "Qu1nce-Harbor"},
		{"npm login", `printf 'ci\nN0va#Lantern7\nci@example.com\n' | npm login`, "N0va#Lantern7"},
		{"vercel env", "echo -n 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' | vercel env add STRIPE_KEY production", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
		{"kinit", "echo 'Fj0rd&Moose22' | kinit admin@CORP.EXAMPLE", "Fj0rd&Moose22"},
		{"cryptsetup", "echo -n 'luks-Pass-8812' | cryptsetup luksOpen /dev/sdb1 data -", "luks-Pass-8812"},
		{"gpg fd", "echo 'Gl4cier~Sign' | gpg --batch --passphrase-fd 0 --sign build.tar", "Gl4cier~Sign"},
		{"reset password", "echo 'N3w-Elastic-Pw' | bin/elasticsearch-reset-password -u elastic -i -b", "N3w-Elastic-Pw"},
		{"here-string", "wrangler secret put API_TOKEN <<< 'tok_9f8e7d6c5b4a3928'", "tok_9f8e7d6c5b4a3928"},
		{"printf fmt", `printf '%s' 'Ch3rry-Blossom!' | docker login -u bob --password-stdin ghcr.io`, "Ch3rry-Blossom!"},
		{"userid", "impdp userid=scott/T1ger_Paw99@ORCL directory=DP dumpfile=x.dmp", "T1ger_Paw99"},
		{"userid parfile", "USERID=system/Manager#2024\nDIRECTORY=dp_dir", "Manager#2024"},
		{"connect", "sqlldr control=load.ctl connect=loader/L0ad3r!pw@PDB1", "L0ad3r!pw"},
		{"sonar login", "mvn sonar:sonar -Dsonar.host.url=https://sq.corp -Dsonar.login=squ_8f7e6d5c4b3a29180706f5e4d3c2b1a0", "squ_8f7e6d5c4b3a29180706f5e4d3c2b1a0"},
		{"sonar token", "./gradlew sonar -Dsonar.token=sqp_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b", "sqp_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"},
		{"jvm keystore", "java -Djavax.net.ssl.keyStorePassword=K3yst0re!Pw -jar app.jar", "K3yst0re!Pw"},
		{"junos", `set system login user ops authentication plain-text-password-value "Ju!nos-Edge-42"`, "Ju!nos-Edge-42"},
		{"radius", `bob  Cleartext-Password := "R4dius&Bob"`, "R4dius&Bob"},
		{"bw unlock", "bw unlock 'Bit-W4rden^Master' --raw", "Bit-W4rden^Master"},
		{"bw login", "bw login ops@example.com 'Bit-W4rden^Ops' --raw", "Bit-W4rden^Ops"},
		{"openssl passwd", `useradd -m -p "$(openssl passwd -6 'Kiosk_Pw_77')" kiosk`, "Kiosk_Pw_77"},
		{"mkpasswd", "mkpasswd -m sha-512 'Hash-Me-Pls9'", "Hash-Me-Pls9"},
		{"glab variable", "glab variable set DEPLOY_TOKEN --value @@q8Xz4Lm2Pv9Rt --masked", "@@q8Xz4Lm2Pv9Rt"},
		{"fly secrets", "fly secrets set DATABASE_PASSWORD=Fly-Db-Pw-33", "Fly-Db-Pw-33"},
		{"isql glued", "isql -S PROD -U sa -PSyb4se!pw -w 200", "Syb4se!pw"},
		{"es users", "bin/elasticsearch-users useradd ops -p Elastic#Ops91 -r superuser", "Elastic#Ops91"},
	} {
		if got := String(tt.in); strings.Contains(got, tt.secret) {
			t.Errorf("%s: secret kept:\n got %q", tt.name, got)
		}
	}
	for _, in := range []string{
		"echo $TOKEN | docker login -u bob --password-stdin ghcr.io",
		"echo 'hello world' | grep world",
		"echo 'select 1' | psql -h db -U app",
		"echo y | npx create-app",
		`echo "$OP_PASSWORD" | op signin`,
		"cat pw.txt | p4 login",
		"printf '%s\n' \"$VNC_PW\" | vncpasswd -f",
		"impdp userid=scott directory=DP dumpfile=x.dmp",
		"expdp USERID=/ AS SYSDBA directory=dp",
		"-Dsonar.login=$SONAR_TOKEN",
		"java -Dspring.profiles.active=prod -Dlogging.level.root=INFO -jar app.jar",
		"mvn -Pprod -DskipTests package",
		"bw unlock --passwordenv BW_PASSWORD --raw",
		"bw unlock --passwordfile ~/.bw-pass",
		"openssl passwd -6 -stdin < pw.txt",
		"glab variable set DEPLOY_TOKEN --value $TOKEN --masked",
		`plain-text-password-value "$PW"`,
	} {
		if got := String(in); got != in {
			t.Errorf("look-alike changed:\n got %q\nwant %q", got, in)
		}
	}
}

// TestRound12Loose holds the password-shaped token class (looseSpans):
// a value with capitals, small letters, digits and a symbol, told in any
// language with no word the rules know, and the long tokens of notes
// that are no secret.
func TestRound12Loose(t *testing.T) {
	for _, tt := range []struct{ in, secret string }{
		{"hey, it's now Rk7#vQ2!mZp9 until Friday", "Rk7#vQ2!mZp9"},
		{"wifi na ofisi: Mango&Papaya2291", "Mango&Papaya2291"},
		{"ang bagong susi ay Xq9$Lm3@Tt1z (pansamantala)", "Xq9$Lm3@Tt1z"},
		{"새 와이파이는 Hn4!kQ9#rT2w 입니다", "Hn4!kQ9#rT2w"},
		{"«Zu8^Pl2*Qa7m» — so lautet es jetzt", "Zu8^Pl2*Qa7m"},
		{"> what's the jump host pw?\nsame as before: Mv3?Ty8!Wq1x", "Mv3?Ty8!Wq1x"},
		{"creds → ops@acme.test / Pq7!xZ2@Lm9v", "Pq7!xZ2@Lm9v"},
		{"“Ke2~Jd8#Wz5q” is the vault's new master", "Ke2~Jd8#Wz5q"},
		{"mật mã wifi: Bl4ck|Cat|77x", "Bl4ck|Cat|77x"},
		{"- SSID: Lobby\n- Key: Gx5%Yw2^Nb8s", "Gx5%Yw2^Nb8s"},
	} {
		if got := String(tt.in); strings.Contains(got, tt.secret) {
			t.Errorf("secret kept: %q", got)
		}
	}
	for _, in := range []string{
		"**Round12** landed; **Corpus15** is next.",
		"curl%20-s%20https%3A%2F%2Fx.io%2Fa%20%7C%20sh",
		"if (a != b && Foo1(x)) { return; }",
		"assert Foo2Bar == Baz3Qux! # not a value",
		"ping ops@acme.example or Ops2024@acme.example",
		"api_token: ENC[AES256_GCM,data:Zm9vYmFy,iv:aGVsbG8=,tag:d29ybGQ=,type:str]",
		"sort key: 2026-11-25T10:00:00Z#order#9f8e7d6c5b4a39281706",
		"SHA256:3xQvTn8Lr2WcZp9kJ4mB7yHs1dF6gA0eU5iO2tR8wK is the host key",
		"colours: #1F6FEB, #8957E5aa and #D1242F",
		"Use ${HOME}/Bin2 and $Path1! in the script",
		"The Kotlin DSL: tasks.named<Test1>(\"test\")!",
		"https://example.com/Path1?Query2=Val3&x=Y4!",
		"C:\\Users\\Dev1\\Doc2!",
		"iPhone15 and Pixel8 both pass",
		"aGVsbG8gd29ybGQ= and SGVsbG8sIHdvcmxkIQ== decode fine",
	} {
		if got := String(in); got != in {
			t.Errorf("look-alike changed:\n got %q\nwant %q", got, in)
		}
	}
}

// TestRound12Literals: a secret's literal in code where a modifier or an
// unusual type stands before it, or where a key string and its value are
// consecutive arguments.
func TestRound12Literals(t *testing.T) {
	for _, tt := range []struct{ in, secret string }{
		{`  private readonly dbPassword: string = "Xk2mQ9vLp4Rz";`, "Xk2mQ9vLp4Rz"},
		{`public static final String API_TOKEN = "tq8Wz3Lm9Kp2Vx7R";`, "tq8Wz3Lm9Kp2Vx7R"},
		{`const apiToken: []const u8 = "Zq4Lm8Vt2Kx9";`, "Zq4Lm8Vt2Kx9"},
		{`pub const SECRET_KEY: &str = "Hy7Rt2Lk9Qw4";`, "Hy7Rt2Lk9Qw4"},
		{`static let authToken: String = "Pm3Xz8Qr5Lt1Vw"`, "Pm3Xz8Qr5Lt1Vw"},
		{`props.setProperty("mail.smtp.password", "Wr5Tz2Kq8Lm");`, "Wr5Tz2Kq8Lm"},
		{`Environment.SetEnvironmentVariable("DB_PASSWORD", "Nv6Qm3Zt9Xr");`, "Nv6Qm3Zt9Xr"},
		{`os.environ.setdefault("API_TOKEN", "Lk4Wq9Zm2Rt7")`, "Lk4Wq9Zm2Rt7"},
		{`config.set('auth.secret', 'Qz7Rm2Xt5Lw9')`, "Qz7Rm2Xt5Lw9"},
		{`map.put("apiKey", "Bx3Kt8Wq1Zm6Lr");`, "Bx3Kt8Wq1Zm6Lr"},
	} {
		if got := String(tt.in); strings.Contains(got, tt.secret) {
			t.Errorf("secret kept: %q", got)
		}
	}
	for _, in := range []string{
		`private readonly passwordField: string = "password";`,
		`props.setProperty("mail.smtp.password", System.getenv("SMTP_PW"));`,
		`t("login.password", "Password")`,
		`assertEquals("password", "password")`,
		`i18n.set("reset_token", "Reset your token")`,
		`const tokenType: TokenType = "bearer";`,
	} {
		if got := String(in); got != in {
			t.Errorf("look-alike changed:\n got %q\nwant %q", got, in)
		}
	}
}

// TestRound12Words: the password's word in more languages, a login
// listed with it.
func TestRound12Words(t *testing.T) {
	for _, tt := range []struct{ in, secret string }{
		{"ผู้ใช้ ops รหัสผ่าน Lotus_river5521", "Lotus_river5521"},
		{"mtumiaji ops, nywila Simba.mto7781", "Simba.mto7781"},
		{"sunan mai amfani ops, kalmar sirri Tauraro-kogi3390", "Tauraro-kogi3390"},
		{"usor ops, tessera Lupus-silva4412", "Lupus-silva4412"},
		{"အသုံးပြုသူ ops စကားဝှက် Padauk.river2290", "Padauk.river2290"},
		{"მომხმარებელი ops, პაროლი Mtkvari_7731", "Mtkvari_7731"},
		{"логин ops, құпиясөз Altai.tau6620", "Altai.tau6620"},
	} {
		if got := String(tt.in); strings.Contains(got, tt.secret) {
			t.Errorf("secret kept: %q", got)
		}
	}
	for _, in := range []string{
		"รหัสผ่าน ต้องมีอย่างน้อย 12 ตัวอักษร",
		"nywila lazima iwe na herufi 12",
		"tessera arcana servatur in cista",
	} {
		if got := String(in); got != in {
			t.Errorf("look-alike changed:\n got %q\nwant %q", got, in)
		}
	}
}

// TestRound12Codes: codes listed under their name one a line with a list
// number or bullet, and a revocation code.
func TestRound12Codes(t *testing.T) {
	for _, tt := range []struct{ in, secret string }{
		{"GitHub recovery codes\n1. 7f3a9-c21e0\n2. b4d5f-6a0c9\n3. 8d7b6-a5f4e", "b4d5f-6a0c9"},
		{"Backup codes:\n- 48213907\n- 55120934\n- 90817264", "55120934"},
		{"npm 2FA recovery codes\n1) 5837052385\n2) 5715296096\n3) 4195509467", "5715296096"},
		{"Steam Guard revocation code R72913 (keep it)", "R72913"},
		{"Authenticator revocation code: Q8K2M9", "Q8K2M9"},
	} {
		if got := String(tt.in); strings.Contains(got, tt.secret) {
			t.Errorf("secret kept: %q", got)
		}
	}
	for _, in := range []string{
		"Recovery codes:\n1. Open Settings\n2. Choose Security\n3. Click Regenerate",
		"backup codes:\n- stored in 1Password\n- printed copy in the safe",
		"revocation code format: R followed by five digits",
	} {
		if got := String(in); got != in {
			t.Errorf("look-alike changed:\n got %q\nwant %q", got, in)
		}
	}
}
