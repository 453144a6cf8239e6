package redact

import (
	"strings"
	"testing"
)

// TestRound23 holds shapes written for the twenty-third round's classes
// (none from any corpus). Look-alikes first: a Mapbox public token (pk.
// and a base64 JSON header) under any name, beside its secret twin
// (sk.); an element's key attribute (React's key="…", Vue's :key), beside
// a configuration's <add key=… value=…>; a comment in which a key word is
// followed by prose ("# no client secret: federated credentials via
// OIDC"), beside a comment that gives a value; a bare "secret" key given
// a stored object's name ("secret: app-tls"), beside a chosen password.
// Then secrets' classes: vendor prefixes (Pinecone's pcsk_, Honeycomb's
// hcaik_/hcxik_, Checkout.com's sk_sbox_, Tencent's AKID, Cloudflare's
// Origin CA v1.0-); a secret's identifier, a few words and an arrow
// before its value; a tool's -auth USER:SECRET; lftp's -u USER,PASSWORD;
// a URI without its scheme after --uri or mysqlsh, and a Go MySQL DSN
// whose password holds an '@'; a type annotation between a key's name
// and its literal (Rust's &[u8] = b"…"); Hebrew's construct סיסמת,
// Swedish lösen, two words and a number told with no verb; a literal
// decoded from base64 in UTF-16LE (PowerShell's Unicode.GetString) or
// echoed into a decoder; the line a decoded Kubernetes Secret prints; a
// Terraform resource named for an API key; from the older sets' classes,
// a COBOL VALUE, a YAML block scalar, a password echoed into a stdin
// reader, SQL*Plus's CONNECT and a SIP URI, a C++ brace initializer and
// a T-SQL DECLARE, an identifier "is" its value, Fireworks' fw_,
// Airflow's -p, more words for a password, an encryption block's key, a
// one-line .netrc entry, Rails' Token token="…", Hindi's value before
// the copula.
// Beside each, the look-alike of the same layout.
func TestRound23(t *testing.T) {
	judgeRound(t, []roundCase{
		// A Mapbox public token is public under any name.
		{"mapbox public", "const token = 'pk.eyJ1IjoibWFwcyIsImEiOiJjbHg3In0.Qm7Lx2Vt9Rw4PnYs3Hq8Lm';", ""},
		{"mapbox public env", "MAPBOX_ACCESS_TOKEN=pk.eyJ1IjoiZGV2IiwiYSI6ImNrMiJ9.Xq7Lm2Zk9Vt4Rw8PnYs3Hq", ""},
		{"mapbox secret", "MAPBOX_ACCESS_TOKEN=sk.eyJ1IjoiZGV2IiwiYSI6ImNrMiJ9.Xq7Lm2Zk9Vt4Rw8PnYs3Hq", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq"},
		// An element's key attribute.
		{"react key", `{items.map(i => <Row key="V1StGXR8_Z5jdHi6B-myT" item={i} />)}`, ""},
		{"vue key", `<li v-for="t in todos" :key="Qm7Lx2Vt9Rw4PnYs3Hq8L">{{ t.text }}</li>`, ""},
		{"dotnet add key", `<add key="StripeSecret" value="sk_live_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2" />`, "sk_live_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"key attr secret word", `api_key="Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"`, "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		// A comment in which a key word is followed by prose.
		{"comment prose", "# api token: generated per run by the CI job", ""},
		{"comment prose slashes", "// password: stored in the keychain under acme-ci", ""},
		{"comment value", "# password: Qm7#vT2pLx9", "Qm7#vT2pLx9"},
		{"comment value word", "# password: hunter2 for the staging box", "hunter2"},
		// A stored object's name under a bare "secret" key.
		{"secret object name", "  secret: db-credentials", ""},
		{"secret chosen", "secret: Mango-Orbit-77", "Mango-Orbit-77"},
		{"secret word digits", "secret: orbit-mango-4471", "orbit-mango-4471"},
		// Vendor prefixes.
		{"pinecone", "export PINECONE=pcsk_3Xq7Lm_2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYsK8Hq2LmZ", "pcsk_3Xq7Lm_2Zk9"},
		{"honeycomb", "-H 'X-Honeycomb-Team: hcxik_01hq7lm2zk9vt4rw8pnys3hq2lmz9xvt4rwp7nysk8hq2lmz9x'", "hcxik_01hq7lm2zk9"},
		{"checkout sandbox", "cko: sk_sbox_m3q7lx2vt9rw4pnys3hq8lmz2x", "sk_sbox_m3q7lx2vt9rw4"},
		{"tencent id", "SecretId AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE1", "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE1"},
		{"cf origin ca", "CF_ORIGIN=v1.0-0123456789abcdef01234567-" + strings.Repeat("0123456789abcdef", 9) + "01", "v1.0-0123456789abcdef01234567"},
		{"akid word", "AKIDs are Tencent's key ids", ""},
		// An identifier, a few words and an arrow before its value.
		{"arrow token", "rotated SENTRY_AUTH_TOKEN today → Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L"},
		{"arrow ascii", "STRIPE_SECRET_KEY (staging) -> Qm7xLp9vT2wRz4KdXq7Lm2Zk", "Qm7xLp9vT2wRz4KdXq7Lm2Zk"},
		{"arrow name", "SECRET_KEY_BASE -> config/credentials.yml.enc", ""},
		{"arrow words", "API_TOKEN → see the vault entry", ""},
		// A tool's -auth USER:SECRET; lftp's USER,PASSWORD.
		{"jenkins auth", "java -jar jenkins-cli.jar -s https://ci/ -auth admin:Qm7xLp9vT2wRz4Kd who-am-i", "Qm7xLp9vT2wRz4Kd"},
		{"jenkins auth file", "java -jar jenkins-cli.jar -s https://ci/ -auth @/run/secrets/jenkins who-am-i", ""},
		{"lftp login", "lftp -u deploy,'Lp2Wq7zRmTx9' ftp.example.org", "Lp2Wq7zRmTx9"},
		{"lftp user only", "lftp -u deploy ftp.example.org", ""},
		// A URI without its scheme; a Go MySQL DSN.
		{"mysqlsh uri", "mysqlsh --uri app:Xq7Lm2Zk9Vt@db.internal:3306", "Xq7Lm2Zk9Vt"},
		{"mysqlsh arg", "mysqlsh root:Lp2Wq7zRmTx9@localhost --js", "Lp2Wq7zRmTx9"},
		{"mysqlsh no pass", "mysqlsh --uri app@db.internal:3306", ""},
		{"go dsn at", `dsn := "app:pl@in#77@tcp(db:3306)/shop"`, "pl@in#77"},
		{"go dsn env", `dsn := "app:" + os.Getenv("DB_PASS") + "@tcp(db:3306)/shop"`, ""},
		// A type annotation between a key's name and its literal.
		{"rust bytes key", `const SIGNING_KEY: &[u8] = b"Qm7xLp9vT2wRz4KdXq7Lm2Zk";`, "Qm7xLp9vT2wRz4KdXq7Lm2Zk"},
		{"rust str token", `static API_TOKEN: &str = "Xq7Lm2Zk9Vt4Rw8PnYs3";`, "Xq7Lm2Zk9Vt4Rw8PnYs3"},
		{"rust cache key", `const CACHE_KEY: &str = "users-list";`, ""},
		// The password's word in more forms; two words and a number.
		{"hebrew construct", "סיסמת השרת: Qm7#vT2pLx9", "Qm7#vT2pLx9"},
		{"swedish losen", "lösen till wifi: orbit-lantern42", "orbit-lantern42"},
		{"hungarian no verb", "A szerver jelszava amber-falcon81", "amber-falcon81"},
		{"hungarian name", "A szerver jelszava a jelszókezelőben van", ""},
		// Decoded from base64: UTF-16LE in place, echoed into a decoder.
		{"powershell utf16", `$secret = [Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('UQBtADcAIwB2AFQAMgBwAEwAeAA5AA=='))`, "UQBtADcAIwB2AFQAMgBwAEwAeAA5AA=="},
		{"powershell env", `$pw = [Environment]::GetEnvironmentVariable('DB_PASSWORD')`, ""},
		{"echo decode password", "$ echo UW03I3ZUMnBMeDk= | base64 -d", "UW03I3ZUMnBMeDk="},
		{"echo decode words", "$ echo aGVsbG8gd29ybGQ= | base64 -d", ""},
		{"echo decode json", "$ echo eyJhIjoxfQ== | base64 -d", ""},
		// The line a decoded Kubernetes Secret prints.
		{"kubectl decoded", "$ kubectl get secret api -o jsonpath='{.data.token}' | base64 --decode\nXq7Lm2Zk9Vt4Rw8PnYs3\n$ ", "Xq7Lm2Zk9Vt4Rw8PnYs3"},
		{"kubectl names", "$ kubectl get secrets\nNAME   TYPE   DATA   AGE", ""},
		// A Terraform resource named for an API key.
		{"tf api key", "resource \"aws_ssm_parameter\" \"sendgrid_api_key\" {\n  name  = \"/prod/sendgrid\"\n  value = \"Qm7xLp9vT2wRz4KdXq7Lm2Zk9Vt4Rw8P\"\n}", "Qm7xLp9vT2wRz4KdXq7Lm2Zk9Vt4Rw8P"},
		{"tf api key name", "resource \"aws_ssm_parameter\" \"sendgrid_api_key\" {\n  name  = \"/prod/sendgrid_api_key\"\n  type  = \"SecureString\"\n}", ""},
		// From the older sets' classes: a COBOL VALUE, a YAML block
		// scalar, a password echoed into a stdin reader, SQL*Plus's
		// CONNECT and a SIP URI, a C++ brace initializer and a T-SQL
		// DECLARE, an identifier "is" its value, Fireworks' fw_, Airflow's
		// -p, Azerbaijani şifrəsi and Persian گذرواژه, an encryption
		// block's key.
		{"cobol value", "       05 API-TOKEN PIC X(24) VALUE 'Qm7xLp9vT2wRz4KdXq7Lm2Zk'.", "Qm7xLp9vT2wRz4KdXq7Lm2Zk"},
		{"cobol spaces", "       05 WS-PASSWORD PIC X(16) VALUE SPACES.", ""},
		{"yaml block scalar", "db:\n  password: |-\n    Xq7Lm2#Zk9Vt\n  port: 5432", "Xq7Lm2#Zk9Vt"},
		{"yaml block prose", "help:\n  password: >\n    The password comes from the vault.", ""},
		{"echo chpasswd", "(echo 'Lp2Wq7zRmTx9'; echo 'Lp2Wq7zRmTx9') | sudo smbpasswd -s -a alice", "Lp2Wq7zRmTx9"},
		{"echo chpasswd var", "echo \"$NEWPW\"; | chpasswd", ""},
		{"sqlplus connect", "CONNECT scott/Tiger#2024x@//db.internal:1521/ORCL", "Tiger#2024x"},
		{"sip uri", "sip:alice:Qm7xLp9vT2@pbx.example.lan", "Qm7xLp9vT2"},
		{"sip no pass", "sip:alice@pbx.example.lan", ""},
		{"cpp brace", `const std::string apiSecret{"Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L"};`, "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L"},
		{"cpp brace name", `const std::string label{"Save changes"};`, ""},
		{"tsql declare", "DECLARE @password NVARCHAR(50) = N'Qm7#vT2pLx9';", "Qm7#vT2pLx9"},
		{"tsql declare name", "DECLARE @password_column NVARCHAR(50) = N'pwd';", ""},
		{"identifier is", "the new SENDGRID_API_KEY is Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L, rotate it Monday", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L"},
		{"identifier is words", "SENDGRID_API_KEY is stored in the vault", ""},
		{"fireworks", `client := fireworks.NewClient("fw_3Xq7Lm2Zk9Vt4Rw8PnYs3Hq")`, "fw_3Xq7Lm2Zk9Vt4Rw8PnYs3Hq"},
		{"fw word", "the fw_rules_table_name setting", ""},
		{"airflow p", "airflow users create -u ops -r Admin -e ops@example.com -p Qm7#vT2pLx9", "Qm7#vT2pLx9"},
		{"az prose", "Bazanın şifrəsi Xq7Lm2Zk9Vt-dir", "Xq7Lm2Zk9Vt"},
		{"fa prose", "گذرواژه سرور Qm7#vT2pLx9 است", "Qm7#vT2pLx9"},
		{"encryption block", "active_record_encryption:\n  deterministic_key: Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4R", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4R"},
		{"netrc one line hex", "machine npm.example.dev login ci password 5d41402abc4b2a76b9719d911017c592", "5d41402abc4b2a76b9719d911017c592"},
		{"netrc one line var", "machine npm.example.dev login ci password $NPM_TOKEN", ""},
		{"token param", `Authorization: Token token="Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L", email="ci@example.dev"`, "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L"},
		{"basic padded", "Authorization: Basic dXNlcjpQbTdxVDJwTHg5Kw==", "dXNlcjpQbTdxVDJwTHg5Kw=="},
		{"hindi copula", "डेटाबेस का पासवर्ड Qm7#vT2pLx9 है।", "Qm7#vT2pLx9"},
		{"hindi copula word", "पासवर्ड मैनेजर में है", ""},
		{"encryption block algo", "encryption:\n  algorithm: aes-256-gcm\n  key_provider: kms", ""},
	})
}
