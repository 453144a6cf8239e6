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
		{"names stay", `kubectl get secret db-creds-eu && setToken("fetch_user_id")`, `kubectl get secret db-creds-eu && setToken("fetch_user_id")`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
