package redact

import (
	"encoding/base64"
	"testing"
)

// TestRound24 holds shapes written for the twenty-fourth round's classes
// (none from any corpus). Look-alikes first: a value named hashed
// (detect-secrets' hashed_secret), a parameter given a number inside a
// value (Stripe-Signature's t=), a chain's transaction signature in
// base58, a UUID with a page below it in a dashboard's route, a key named
// public by a word of its own ("public key: …"), a host and its port
// before a path, a framework's "dev" stand-in; beside each, the secret of
// the same layout. Then secrets' carriers: an INSERT whose VALUES hold a
// call (now()), Gradle's buildConfigField quoting its value again, AWS
// SSM's put-parameter, a Markdown row with no header, SMTP's AUTH PLAIN
// and AUTH LOGIN, an expect script's send, fish's set -gx, wg genkey's
// output, a cookie copied from a browser's table, a value handed over in a
// chat, a WebSocket subprotocol's token, Postfix's sasl_passwd, a remark
// in parentheses between a secret's name and its value below, a login file
// written by printf; and vendor prefixes (Slack's xoxc-, AWS's session
// token, Harness's pat., Depot's depot_project_).
func TestRound24(t *testing.T) {
	judgeRound(t, []roundCase{
		// A value named hashed is the secret's digest.
		{"hashed secret", `"hashed_secret": "0f3a9c2d81b7e6f5a4d3c2b1a09f8e7d6c5b4a39",`, ""},
		{"hashed password hex", "hashed_password: 9c1185a5c5e9fc54612808977ee8f548b2258d31", ""},
		{"plain secret hex", "client_secret: 9c1185a5c5e9fc54612808977ee8f548b2258d31", "9c1185a5c5e9fc54612808977ee8f548b2258d31"},
		// A parameter given a number inside a signature's value.
		{"signature timestamp", "X-Acme-Signature: t=1712345678,v1=5b2f0c9d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c", ""},
		{"signature secret", "signature_secret: Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		// A transaction's signature in base58 is public on its chain.
		{"chain signature", "Signature: 3kVzq8PRw2Yt5Hn9CdEf7GhJk4LmNp6QrSt8UvWx2YzAb3Cd5Ef7Gh9Jk2Lm4Np6Qr8St3Uv5Wx7Yz9Ab2Cd4Ef6", ""},
		{"keypair secret", "SOLANA_PRIVATE_KEY=3kVzq8PRw2Yt5Hn9CdEf7GhJk4LmNp6QrSt8UvWx2YzAb3Cd5Ef7Gh9Jk2Lm4Np6Qr8St3Uv5Wx7Yz9Ab2Cd4Ef6", "3kVzq8PRw2Yt5Hn9CdEf7GhJk4LmNp6QrSt8UvWx2YzAb3Cd5Ef7Gh9Jk2Lm4Np6Qr8St3Uv5Wx7Yz9Ab2Cd4Ef6"},
		// A UUID with a page below it names a token's record.
		{"token page", "see https://console.acme.dev/orgs/42/tokens/1b4e28ba-2fa1-41d2-883f-0016d3cca427/edit", ""},
		{"token path", "conda config --add channels https://conda.acme.dev/t/ab-7f3e9c2d1b4a5e6f8c9d0e1f2a3b4c5d/main", "ab-7f3e9c2d1b4a5e6f8c9d0e1f2a3b4c5d"},
		// A key named public by a word of its own.
		{"public key line", "peer: wg-lab\n  public key: Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7uP2iO9M=\n  endpoint: 10.0.0.2:51820", ""},
		{"age public key", "# Public key: age1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqs3290gq", ""},
		{"private key line", "interface: wg1\n  private_key: Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7uP2iO9M=", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7uP2iO9M="},
		// A host and its port.
		{"ldap url", "bind to ldap://pass-ldap.acme.internal:389/dc=acme,dc=internal and search", ""},
		{"host port token", "vault-token.corp.local:8200", ""},
		// Flask's documented development key.
		{"flask dev", `app.config["SECRET_KEY"] = "dev"`, ""},
		{"flask made", `app.config["SECRET_KEY"] = "d3v-Qm7Lx2Vt9Rw4"`, "d3v-Qm7Lx2Vt9Rw4"},
		// SQL: a call among an INSERT's values.
		{"insert now", "INSERT INTO creds (id, api_secret, added) VALUES (3, 'Zp9Qx2Lm7Vt4Rw8Kn3Hs', now());", "Zp9Qx2Lm7Vt4Rw8Kn3Hs"},
		{"insert coalesce", "INSERT INTO svc (name, token, at) VALUES ('ci', 'tK7mQ2xP9vL4wR8nY3sH6jB1', coalesce(NULL, 'x'));", "tK7mQ2xP9vL4wR8nY3sH6jB1"},
		{"insert now plain", "INSERT INTO creds (id, label, added) VALUES (3, 'Zp9Qx2Lm7Vt4Rw8Kn3Hs', now());", ""},
		// Gradle's buildConfigField.
		{"gradle field", `buildConfigField("String", "MAPS_API_KEY", "\"Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2\"")`, "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"gradle field plain", `buildConfigField("String", "BASE_URL", "\"https://api.acme.dev/v2\"")`, ""},
		// SSM put-parameter.
		{"ssm secure", "aws ssm put-parameter --name /prod/api/signing --type SecureString --value 'Hn4Lq8Zt2Vw6Xp9Rk3Ms' --overwrite", "Hn4Lq8Zt2Vw6Xp9Rk3Ms"},
		{"ssm named", "aws ssm put-parameter --name /stg/db_password --type String --value Hn4Lq8Zt2Vw6Xp9Rk3Ms", "Hn4Lq8Zt2Vw6Xp9Rk3Ms"},
		{"ssm plain", "aws ssm put-parameter --name /prod/api/replicas --type String --value 3 --overwrite", ""},
		// A Markdown row with no header.
		{"md row", "| api | signing_secret | `Rk3Ms9Zt2Vw6Xp4Hn8Lq7Jd` | rotated Monday |", "Rk3Ms9Zt2Vw6Xp4Hn8Lq7Jd"},
		{"md row word", "| api | signing_secret | `stored in vault` | rotated Monday |", ""},
		// SMTP.
		{"auth plain", "C: AUTH PLAIN " + b64("\x00ops@acme.dev\x00Vt9Rw4PnYs3H"), b64("\x00ops@acme.dev\x00Vt9Rw4PnYs3H")},
		{"auth login", "S: 334 VXNlcm5hbWU6\nC: " + b64("ops@acme.dev") + "\nS: 334 UGFzc3dvcmQ6\nC: " + b64("Vt9Rw4PnYs3H") + "\nS: 235 ok", b64("Vt9Rw4PnYs3H")},
		{"auth plain caps", "S: 250-AUTH PLAIN LOGIN CRAM-MD5", ""},
		// expect.
		{"expect send", "spawn sftp deploy@files\nexpect \"Password:\"\nsend \"Lq8Zt2Vw6Xp9\\r\"", "Lq8Zt2Vw6Xp9"},
		{"expect var", "expect \"password:\"\nsend \"$env(SFTP_PW)\\r\"", ""},
		// fish and csh.
		{"fish set", "set -gx NPM_AUTH_TOKEN k7x2m9q4w8e3r6t1y5u0i7o2p4", "k7x2m9q4w8e3r6t1y5u0i7o2p4"},
		{"fish set path", "set -gx PATH /opt/homebrew/bin $PATH", ""},
		{"csh setenv", "setenv API_SECRET Zt2Vw6Xp9Rk3Ms4Hn8Lq", "Zt2Vw6Xp9Rk3Ms4Hn8Lq"},
		// wg genkey.
		{"wg genkey", "$ wg genkey | tee wg0.key\nuP2iO9MZk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK4=", "uP2iO9MZk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK4="},
		// A browser's cookie table.
		{"cookie row", "sessionid\tq8z2xv7lm4k9pw3rt6yh1jn5\t.acme.dev\t/\t2027-01-01", "q8z2xv7lm4k9pw3rt6yh1jn5"},
		{"cookie row theme", "theme\tdark-high-contrast-mode\t.acme.dev\t/\tSession", ""},
		// A value handed over in a chat.
		{"chat new one", "> the old deploy_token expired, new one is `Wq7Zt3Lm9Vx2Kp8Rn4Hs` thanks", "Wq7Zt3Lm9Vx2Kp8Rn4Hs"},
		{"chat this one", "[10:02] ana: try with this one? Rn4HsWq7Zt3Lm9Vx2Kp8", "Rn4HsWq7Zt3Lm9Vx2Kp8"},
		{"chat uuid named", "> the upload token changed, new one is 1b4e28ba-2fa1-41d2-883f-0016d3cca427", "1b4e28ba-2fa1-41d2-883f-0016d3cca427"},
		{"chat uuid unnamed", "the run failed again, new one is 1b4e28ba-2fa1-41d2-883f-0016d3cca427", ""},
		{"chat words", "the old laptop died, new one is arriving-on-friday-morning", ""},
		// A WebSocket subprotocol.
		{"ws protocol", "websocat -H='Sec-WebSocket-Protocol: bearer.Zt3Lm9Vx2Kp8Rn4HsWq7' wss://rt.acme.dev", "Zt3Lm9Vx2Kp8Rn4HsWq7"},
		{"ws protocol plain", "Sec-WebSocket-Protocol: graphql-transport-ws", ""},
		// Postfix.
		{"sasl passwd", "# /etc/postfix/sasl_passwd\n[smtp.acme.dev]:587 relay@acme.dev:Kp8Rn4HsWq7Zt3", "Kp8Rn4HsWq7Zt3"},
		// A remark in parentheses between a secret's name and its value
		// on the line below.
		{"name remark below", "# signing_secret_key (hex, rotate yearly):\n9f8e7d6c5b4a39281706f5e4d3c2b1a0Zq", "9f8e7d6c5b4a39281706f5e4d3c2b1a0Zq"},
		{"name remark prose", "# signing_secret_key (see the runbook):\nrotate it with make rotate-keys", ""},
		// A login file written by printf.
		{"printf auth file", "printf 'deploy\\nQm7Lx2Vt9Rw4\\n' > ~/.config/vpn/auth.txt && openvpn --auth-user-pass ~/.config/vpn/auth.txt", "Qm7Lx2Vt9Rw4"},
		{"printf var", "printf 'deploy\\n%s\\n' \"$VPN_PW\" > auth.txt", ""},
		{"printf other file", "printf 'line one\\nline two here\\n' > notes.txt", ""},
		// Vendor prefixes.
		{"slack xoxc", "SLACK_COOKIE_TOKEN=xoxc-1234567890-2345678901-3456789012-" + "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6", "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"},
		{"aws session", "token IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD7k2Lm9Vx2Kp8Rn4HsWq7Zt3Lm9Vx2Kp8Rn4Hs", "IQoJb3JpZ2luX2VjEJr"},
		{"harness pat", "HARNESS=pat.Qm7Lx2Vt9Rw4PnYs3Hq8Lm.0123abcd4567ef890123abcd.Zt3Lm9Vx2Kp8Rn4HsWq7", "Zt3Lm9Vx2Kp8Rn4HsWq7"},
		{"depot", "use depot_project_9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928 in CI", "depot_project_9f8e7d6c"},
	})
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
