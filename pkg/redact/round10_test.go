package redact

import "testing"

// TestRound10 holds shapes written for the tenth round's mechanisms (none
// from any corpus): each mechanism's catches and the look-alikes it must
// leave intact.
func TestRound10(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		// A flag documented rather than given, a value still to be filled
		// in, nsswitch's sources, a Terraform attribute reference, a
		// minisign public key.
		{"documented flag", "mosquitto_pub -P takes the broker password in clear", "mosquitto_pub -P takes the broker password in clear"},
		{"sshpass reference", "sshpass -p \"$SSH_PW\" rsync -a build/ host:/srv", "sshpass -p \"$SSH_PW\" rsync -a build/ host:/srv"},
		{"todo value", "smtp_password: TBD (waiting on IT)", "smtp_password: TBD (waiting on IT)"},
		{"nsswitch shadow", "shadow:     compat\npasswd:     compat", "shadow:     compat\npasswd:     compat"},
		{"terraform attribute", "master_password = aws_secretsmanager_secret_version.rds.secret_string", "master_password = aws_secretsmanager_secret_version.rds.secret_string"},
		{"minisign verify", "minisign -V -P RWRh+lDcT8Zc0Hx8tM5Qd0PLtm3vJk2oZQd6s2OV1J5vWmKqkVbV3Z2b -m app.zip", "minisign -V -P RWRh+lDcT8Zc0Hx8tM5Qd0PLtm3vJk2oZQd6s2OV1J5vWmKqkVbV3Z2b -m app.zip"},
		{"sshpass given", "sshpass -p 'Tq8!vmR2zx' ssh ops@db1", "sshpass -p '[REDACTED]' ssh ops@db1"},
		// A passphrase of words where a secret is named.
		{"config line passphrase", "smtp_pass lantern-orchard-velvet-copper", "smtp_pass [REDACTED]"},
		{"setter passphrase", `cfg.setSecret("harbor_mosaic_thimble_quartz");`, `cfg.setSecret("[REDACTED]");`},
		{"env fallback passphrase", `pw = ENV.fetch("SMTP_PW", "walnut.glacier.ribbon.anvil")`, `pw = ENV.fetch("SMTP_PW", "[REDACTED]")`},
		{"quoted spaced passphrase", `Heslo k serveru je "copper lantern meadow violet"`, `Heslo k serveru je "[REDACTED]"`},
		// carryRules: the syntax that carries a secret.
		{"kotlin typed val", `val smtpPassword: String = "Orbit-4471-kayak"`, `val smtpPassword: String = "[REDACTED]"`},
		{"typed empty stays", `let dbPassword: string = ""; const apiTokenHeader: string = "X-Api-Token"`, `let dbPassword: string = ""; const apiTokenHeader: string = "X-Api-Token"`},
		{"vb dim", `Dim adminPwd As String = "Lk8#vq2Ze!"`, `Dim adminPwd As String = "[REDACTED]"`},
		{"tsql declare", `DECLARE @secret VARCHAR(64) = 'Rq7mZ2pX9wLt4vBn'`, `DECLARE @secret VARCHAR(64) = '[REDACTED]'`},
		{"elixir tuple", `{:password, "Hm4!zpQ8rT"}`, `{:password, "[REDACTED]"}`},
		{"brace init stays for a name", `std::string token_header{"Authorization"};`, `std::string token_header{"Authorization"};`},
		{"yaml block scalar", "mail:\n  smtp_password: >-\n    Vq9!mLp2Xz7c\n", "mail:\n  smtp_password: >-\n    [REDACTED]\n"},
		{"yaml block prose stays", "help:\n  password: |\n    Ask the on-call for it\n", "help:\n  password: |\n    Ask the on-call for it\n"},
		{"dockerfile env", "ENV STRIPE_SECRET rV7q2LmX9pZt4wKc", "ENV STRIPE_SECRET [REDACTED]"},
		{"setenv name only stays", "SetEnv APP_ENV production\nENV PASSWORD_FILE /run/secrets/db", "SetEnv APP_ENV production\nENV PASSWORD_FILE /run/secrets/db"},
		{"go dsn", `db, _ := sql.Open("mysql", "svc:Pq4-rmT9-zz@tcp(10.0.0.5:3306)/app")`, `db, _ := sql.Open("mysql", "svc:[REDACTED]@tcp(10.0.0.5:3306)/app")`},
		{"redis auth", "db1:6380> AUTH ops Hq8zLm2Vx\nOK", "db1:6380> AUTH ops [REDACTED]\nOK"},
		{"ldappasswd", "ldappasswd -H ldap://dc1 -x -D cn=admin -w Admin#771 -s Nw5!kPq2 uid=bo", "ldappasswd -H ldap://dc1 -x -D cn=admin -w [REDACTED] -s [REDACTED] uid=bo"},
		{"ldapsearch scope stays", "ldapsearch -x -s sub -b dc=acme uid=bo", "ldapsearch -x -s sub -b dc=acme uid=bo"},
		{"ssh-keygen empty passphrase stays", "ssh-keygen -t ed25519 -N '' -f id_ci", "ssh-keygen -t ed25519 -N '' -f id_ci"},
		{"oathtool", "oathtool --totp --base32 JBSWY3DPEHPK3PXPQ2ZR", "oathtool --totp --base32 [REDACTED]"},
		{"wifi qr", "WIFI:S:Lab;T:WPA;P:Kq7#pLm2z;;", "WIFI:S:Lab;T:WPA;P:[REDACTED];;"},
		{"bitlocker", "BitLocker: 123456-234567-345678-456789-567890-678901-789012-890123", "BitLocker: [REDACTED:secret-value]"},
		{"echo to key file", "echo 9f8e7d6c5b4a39281706f5e4d3c2b1a0 > secrets/app.key", "echo [REDACTED] > secrets/app.key"},
		{"echo word to file stays", "echo production > config/secret_env_name", "echo production > config/secret_env_name"},
		// Round 16: the layout (numbered 1..12, one a line) is found by
		// pkg/mnemonic first, from the first word on.
		{"numbered seed", "wallet seed, keep offline:\n1. apple\n2. river\n3. stone\n4. cloud\n5. tiger\n6. lemon\n7. piano\n8. frost\n9. maple\n10. orbit\n11. sugar\n12. vivid", "wallet seed, keep offline:\n1. [REDACTED:mnemonic]"},
		{"numbered steps stay", "recovery steps:\n1. stop\n2. wipe\n3. restore", "recovery steps:\n1. stop\n2. wipe\n3. restore"},
		// proseCarryRules and a listing's shapes: a generated value only.
		{"set name to value", "set `API_TOKEN` to `f3K9qLm2Zx7Vb1Nc8Rt4` in the dashboard", "set `API_TOKEN` to `[REDACTED]` in the dashboard"},
		{"set name to a word stays", "set `CACHE_KEY` to `user-profile-v2` for now", "set `CACHE_KEY` to `user-profile-v2` for now"},
		{"arrow", "API key -> 7fQ2mZ9xLk3Vb8Nc1Rt5Wy", "API key -> [REDACTED]"},
		{"arrow words stay", "key -> value mapping; token -> session -> user", "key -> value mapping; token -> session -> user"},
		{"parenthetical", "STRIPE_KEY (live) = rk9Q2mZ7xLk3Vb8Nc1Rt", "STRIPE_KEY (live) = [REDACTED]"},
		{"parenthetical name stays", "cache_key (string) = user_profile_v2", "cache_key (string) = user_profile_v2"},
		{"heredoc credentials", "cat > ~/.vpn/creds.txt <<EOF\nops\nTurbine2041\nEOF", "cat > ~/.vpn/creds.txt <<EOF\nops\n[REDACTED]\nEOF"},
		{"echo into stdin flag", "echo 'Xq7-rLm2-Zp9' | tool login --token-file=- --org acme", "echo '[REDACTED]' | tool login --token-file=- --org acme"},
		{"key column", "| service | key |\n|---|---|\n| billing | Zk8Qm2Lx9Vb3Nc7Rt1Wy4Pq |", "| service | key |\n|---|---|\n| billing | [REDACTED] |"},
		{"key column of names stays", "| table | key |\n|---|---|\n| users | user_id |", "| table | key |\n|---|---|\n| users | user_id |"},
		// A literal a comment calls a write or server key; "not
		// search-only" says it is not the public one.
		{"comment write key", `mp := mixpanel.New("Ab3dE6gH9jK2mN5pQ8rS1tV4") // project write key`, `mp := mixpanel.New("[REDACTED]") // project write key`},
		{"comment not public", `idx := search.Init("APP", "Ab3dE6gH9jK2mN5pQ8rS1tV4") // not public: admin key`, `idx := search.Init("APP", "[REDACTED]") // not public: admin key`},
		{"comment public key stays", `idx := algoliasearch("APP", "Ab3dE6gH9jK2mN5pQ8rS1tV4") // public search-only key`, `idx := algoliasearch("APP", "Ab3dE6gH9jK2mN5pQ8rS1tV4") // public search-only key`},
		{"armenian article", "Վահանակի գաղտնաբառը Rt7mQ2zLx9Vb է", "Վահանակի գաղտնաբառը [REDACTED] է"},
		// A numbered key's label, "login: user / password", a path call
		// as no value, a hex secret after an id in a client's call.
		{"numbered key label", "primary keys → key2: Rq8mL2xV9pT4wKc7rN1bH6jF3sD5gA0eY2uI8oP4lM==", "primary keys → key2: [REDACTED]"},
		{"login colon", "login: ops / Lq2#zX9mPv", "login: ops / [REDACTED]"},
		{"url userinfo placeholder stays", "postgres://user:password@localhost:5432/app", "postgres://user:password@localhost:5432/app"},
		{"path call is no value", `let token = Token::from_env("API_TOKEN");`, `let token = Token::from_env("API_TOKEN");`},
		{"hex secret after id", `c := api.NewClient("acct_8812", "4f9a1c7e2b6d8a0c3e5f7a9b1d3c5e7f")`, `c := api.NewClient("acct_8812", "[REDACTED]")`},
		{"google refresh token", "refresh_token from the consent flow: 1//0eXq8mL2xV9pT4wKc7rN1bH6jF3sD5gA0eY2uI8oP4l", "refresh_token from the consent flow: [REDACTED:vendor-token]"},
		{"arrow after a password word", "grafana admin pw -> Lq2#zX9mPv", "grafana admin pw -> [REDACTED]"},
		{"arrow after a password word, a word stays", "password -> hashed -> stored", "password -> hashed -> stored"},
		{"names stay", `kubectl get secret db-creds-eu && setToken("fetch_user_id")`, `kubectl get secret db-creds-eu && setToken("fetch_user_id")`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
