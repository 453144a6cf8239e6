package redact

import "testing"

// TestRound15 holds shapes written for the fifteenth round's class (none
// from any corpus): values a reader sees are fake by their structure, left
// intact (secret ""), beside the real secret of the same shape, caught.
func TestRound15(t *testing.T) {
	judgeRound(t, []roundCase{
		// A run typed whole (a sweep of the alphabet or the digits, one
		// repeated character, zeros or Xs after a vendor's prefix).
		{"sweep upper", "client_secret: \"ABCDEFGHIJKLMNOPQRSTUVWXYZ\"", ""},
		{"sweep lower digits", "SECRET_KEY='abcdefghijklmnopqrstuvwxyz0123456789'", ""},
		{"sweep hex twice", "hmac_secret = \"abcdef0123456789abcdef0123456789\"", ""},
		{"sweep digits", "access_token=12345678901234567890", ""},
		{"one char", "DB_PASSWORD=zzzzzzzzzzzzzzzzzzzz", ""},
		{"one digit", "\"apiKey\": \"1111111111111111111111111111\"", ""},
		{"stripe zeros", "STRIPE_KEY=sk_test_0000000000000000000000000", ""},
		{"restricted zeros", "export STRIPE=rk_live_000000000000000000000000", ""},
		{"github zeros", "token: ghp_000000000000000000000000000000000000", ""},
		{"slack bot zeros", "SLACK_BOT_TOKEN=xoxb-000000000000-0000000000000-000000000000000000000000", ""},
		{"google zeros", "maps key AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX in the docs", ""},
		{"discord webhook zeros", "POST to https://discord.com/api/webhooks/000000000000000000/XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", ""},
		{"slack webhook zeros", "SLACK_WEBHOOK=https://hooks.slack.com/services/T00000000/B00000000/000000000000000000000000", ""},
		// An order in the value's place.
		{"order replace", "JWT_SECRET=replace-with-a-long-random-string", ""},
		{"order generate", "session_key: generate_with_pwgen_32", ""},
		{"order paste", "API_TOKEN=paste-token-from-dashboard", ""},
		// A hashed known_hosts entry, an elided or quoted PEM marker, a
		// template type, a Basic header of the words, a test of the mask.
		{"known_hosts hashed", "|1|Zx9Qm2LwTp7Rk4Vb8Nc3Yd6Hf1A=|Pq8Lm2Wx9Rt4Zk7Vb3Nc6Yd1Hf5E= ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7", ""},
		{"pem ellipsis", "-----BEGIN EC PRIVATE KEY-----\n…\n-----END EC PRIVATE KEY-----", ""},
		{"pem empty", "-----BEGIN OPENSSH PRIVATE KEY-----\n\n-----END OPENSSH PRIVATE KEY-----", ""},
		{"pem prose", "Files must begin with -----BEGIN ENCRYPTED PRIVATE KEY----- and nothing else.", ""},
		{"template type", "type SlackToken = `xoxb-${number}-${string}`;", ""},
		{"spring reference", "spring.datasource.password=${DB_PASSWORD:-changeme}", ""},
		// A generated password that holds "${" is no template: symbols
		// inside the braces, or more of it outside them.
		{"dollar brace symbols", "DB_PASSWORD=Xk9${mQ2!vL8#pR4}tW6", "Xk9${mQ2!vL8#pR4}tW6"},
		{"dollar brace outside", "export SECRET_KEY='q7${Zr4kP9}wL2xT5vB8n'", "q7${Zr4kP9}wL2xT5vB8n"},
		{"basic words", "curl -H 'Authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQ=' localhost:8080", ""},
		{"basic admin secret", "Authorization: Basic YWRtaW46c2VjcmV0", ""},
		{"mask test", "expect(scrub('pw=foo')).toBe('pw=***')", ""},
		// The real secret of each shape is still caught.
		{"random key", "client_secret: \"Qm7wTz2xLp9RtXc4Vb8Nk3LmAa01\"", "Qm7wTz2xLp9RtXc4Vb8Nk3LmAa01"},
		{"part sweep", "hmac_secret = \"0123456789abcdef0123456789abcd12\"", "0123456789abcdef0123456789abcd12"},
		{"stripe real", "STRIPE_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"},
		{"github real", "token: ghp_R2d9Xq7LmTz4Wp8Kc3Vb6Nh1Jf5Yg0Ae2SuQ", "ghp_R2d9Xq7LmTz4Wp8Kc3Vb6Nh1Jf5Yg0Ae2SuQ"},
		{"slack webhook real", "SLACK_WEBHOOK=https://hooks.slack.com/services/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", "q8Zm2xLw9pR4nT7vB3kY6hJ1"},
		{"passphrase", "JWT_SECRET=correct-horse-battery-staple-81", "correct-horse-battery-staple-81"},
		{"pem short body", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBq2Kc4Md6Nf8Ph0\n-----END EC PRIVATE KEY-----", "MHcCAQEEIBq2Kc4Md6Nf8Ph0"},
		{"pem one line", "key: -----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC -----END PRIVATE KEY-----", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"},
		{"basic real", "Authorization: Basic ZGVwbG95OldxOHpMbTJQdDQ=", "ZGVwbG95OldxOHpMbTJQdDQ="},
		// A generated token ending a line after a label that names an
		// API or a token in any language; the label's identifiers,
		// versions and counts stay.
		{"label it", "chiave API di produzione: Qm7wTz2xLp9RtXc4Vb8Nk3Lm", "Qm7wTz2xLp9RtXc4Vb8Nk3Lm"},
		{"label pl", "klucz API sklepu: Hx4qLm9TzWp2Rk7Vb3Nc8Yd1", "Hx4qLm9TzWp2Rk7Vb3Nc8Yd1"},
		{"label ru", "API-ключ сервиса: Zp3Lq8WmRt2Xk7Vb4Nc9Yd6H", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6H"},
		{"label ko", "API 키: Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H", "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H"},
		{"label zh", "API密钥：Lm2Qz7WxRt4Pk9Vb3Nc8Yd5H", "Lm2Qz7WxRt4Pk9Vb3Nc8Yd5H"},
		{"label pt", "token do webhook de cobrança: Wq9Lm2ZxTr7Pk4Vb8Nc3Yd6H\nok", "Wq9Lm2ZxTr7Pk4Vb8Nc3Yd6H"},
		{"label fr", "jeton token du bot : Px7Lq3WmZt8Rk2Vb9Nc4Yd1H", "Px7Lq3WmZt8Rk2Vb9Nc4Yd1H"},
		{"label version stays", "API version: 20240601preview2", ""},
		{"label request id stays", "API request id: Zx8Lm2QwTp7Rk4Vb9Nc3Yd6H", ""},
		{"label hex stays", "token fingerprint: 9f2c4e6a8b0d1f3e5a7c9f2c", ""},
		{"label ulid stays", "API build: 01J77P0D0YPX576N3DWKHJ9CJ1", ""},
		{"label words stays", "API gateway: Kong", ""},
		// A directive named by a compound on "pass" or "auth", its value
		// after spaces (a server's config file, its CONFIG SET).
		{"redis conf", "requirepass Hq7zLm2Wx9pRt4Vb", "Hq7zLm2Wx9pRt4Vb"},
		{"masterauth quoted", "masterauth \"Tz8qPw4LmNx7Rk2V\"", "Tz8qPw4LmNx7Rk2V"},
		{"config set", "10.0.0.5:6379> CONFIG SET masterauth Lp2Wq7zRmTx9Kc4V\nOK", "Lp2Wq7zRmTx9Kc4V"},
		{"dbpass", "dbpass   Wq8zLm2Ptx4Rk7Vb", "Wq8zLm2Ptx4Rk7Vb"},
		{"redis default stays", "requirepass foobared  # the sample config's line, commented out", ""},
		{"bypass stays", "bypass authentication_middleware_for_healthchecks", ""},
		{"oauth stays", "OAuth 2.0 with PKCE is the flow we use", ""},
		{"query short", "https://x.test/cb?token=abc&next=1", "abc"},
	})
}
