package redact

import "testing"

// TestRound28 holds shapes written for the twenty-eighth round's classes
// (none from any corpus): look-alikes first. A cookie whose value is a
// stand-in shown where it was (<omitted>, <redacted>); beside it, a
// session's value. Vercel's deployment, project and team ids; beside
// them, a token with a vendor's prefix. The rest of a regular expression
// after the key it names (a redactor's own pattern); beside it, a value.
// Then secrets: a variable a secret's name printed by Claude Code's Bash
// tool (⎿); beside it, a path. A client given a transport, then its one
// literal; beside it, a name and an id before a variable. Firebase's
// legacy server key. A CSV column named "key"; beside it, a word. sed's
// replacement of a secret's placeholder; beside it, a variable and a
// word. A literal printf'd or tee'd into a secret's file; beside it, a
// variable. GraphQL variables bound to a secret's argument; beside it, an
// id's. A MAC call's key keyword; beside it, a variable. A token of small
// letters and digits under a token's name; beside it, a header's name. A
// CSRF token in a session store's record; beside it, settings. base64 of
// a login with a passphrase and of a key file's JSON, decoded; beside
// it, an image's tag. A key split into an array of chunks; beside it,
// paths. The password's word in Greek, Indonesian and Thai, a Hindi
// value of letters whose case flips; beside each, words. A key named for
// what it encrypts or signs, of letters and symbols, in an assignment or
// a YAML block scalar; a hex secret shorter than a key's under a
// secret's name; beside them, a word, prose and an id.
func TestRound28(t *testing.T) {
	judgeRound(t, []roundCase{
		// A cookie's stand-in.
		{"cookie omitted", "Set-Cookie: sessionid=<omitted>; Path=/; Secure", ""},
		{"cookie stand-in header", "Cookie: session=<redacted>; theme=dark", ""},
		{"cookie session value", "Set-Cookie: sessionid=q7lx2vt9rw4pnys3hq8lmz2kp9ts; Path=/", "q7lx2vt9rw4pnys3hq8lmz2kp9ts"},
		// Vercel's object ids.
		{"vercel deployment id", "vercel inspect dpl_7Hq2LmZ9kP4tSbVnC8xR3wY6dF1g --logs", ""},
		{"vercel project id", "VERCEL_PROJECT_ID=prj_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s", ""},
		{"vercel team id", "team: team_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9t (acme)", ""},
		{"vendor prefixed token", "export DEPLOY_KEY=dpk_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7L", "dpk_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7L"},
		// A regular expression's rest after the key.
		{"regex group close", `    return re.sub(r"(token=)[^&\s]+", r"\1[x]", url)`, ""},
		{"regex js class", `const scrub = s => s.replace(/(password:)\s*\S+/g, "$1 ***");`, ""},
		{"regex negated class", `pattern = "secret=[^&]+"`, ""},
		{"paren password", "db_password=)Kq7#vL2xR9!mN4", ")Kq7#vL2xR9!mN4"},
		// A variable printed by Claude Code's Bash tool.
		{"tool printenv", "⏺ Bash(printenv STRIPE_WEBHOOK_SECRET)\n  ⎿  Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2"},
		{"tool printenv plain", "⏺ Bash(printenv HOME)\n  ⎿  /home/deploy", ""},
		// A client given a transport first.
		{"client transport key", "var client = new BillingClient(httpClient, \"Hn4Lq8Zt2Vw7Rx3Kp9TsQm7LxVt\");", "Hn4Lq8Zt2Vw7Rx3Kp9TsQm7LxVt"},
		{"client transport hex", "api = ApiClient(session, \"4f9a2c1e77aa4c1e9f000a1b2c3d4e5f\")", "4f9a2c1e77aa4c1e9f000a1b2c3d4e5f"},
		{"client transport name", "var client = new BillingClient(httpClient, \"billing-service\");", ""},
		{"client transport id secret", "new TwilioClient(http, \"AC4f9a2c1e77aa4c1e9f000a1b2c3d4e5f\", token)", ""},
		// Firebase's legacy server key.
		{"fcm server key", "FCM key: AAAAq7Lx2Vt:APA91bZk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9tZk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9t", "AAAAq7Lx2Vt:APA91bZk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9tZk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9t"},
		// A CSV column named key.
		{"csv key column", "service,key,team\npayments,9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234,fin", "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234"},
		{"csv key column word", "service,key,team\npayments,primary,fin", ""},
		// sed's replacement of a secret's placeholder.
		{"sed placeholder", "sed -i 's/{{DB_PASSWORD}}/Qm7Lx2Vt9Rw4!nYs/' .env", "Qm7Lx2Vt9Rw4!nYs"},
		{"sed pipe placeholder", "sed -e 's|__STRIPE_KEY__|Zk3pQ7vL2xR9mN4tY8wB1cF6|g' config.json", "Zk3pQ7vL2xR9mN4tY8wB1cF6"},
		{"sed placeholder var", "sed -i \"s/__API_KEY__/${API_KEY}/\" config/app.json", ""},
		{"sed word", "sed -i 's/api_key_header/x-api-key-header/' nginx.conf", ""},
		// printf into a secret's file.
		{"printf secret file", "printf '%s' 'Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s' > /run/secrets/db_token", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"echo n tee", "echo -n 'Hn4Lq8Zt2Vw7Rx3Kp9TsQm7L' | sudo tee /etc/app/api_key", "Hn4Lq8Zt2Vw7Rx3Kp9TsQm7L"},
		{"printf var", "printf '%s' \"$TOKEN\" > /run/secrets/db_token", ""},
		// GraphQL variables bound to a secret's argument.
		{"graphql bound token", `{"query":"mutation L($p:String!){login(user:\"ci\", password:$p){ok}}","variables":{"p":"Qm7Lx2Vt9Rw4PnYs3Hq8"}}`, "Qm7Lx2Vt9Rw4PnYs3Hq8"},
		{"graphql bound id", `{"query":"query Q($id:ID!){user(id:$id){name}}","variables":{"id":"Qm7Lx2Vt9Rw4PnYs3Hq8"}}`, ""},
		// A key's keyword in a MAC call.
		{"hmac key kwarg", `sig = hmac.new(key=b"4f9a2c1e77aa4c1e9f000a1b2c3d4e5f6a7b8c9d", msg=payload, digestmod="sha256")`, "4f9a2c1e77aa4c1e9f000a1b2c3d4e5f6a7b8c9d"},
		{"hmac key var", "sig = hmac.new(key=secret_bytes, msg=payload, digestmod=\"sha256\")", ""},
		// A token of small letters and digits under a token's name.
		{"base36 token const", "const CHAT_TOKEN: &str = \"k3x9pz7qw2mn4vt8ry6bc1hj5d\";", "k3x9pz7qw2mn4vt8ry6bc1hj5d"},
		{"word token const", "const CHAT_TOKEN_HEADER: &str = \"x-mattermost-token\";", ""},
		// A CSRF token in a session store's record.
		{"redis csrf", "127.0.0.1:6379> GET sess:4f9a2c\n\"{\\\"uid\\\":7,\\\"csrf\\\":\\\"Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s\\\"}\"", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"csrf setting", "CSRF_COOKIE_SECURE = True\ncsrf: enabled", ""},
		// base64 of a login or a key file, decoded.
		{"echo b64 login passphrase", "$ echo " + b64("ci:maple-falcon-ember-harbor") + " | base64 -d", b64("ci:maple-falcon-ember-harbor")},
		{"echo b64 image", "$ echo " + b64("redis:7.2-alpine") + " | base64 -d", ""},
		{"b64 key json", "run: echo \"" + b64(`{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"}`) + "\" | base64 --decode > sa.json", b64(`{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"}`)},
		// A key split into an array of chunks.
		{"json chunks", "\"signing_key\": [\n  \"Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7L\",\n  \"x2Vt9Rw4PnYs3Hq8LmZ2kP9tHn4Lq8Zt\"\n]", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7L\",\n  \"x2Vt9Rw4PnYs3Hq8LmZ2kP9tHn4Lq8Zt"},
		{"json chunks words", "\"license_files\": [\n  \"third_party/licenses/apache\",\n  \"third_party/licenses/mit\"\n]", ""},
		// The password's word in Greek, Indonesian and Thai, a Hindi value
		// of letters whose case flips.
		{"prose greek synthimatiko", "Χρήστης backup, συνθηματικό Qm7Lx2Vt9Rw4PnYs.", "Qm7Lx2Vt9Rw4PnYs"},
		{"prose indonesian sekarang", "Kata sandi router kantor sekarang Hn4Lq8Zt2Vw7Rx3K.", "Hn4Lq8Zt2Vw7Rx3K"},
		{"prose indonesian sandi", "Akun panel: admin, sandi cedar-harbor-violet-42.", "cedar-harbor-violet-42"},
		{"prose thai rahat", "ผู้ใช้ backup รหัส amber-glacier-falcon-31 นะ", "amber-glacier-falcon-31"},
		{"prose thai postal", "รหัส ไปรษณีย์ 10110", ""},
		{"prose hindi letters", "बैकअप सर्वर का पासवर्ड qXzRtMvLpKwYnBs है", "qXzRtMvLpKwYnBs"},
		{"prose hindi word", "सर्वर का पासवर्ड लंबा है", ""},
		// A key named for what it encrypts or signs, typed of letters and
		// symbols; a signing key's YAML block scalar; a hex secret shorter
		// than a key's under a secret's name.
		{"encryption key symbols", "DATA_ENCRYPTION_KEY=\"Kq^vLxR=mN~tYwB\" # rotate yearly", "Kq^vLxR=mN~tYwB"},
		{"encryption key word", "DATA_ENCRYPTION_KEY=\"kms-managed\"", ""},
		{"yaml signing key block", "jwt:\n  signing_key: |\n    QmLxVtRwPnYs~k#!Zq\n  ttl: 3600", "QmLxVtRwPnYs~k#!Zq"},
		{"yaml signing key ref", "jwt:\n  signing_key: |\n    see the vault entry\n  ttl: 3600", ""},
		{"short hex secret", "- stripe_secret: `4f9a2c1e77aa4c1e9f000a1b2c3d`", "4f9a2c1e77aa4c1e9f000a1b2c3d"},
		{"short hex id", "- build_id: `4f9a2c1e77aa4c1e9f000a1b2c3d`", ""},
	})
}
