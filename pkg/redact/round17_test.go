package redact

import "testing"

// TestRound17 holds shapes written for the seventeenth round's classes
// (none from any corpus): a secret's name and its value set apart by the
// layout (a tab, spaces, an arrow; a record's name and value fields; a
// conversion call in the value's place), beside look-alikes of the same
// layouts whose value is a word, a path, a column or a description.
func TestRound17(t *testing.T) {
	judgeRound(t, []roundCase{
		// A line of a name and one value, apart by a tab, spaces or an arrow.
		{"arrow token", "PRIVATE_TOKEN -> 'Hq7zLm2Wx9pRt4VbN3cY8dK1fG5jS6aT'", "Hq7zLm2Wx9pRt4VbN3cY8dK1fG5jS6aT"},
		{"fat arrow", "api_secret => \"Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5w\"", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5w"},
		{"unicode arrow", "deploy token → Tr6Wq2LmZx9Pk4Vb7Nc3Yd8HfG2", "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8HfG2"},
		{"tab key", "SIGNING-KEY\tq8w2e7r4t1y6u3i9o5p0a2s7d4f1g8h3", "q8w2e7r4t1y6u3i9o5p0a2s7d4f1g8h3"},
		{"tab credential", "credential\tLm2Qz7Wx/Rt4Pk9Vb3Nc8+Yd5HfG6jS1aT0", "Lm2Qz7Wx/Rt4Pk9Vb3Nc8+Yd5HfG6jS1aT0"},
		{"tab hmac one case", "HMACKEY\t'4f1c9a7e2b8d3f6a0c5e9b1d7a3f8c2e6b0d4a9f'", "4f1c9a7e2b8d3f6a0c5e9b1d7a3f8c2e6b0d4a9f"},
		{"env listing", "PATH=/usr/bin\nDB_PASSWORD\tmaple-harbor-quiet-77", "maple-harbor-quiet-77"},
		{"tsv export", "name\tvalue\nstripe_secret\tXk9mQ2vLp8wZr4Tq7Yb3Nc6Hd", "Xk9mQ2vLp8wZr4Tq7Yb3Nc6Hd"},
		{"bindpw", "binddn cn=svc,dc=corp\nbindpw velvet-anchor-quartz-19", "velvet-anchor-quartz-19"},
		{"rootpw spaces", "rootpw    Kx9!mQ2vLp", "Kx9!mQ2vLp"},
		{"passwort arrow", "passwort -> Sonnen-Blume-2024", "Sonnen-Blume-2024"},
		{"pwd arrow", "PWD -> \"q7w3e9r1t5y8u2i6o4p0a3s7d1f9g5h2\"", "q7w3e9r1t5y8u2i6o4p0a3s7d1f9g5h2"},
		// Look-alikes of that layout: a path, a word, a column, a state.
		{"pwd path", "PWD\t/home/dana/project", ""},
		{"token word", "token -> refresh", ""},
		{"password described", "password -> hashed with argon2", ""},
		{"key column", "key\tcreated_at", ""},
		{"sort key arrow", "sort_key -> updated_at", ""},
		{"cache key", "cache_key\tuser:42:profile", ""},
		{"token state", "token\texpired", ""},
		{"password stars", "password\t********", ""},
		{"password rotated", "password\trotated", ""},
		{"password placeholder", "PASSWORD\t<redacted>", ""},
		{"token id uuid", "refresh_token_id  3f0e1c2a-9b8d-4e7f-a6c5-b4d3e2f1a0b9", ""},
		{"bypass", "bypass\tenabled", ""},
		// A literal handed to a conversion or a constructor.
		{"rust from", "let password = String::from(\"Tz8qPw4L%mNx7Rk2V\");", "Tz8qPw4L%mNx7Rk2V"},
		{"rust secret", "let db_password = SecretString::new(\"v4G1Wi-rVXz-cL3Y0\".into());", "v4G1Wi-rVXz-cL3Y0"},
		{"python str", "password = str(\"hunter7-Blue-Falcon\")", "hunter7-Blue-Falcon"},
		{"java new string", "String password = new String(\"Tr6Wq2Lm-Zx9Pk4\");", "Tr6Wq2Lm-Zx9Pk4"},
		{"rust typed", "let api_token: String = String::from(\"Xk9mQ2vLp8wZr4Tq7Yb3\");", "Xk9mQ2vLp8wZr4Tq7Yb3"},
		{"from stand-in", "let password = String::from(\"changeme\");", ""},
		{"from empty", "let password = String::new();", ""},
		{"from path", "let path = String::from(\"secrets/token.txt\");", ""},
		{"from env", "let token = String::from(env!(\"TOKEN\"));", ""},
		// A record's name and value fields (a Kubernetes or ECS env entry,
		// .NET's <add key=… value=…>, CloudFormation's parameters) under a
		// name holding a password's short word or a namespace.
		{"k8s pass", "  - name: DB_PASS\n    value: \"qzmwpr.482915.KXTVB\"", "qzmwpr.482915.KXTVB"},
		{"ecs auth", "{\"name\": \"REDIS_AUTH\", \"value\": \"Tr6Wq2Lm-Zx9Pk4Vb\"}", "Tr6Wq2Lm-Zx9Pk4Vb"},
		{"cfn parameter", "- ParameterKey: DbPassword\n  ParameterValue: \"Hunter-Blue-42x\"", "Hunter-Blue-42x"},
		{"namespaced add key", "<add key=\"Payments:ApiKey\" value=\"Zq8Xw2Lm-Rt4Pk9Vb3Nc8Yd5HfG6jS1aT0Kx7\" />", "Zq8Xw2Lm-Rt4Pk9Vb3Nc8Yd5HfG6jS1aT0Kx7"},
		{"k8s bypass", "  - name: BYPASS_CACHE\n    value: \"true\"", ""},
		{"k8s stand-in", "  - name: DB_PASS\n    value: \"changeme\"", ""},
		{"k8s auth mode", "  - name: AUTH_MODE\n    value: \"oauth2-client-credentials\"", ""},
		{"k8s count", "  - name: PASSENGER_COUNT\n    value: \"12345678\"", ""},
		{"namespaced merchant", "<add key=\"Payments:MerchantAccount\" value=\"AcmeShopECOM\" />", ""},
		{"k8s pass file", "  - name: DB_PASS_FILE\n    value: \"/run/secrets/db_pass\"", ""},
		// A value that is a word of the prose: a state and when it came
		// ("rotated 2024-05-01", "changed yesterday") or the last word of
		// a sentence after an AUTH glued to a name. A password of one
		// word, or one with a date after it, stays caught.
		{"rotated date", "Password: rotated 2024-05-01, owner @dana", ""},
		{"changed yesterday", "password: changed yesterday by ops", ""},
		{"german state", "Passwort: geändert am 03.05.2024", ""},
		{"expired date", "token: expired 2024-01-02", ""},
		{"reset every", "db_password: reset every quarter", ""},
		{"french state", "mot_de_passe: modifié le 12/03/2024", ""},
		{"auth env sentence", "`redis-cli -a` leaks it; prefer `AUTH` via the REDISCLI_AUTH environment variable.", ""},
		{"word then date", "password: hunter2 2024-05-01", "hunter2"},
		{"one word", "password: swordfish", "swordfish"},
		{"redis auth", "127.0.0.1:6379> AUTH default s3cr3t-Pass", "s3cr3t-Pass"},
		{"redis-cli auth", "redis-cli -h cache AUTH foobared", "foobared"},
		// A webhook's address whose path carries its token.
		{"o365 hook", "https://outlook.office.com/webhook/Qx7Lm2Wz9pRt4VbN3cY8dK1fG5jS6aTzE0hUqW/IncomingWebhook", "Qx7Lm2Wz9pRt4VbN3cY8dK1fG5jS6aTzE0hUqW"},
		{"mattermost hook", "https://chat.acme.io/hooks/xq8w2e7r4t1y6u3i9o5p0a2s7d", "xq8w2e7r4t1y6u3i9o5p0a2s7d"},
		{"rocketchat hook", "https://rocket.acme.io/hooks/6a7b8c9d0e1f2a3b4c5d6e7f/Zk9mQ2vLp8wZr4Tq7Yb3Nc6Hd5Jf8Gx2", "Zk9mQ2vLp8wZr4Tq7Yb3Nc6Hd5Jf8Gx2"},
		{"generic hook", "curl -X POST https://ci.acme.dev/api/webhooks/42/Lm2Qz7WxRt4Pk9Vb3Nc8Yd5HfG6jS1aT0 -d '{}'", "Lm2Qz7WxRt4Pk9Vb3Nc8Yd5HfG6jS1aT0"},
		{"hook docs", "https://example.com/webhooks/github", ""},
		{"hook id", "https://api.github.com/repos/acme/app/hooks/412345678", ""},
		{"hook guide", "https://docs.stripe.com/webhooks/signatures-and-verification", ""},
		// An authenticator's setup key in groups of four.
		{"grouped key", "Can't scan it? Enter this key: Q4RT ZK7M LP2W XN5B 6HAC DJ3E", "Q4RT ZK7M LP2W XN5B 6HAC DJ3E"},
		{"grouped lower", "Manual entry: k3mq zt7w pl2x nv5b", "k3mq zt7w pl2x nv5b"},
		{"grouped card", "test card 4242 4242 4242 4242 with any future expiry", ""},
		{"grouped caps words", "THIS WILL TAKE SOME TIME", ""},
		{"grouped fingerprint", "CDB9 54CA 7D3A A6AB 4373 48CF 7FD0 7A9D D446 700E", ""},
		{"grouped hexdump", "0000 0010 6d61 7073 2e64 6174", ""},
		{"grouped alphabet", "ABCD EFGH IJKL MNOP", ""},
		// A name and its value percent-encoded in a URL or a form.
		{"encoded pair", "GET /cb?next=%2F&state=secret%3DLm2Qz7Wx-Rt4Pk9Vb%26u%3Dx 302", "Lm2Qz7Wx-Rt4Pk9Vb"},
		{"encoded password", "redirect=%2Flogin%3Fuser%3Dops%26password%3Dmaple-harbor-quiet-77", "maple-harbor-quiet-77"},
		{"encoded json", "data=%7B%22api_token%22%3A%22Zk9mQ2vLp8wZr4Tq7Yb3Nc6H%22%7D", "Zk9mQ2vLp8wZr4Tq7Yb3Nc6H"},
		{"encoded tab name", "redirect=%2Fsettings%3Ftab%3Dpassword%26mode%3Dreset", ""},
		{"encoded stand-in", "q=password%3Dchangeme", ""},
		// A bot token in three dotted parts whatever its first letter.
		{"dotted bot token", "bot.run('q8RkLm2Wz9pTt4VbN3cY8dK1.Gx7pD2.T-QNnAnOZ1VQ_HPKruWKDUdpUq2Q2IEa')", "q8RkLm2Wz9pTt4VbN3cY8dK1.Gx7pD2.T-QNnAnOZ1VQ_HPKruWKDUdpUq2Q2IEa"},
		{"dotted name", "com.example.application.module.submodule.classname", ""},
		// A short base64 blob decoded into a .env.
		{"short b64 env", "echo QVBJX1RPS0VOPVprOW1RMnZMcDh3WnI0 | base64 -d >> .env", "QVBJX1RPS0VOPVprOW1RMnZMcDh3WnI0"},
		{"short b64 prose", "echo SGVsbG8gd29ybGQgZnJvbSBiYXNl | base64 -d", ""},
		// A login and a password after a slash: the qualifier ending in an
		// arrow, the password behind its own label.
		{"slash label pw", "login: deploy / pw: Tz8qPw4LmNx7Rk2V", "Tz8qPw4LmNx7Rk2V"},
		{"slash arrow", "creds for the staging tenant → ops@staging.acme.io / maple-harbor-quiet-77", "maple-harbor-quiet-77"},
		{"slash ascii arrow", "staging creds -> deploy / password: Hq7zLm2Wx9pRt4Vb", "Hq7zLm2Wx9pRt4Vb"},
		{"slash label pass", "user: admin / pass: hunter2-Blue", "hunter2-Blue"},
		{"slash label prose", "login: ops / pw: see vault", ""},
		{"slash placeholder", "creds for the demo tenant → admin@demo.acme.io / <password>", ""},
		{"slash path", "login -> /home/ops/.ssh/config", ""},
		{"slash other label", "user → admin / role: owner", ""},
	})
}
