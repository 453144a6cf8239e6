package redact

import "testing"

// TestRound14 holds shapes written for the fourteenth round's classes
// (none from any corpus): each class's catches, by their secret, and the
// look-alikes it must leave intact (secret "").
func TestRound14(t *testing.T) {
	judgeRound(t, []roundCase{
		// A generated password whose one symbol is a bracket or a
		// parenthesis, named or not, in any language or layout.
		{"bracket prose en", "the vpn password is Kq7Lm[xZp2Wv now", "Kq7Lm[xZp2Wv"},
		{"paren prose it", "La password del NAS è Tz4rW(qmNpX8 per ora.", "Tz4rW(qmNpX8"},
		{"brace prose es", "la contraseña quedó en 9hRtQ{vLmZ3k;", "9hRtQ{vLmZ3k"},
		{"close paren tr", "Sunucu şifresi: pXw2N)rTqLm7", "pXw2N)rTqLm7"},
		{"close bracket fi", "Salasana on vB8qT]zLmWx4, älä jaa.", "vB8qT]zLmWx4"},
		{"bracket el", "Ο κωδικός είναι Lm3Qz[wRtX9p.", "Lm3Qz[wRtX9p"},
		{"bracket th", "รหัสผ่านคือ Wq5Zr(LmTp8x นะ", "Wq5Zr(LmTp8x"},
		{"bracket chat", "[09:12] ana: sure, Xr8Pq}mZtL2w\n", "Xr8Pq}mZtL2w"},
		{"bracket reply", "> root pw?\n< Hm4Tq[zRwL9x", "Hm4Tq[zRwL9x"},
		{"flag eq paren", "psql --password=Zq9Lm(wRtX4p --host db", "Zq9Lm(wRtX4p"},
		{"flag space quoted", "helm repo add x --password \"Tn6Qw]zLmRp2\"", "Tn6Qw]zLmRp2"},
		{"env bracket", "REDIS_AUTH=wP3Lz[QmTr8x;", "wP3Lz[QmTr8x"},
		{"yaml bracket", "smtp_pass: Qm7Rt{zLwX2p", "Qm7Rt{zLwX2p"},
		{"no digit scrambled", "mot de passe : qTzRw(LmXpQk", "qTzRw(LmXpQk"},
		{"semicolon tail", "Heslo je Lp2Wq)zRmTx9;", "Lp2Wq)zRmTx9"},
		// and code, whose brackets follow identifiers cased in words
		{"code call", "const buf = new Uint8Array(buf2, 0, 16);", ""},
		{"code get", "document.getElementById(userId2).value", ""},
		{"code assert", "assertEquals(42, parseInt(rawValue3))", ""},
		{"code generic", "List(ImmutableSet) and HashMap(initCap16) and parseHTML(rawInput2)", ""},
		{"code index", "matrix[rowIdx2][colIdx3] = Value4", ""},
		{"code sha", "sha256(myFile) == Sha256Digest(Other)", ""},
		{"code lambda", "items.map(x => toUpper(x2)).filter(Boolean)", ""},
		{"math", "f(x) = 3x^2 + 2x and g(Xy2) = Ab", ""},
		{"prose paren", "Version 2.1 (Released in March2026) fixed CVE(s)", ""},
		{"md link", "[Read the Docs2](https://docs.example.com/Path2)", ""},
		// Delimited data whose header names a secret's column: CSV,
		// semicolons, tabs, a Markdown table given a chosen password.
		{"csv quoted", "\"Title\",\"Username\",\"Password\",\"URL\"\n\"router\",\"admin\",\"Qm7wTz2xLp9\",\"http://10.1.1.1\"", "Qm7wTz2xLp9"},
		{"csv plain", "host,user,password,port\ndb1,app,ember-4471-harbor,5432\n", "ember-4471-harbor"},
		{"csv semicolon de", "Dienst;Benutzer;Kennwort;Notiz\nwiki;admin;Tulpe-Regen-4471;intern\n", "Tulpe-Regen-4471"},
		{"tsv token", "name\ttoken\tscope\nci\tq8Zm2xLw9pR4nT7vB3kY6hJ1\trepo\n", "q8Zm2xLw9pR4nT7vB3kY6hJ1"},
		{"csv es", "servicio,usuario,contraseña\nvpn,ana,Girasol_2291luna\n", "Girasol_2291luna"},
		{"csv api key", "vendor,api key,owner\nacme,ak_9f8Qz2LmN4pR7sT1vW3y,ops\n", "ak_9f8Qz2LmN4pR7sT1vW3y"},
		{"md chosen", "| host | login | password |\n|---|---|---|\n| nas | root | `copper_glacier_velvet81` |\n", "copper_glacier_velvet81"},
		{"md words number", "| app | Passwort |\n|--|--|\n| wiki | Tulpe-Regen-4471 |\n", "Tulpe-Regen-4471"},
		{"csv hash col", "id,user,password_hash,created\n1,bob,$2b$12$abcdefghijklmnopqrstuv,2024-01-01\n", ""},
		{"csv length col", "id,user,password_length,created\n1,bob,12,2024-01-01\n", ""},
		{"csv policy", "rule,password,enforced\nmin length,twelve characters,yes\n", ""},
		{"csv placeholder", "user,password,role\nalice,<set in vault>,admin\nbob,changeme,dev\n", ""},
		{"csv path", "name,secret,kind\ndb,/run/secrets/db_pass,file\n", ""},
		{"md see vault", "| service | user | password |\n|---|---|---|\n| nexus | deploy | see vault |\n", ""},
		{"csv no secret col", "id,name,email\n1,Ana,ana@example.com\n", ""},
		// Look-alikes by structure: the secret's own word as the value (a
		// placeholder, a manual's example, an enum of names), a
		// preposition after a flag (how it is given).
		{"curl help", "-u, --user <user:password>  Server user and password", ""},
		{"wget help", "--http-user=<user> --http-password=<password>", ""},
		{"7z manual", "7z a backup.7z -psecret   (example; choose your own)", ""},
		{"rar manual", "rar a -hppassword files.rar docs/", ""},
		{"enum names", "class Cred(Enum):\n    API_KEY = \"api_key\"\n    CLIENT_SECRET = \"client_secret\"", ""},
		{"dict names", "FIELDS = {\"token\": \"token\", \"secret\": \"secret\"}", ""},
		{"flag via", "Passing --password via the CLI leaves it in the shell history.", ""},
		{"flag through", "Supplying --token through an env var is safer than --token on the command line.", ""},
		{"flag from", "Read --api-key from a file with --api-key-file instead.", ""},
		{"still caught", "7z a backup.7z -pQm7wTz2xLp9", "Qm7wTz2xLp9"},
		{"still flag", "tool --password Zq8mLw2xPr", "Zq8mLw2xPr"},
		// Where a statement's, a protocol's or an encoding's syntax places
		// the secret: SQL INSERT by column, a quoted AUTH, a bech32 secret
		// key, user:password encoded for a Basic header in code, a cookie
		// set by a call.
		{"insert api key", "INSERT INTO vendors (name, api_key) VALUES ('acme', '7f3a9c1d2e8b4a6f0c5d');", "7f3a9c1d2e8b4a6f0c5d"},
		{"insert password", "insert into accounts(login,password,role) values(\"ops\",\"Tz8qPw4LmNx\",\"admin\")", "Tz8qPw4LmNx"},
		{"insert token multi", "INSERT INTO t (id, token) VALUES (7, 'q8Zm2xLw9pR4nT7vB3kY6hJ1');", "q8Zm2xLw9pR4nT7vB3kY6hJ1"},
		{"insert hash col", "INSERT INTO users (name, password_hash) VALUES ('ops', '$2b$12$abcdefghijklmnopqrstuv');", ""},
		{"insert no secret", "INSERT INTO orders (id, sku, qty) VALUES (1, 'AB-1234-XY', 3);", ""},
		{"insert token id", "INSERT INTO t (token_id, name) VALUES ('3f0e1c2a-9b8d-4e7f-a6c5-b4d3e2f1a0b9', 'ci');", ""},
		{"resp auth", "\"AUTH\" \"default\" \"Pq9mZx2Lw7Kt\"", "Pq9mZx2Lw7Kt"},
		{"monitor auth", "1700000000.1 [0 127.0.0.1:6000] \"AUTH\" \"Hq7.zLm2Wx9p\"", "Hq7.zLm2Wx9p"},
		{"cardano xsk", "root key: addr_xsk1qqv7dq0m5tmjxk3vrz9c8fq3dnn5ymz4x2wgwz0qd8ucg9dsrh3u5xkm2l8yx5a4fvj7wk0s", "addr_xsk1qqv7dq0m5tmjxk3vrz9c8fq3"},
		{"nostr nsec", "my nostr key nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5", "nsec1vl029mgpspedva04g90vltkh6fvh"},
		{"cardano addr stays", "send to addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp", ""},
		{"npub stays", "follow npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m", ""},
		{"btoa", "headers.Authorization = 'Basic ' + btoa('deploy:Wq8!zLm2Pt')", "Wq8!zLm2Pt"},
		{"python b64", "base64.b64encode(b'svc:copper_glacier_81').decode()", "copper_glacier_81"},
		{"java b64", "Base64.getEncoder().encodeToString(\"api:Tz8qPw4LmNx7\".getBytes())", "Tz8qPw4LmNx7"},
		{"b64 var stays", "Buffer.from(`${user}:${pass}`).toString('base64')", ""},
		{"cookie set", "jar.cookies.set('session', 'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9abcdef123456', domain='x')", "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9abcdef123456"},
		{"document cookie", "document.cookie = \"sid=Qm7wTz2xLp9RtXc4Vb8Nk3Lm; path=/\"", "Qm7wTz2xLp9RtXc4Vb8Nk3Lm"},
		{"cookie theme stays", "document.cookie = \"theme=dark-high-contrast; path=/\"", ""},
		// A card number grouped by dots; a positional password after a
		// user (mosquitto_passwd, net.exe in an audit log); a compound
		// word for a password; a key named for what it protects; a
		// password's name in Japanese, Chinese, Korean or Hebrew.
		{"card dots", "Karte: 4111.1111.1111.1111 is the test card, mine is 4752.9437.9402.0308", "4752.9437.9402.0308"},
		{"version dots stays", "release 2024.1105.0001.2233 shipped", ""},
		{"mosquitto", "mosquitto_passwd -b /etc/mosquitto/passwd sensor1 Zq8mLw2xPr", "Zq8mLw2xPr"},
		{"net exe", "CommandLine: \"C:\\Windows\\System32\\net.exe\" user svc_bak copper_Orbit_482 /add", "copper_Orbit_482"},
		{"compound de", "Datenbankpasswort: Wq8zLm2Ptx4", "Wq8zLm2Ptx4"},
		{"compound nl", "rootwachtwoord = tulp-molen-5520", "tulp-molen-5520"},
		{"encryption key hex", "ENCRYPTION_KEY=9f2c4e6a8b0d1f3e5a7c", "9f2c4e6a8b0d1f3e5a7c"},
		{"hmac key", "hmac_key: 0a1b2c3d4e5f60718293", "0a1b2c3d4e5f60718293"},
		{"cache key stays", "CACHE_KEY=9f2c4e6a8b0d1f3e5a7c", ""},
		{"key length stays", "ENCRYPTION_KEY_LENGTH=32", ""},
		{"ja name", "パスワード: \"Xq7mLz2Wp9\"", "Xq7mLz2Wp9"},
		{"zh name", "数据库密码 = \"Tz8qPw4LmNx\"", "Tz8qPw4LmNx"},
		{"ko name", "비밀번호=Qm7wTz2xLp9", "Qm7wTz2xLp9"},
		// A login as "(user / secret)"; a secret's name and its value
		// between spaces inside a line.
		{"paren pair", "Tested with the bot account (ci_bot / 9c1f7e2a4b6d8f0e1a3c5b7d9f2e4a6c) on staging.", "9c1f7e2a4b6d8f0e1a3c5b7d9f2e4a6c"},
		{"bracket pair", "creds [deploy / Qm7wTz2xLp9RtXc4Vb8N]", "Qm7wTz2xLp9RtXc4Vb8N"},
		{"paren ratio stays", "the ratio (reads / 1234567890123456) is fine", ""},
		{"paren path stays", "moved (src / lib/components/Button.tsx)", ""},
		{"args pair", "vendor-cli auth --id acct_01 client_secret Qm7wTz2xLp9RtXc4Vb8Nk3Lm --region eu", "Qm7wTz2xLp9RtXc4Vb8Nk3Lm"},
		{"listing pair", "webhook_token 7e3a9c1f5b2d8e4a0c6f1b9d3e7a5c2f", "7e3a9c1f5b2d8e4a0c6f1b9d3e7a5c2f"},
		{"field prose stays", "the client_secret field is required by the OAuth app", ""},
		{"name list stays", "rotate auth_token refresh_token and id_token together", ""},
		// Recovery codes named without "codes", a saved codes file with
		// the account's address above them, a seed to enter instead of a
		// QR code.
		{"2fa recovery list", "github 2FA recovery: k3v9x2mq7p, 8zt4wq1ln6, p0r5ty8ue2, m7c2vb9nx4", "k3v9x2mq7p"},
		{"codes under address", "BACKUP CODES\nops@example.org\n4821 9034\n1177 3528\n9046 2281\n5530 7719", "4821 9034"},
		{"seed instead", "Can't scan it? Enter this key instead:\nq4ze 7yxm b2kd 9wfa", "q4ze 7yxm b2kd 9wfa"},
		{"2fa recovery prose stays", "2FA recovery is documented in the wiki; ask IT for a reset.", ""},
		{"key instead stays", "Enter this key instead of the old one: see the vault entry.", ""},
		{"address list stays", "backup codes owner:\nops@example.org\nrotation every 90 days", ""},
	})
}
