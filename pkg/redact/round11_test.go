package redact

import "testing"

// TestRound11 holds shapes written for the eleventh round's mechanisms
// (none from any corpus): each mechanism's catches and the look-alikes it
// must leave intact.
func TestRound11(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		// codeRules: recovery, backup and bypass codes and hand-typed
		// authenticator seeds, by the shape of codes after their name.
		{"dropbox backup codes lines", "Dropbox backup codes\n\nq8mz 4kd1\nr2vw 9xpt\nb7hc 3nfe", "Dropbox backup codes\n\n[REDACTED]"},
		{"slack backup codes inline", "slack backup codes: 6381-0271, 5592-8810, 0047-3316", "slack backup codes: [REDACTED]"},
		{"npm recovery codes hex", "npm 2FA recovery codes 7f3a9c21e0b4d5f6 0c9e8d7b6a5f4e3d 11aa22bb33cc44dd", "npm 2FA recovery codes [REDACTED]"},
		{"coinbase recovery code single", "Coinbase recovery code — J7QX-2MPA-9KWE-4TZN", "Coinbase recovery code — [REDACTED]"},
		{"okta bypass", "Okta MFA bypass code for Sam: 40918237 (expires tonight)", "Okta MFA bypass code for Sam: [REDACTED] (expires tonight)"},
		{"lastpass one-time recovery", "LastPass one-time recovery code (printed): 8GH2K4-ZQ91M3", "LastPass one-time recovery code (printed): [REDACTED]"},
		{"emergency kit code", "1Password emergency code 'A3-KX92LP-Q7T4MZ' in the safe", "1Password emergency code 'A3-KX92LP-Q7T4MZ' in the safe"},
		{"scratch codes google auth", "google-authenticator scratch codes:\n  47192835\n  90271164\n  55210938", "google-authenticator scratch codes:\n  [REDACTED]"},
		{"steam-like single", "Epic Games backup code X72K9Q used today", "Epic Games backup code [REDACTED] used today"},
		{"yaml mfa seed", "admin:\n  mfa_secret: 3mq7 kzpa 8r2d vt6w", "admin:\n  mfa_secret: [REDACTED]"},
		{"json backup codes", `{"user":"ops","backup_codes":["73910482","10299374","55810263"]}`, `{"user":"ops","backup_codes":["[REDACTED]","10299374","55810263"]}`},
		{"totp seed chat", "the TOTP seed for the kiosk account is xk2q 9vmd pl4r 7wtz, add it to your phone", "the TOTP seed for the kiosk account is [REDACTED], add it to your phone"},
		{"setup key", "Authy asked for the setup key; used 6ZQT 4MXP 2KRV 8BNL", "Authy asked for the setup key; used [REDACTED]"},
		{"manual entry", "Or enter the code manually:\nJ4RT KQ7Z M2WX 9PLE", "Or enter the code manually:\n[REDACTED]"},
		{"rescue codes", "Atlassian rescue codes 2210-8837 9914-0023", "Atlassian rescue codes [REDACTED]"},
		// Look-alikes: a name followed by prose, a count, a date, a ticket,
		// a format, a path, a hash's name.
		{"advice stays", "Store your recovery codes in a safe place; each can be used once.", "Store your recovery codes in a safe place; each can be used once."},
		{"count stays", "GitHub shows 16 recovery codes after you enable 2FA, keep them", "GitHub shows 16 recovery codes after you enable 2FA, keep them"},
		{"remaining stays", "backup codes: 10 remaining (regenerate at /settings/security)", "backup codes: 10 remaining (regenerate at /settings/security)"},
		{"format stays", "recovery code format is XXXXX-XXXXX (ten characters)", "recovery code format is XXXXX-XXXXX (ten characters)"},
		{"date stays", "recovery codes were regenerated on 2026-11-20 by admin", "recovery codes were regenerated on 2026-11-20 by admin"},
		{"date file stays", "backup codes 2026-11-20.txt moved to the vault", "backup codes 2026-11-20.txt moved to the vault"},
		{"ticket stays", "2FA secret rotated: OPS-48213", "2FA secret rotated: OPS-48213"},
		{"hash name stays", "backup codes are stored sha256-hashed", "backup codes are stored sha256-hashed"},
		{"rfc stays", "TOTP secret per RFC6238, 30 s step", "TOTP secret per RFC6238, 30 s step"},
		{"backup key path stays", "backup key: s3://acme-backups/keys/2026", "backup key: s3://acme-backups/keys/2026"},
		{"setup key length stays", "setup key length is 32 characters in base32", "setup key length is 32 characters in base32"},
		{"ttl stays", "bypass code TTL: 3600 seconds", "bypass code TTL: 3600 seconds"},
		{"years stay", "recovery codes issued 2024 2025", "recovery codes issued 2024 2025"},
		{"backup schedule stays", "backup keys rotate weekly\n\nmon tue wed\nthu fri", "backup keys rotate weekly\n\nmon tue wed\nthu fri"},
		{"manual docs stays", "If scanning fails, enter the key manually in the app settings.", "If scanning fails, enter the key manually in the app settings."},
		{"otp length stays", "OTP codes are 6 digits, 30 second window", "OTP codes are 6 digits, 30 second window"},
		// proseRule: a password word and its value with no verb between
		// (a login listed: "user support, password krokus-quokka-98"), the
		// value words joined with a number, or capitals, small letters and
		// a symbol without a digit; the password's word in more languages
		// (clave, passord, parola, contrasinal, zaporka). Look-alikes: a
		// name with a version, a host's numbering, a year, a field.
		{"prose 0", "Access: user support, password krokus-quokka-98. Delete this after.", "Access: user support, password [REDACTED]. Delete this after."},
		{"prose 1", "Te paso el acceso: usuario soporte, clave krokus-quokka-98. Bórralo cuando entres.", "Te paso el acceso: usuario soporte, clave [REDACTED]. Bórralo cuando entres."},
		{"prose 2", "Přístup na FTP: uživatel web, heslo pelican-papaya-51", "Přístup na FTP: uživatel web, heslo [REDACTED]"},
		{"prose 3", "Testitunnukset: käyttäjä testi, salasana tamarind-tangerine-92", "Testitunnukset: käyttäjä testi, salasana [REDACTED]"},
		{"prose 4", "Brukernavn drift, passord ouzo-nordlicht-83 – slett meldingen etterpå", "Brukernavn drift, passord [REDACTED] – slett meldingen etterpå"},
		{"prose 5", "Zugang: Benutzer ops, Passwort walnuss-gletscher-47", "Zugang: Benutzer ops, Passwort [REDACTED]"},
		{"prose 6", "Accès : utilisateur web, mot de passe citron-falaise-63", "Accès : utilisateur web, mot de passe [REDACTED]"},
		{"prose 7", "Login: utente admin, password mirtillo_vulcano_28", "Login: utente admin, password [REDACTED]"},
		{"prose 8", "Dostęp: login deploy, hasło kajak.borsuk.71", "Dostęp: login deploy, hasło [REDACTED]"},
		{"prose 9", "Доступ: логин admin, пароль tundra-kolibri-39", "Доступ: логин admin, пароль [REDACTED]"},
		{"prose 10", "Erişim: kullanıcı ops, şifre lale-vapur-55", "Erişim: kullanıcı ops, şifre [REDACTED]"},
		{"prose 11", "Gebruiker beheer, wachtwoord tulp-molen-84", "Gebruiker beheer, wachtwoord [REDACTED]"},
		{"prose 12", "Zaporka za administratorski račun je 5ekL04$bo9x2", "Zaporka za administratorski račun je [REDACTED]"},
		{"prose 13", "The server password is NUXKLz$ShCQO", "The server password is [REDACTED]"},
		{"prose 14", "root password yNmvad~wfxkb (rotate monthly)", "root password [REDACTED] (rotate monthly)"},
		{"prose 15", "Date de logare: user deploy, parola DIlD=mMWcQ45#q", "Date de logare: user deploy, parola [REDACTED]"},
		{"prose 16", "password reset-flow-v2 is documented in the wiki", "password reset-flow-v2 is documented in the wiki"},
		{"prose 17", "the password policy-check runs nightly", "the password policy-check runs nightly"},
		{"prose 18", "Heslo najdeš v trezoru pod položkou web-ftp-01", "Heslo najdeš v trezoru pod položkou web-ftp-01"},
		{"prose 19", "salasana vaihdetaan joka kuukausi, katso wiki-sivu-12", "salasana vaihdetaan joka kuukausi, katso wiki-sivu-12"},
		{"prose 20", "password hashing uses argon2id-v19", "password hashing uses argon2id-v19"},
		{"prose 21", "The password field maps to Config.Password in the struct", "The password field maps to Config.Password in the struct"},
		{"prose 22", "password strength: Weak-Medium-Strong", "password strength: Weak-Medium-Strong"},
		// A command's own syntax for a secret: Oracle's USER/PASSWORD for
		// every tool that takes it, a secret-setting subcommand's value by
		// flag or position, openssl's pass:'…', a value piped to
		// --passwd-on-stdin, SQLCipher's PRAGMA key; a switch (--secret)
		// before a name, a reference, a file, a stand-in stay.
		{"cli 0", "sudo mysqladmin -u root password 'cordillera-pavlova-53'", "sudo mysqladmin -u root password '[REDACTED]'"},
		{"cli 1", "expdp system/Bramble~0303 schemas=HR directory=DATA_PUMP_DIR dumpfile=hr.dmp", "expdp system/[REDACTED] schemas=HR directory=DATA_PUMP_DIR dumpfile=hr.dmp"},
		{"cli 2", "impdp hr/Kq7mZ2pX@orcl directory=dp dumpfile=hr.dmp", "impdp hr/[REDACTED]@orcl directory=dp dumpfile=hr.dmp"},
		{"cli 3", "rman target sys/KrokusT5528@PRODCDB catalog rman/rman@RCAT", "rman target sys/[REDACTED]@PRODCDB catalog rman/rman@RCAT"},
		{"cli 4", "dgmgrl sys/Wq4!zpL9@prim \"show configuration\"", "dgmgrl sys/[REDACTED]@prim \"show configuration\""},
		{"cli 5", "exp scott/Tg5pLm2q file=scott.dmp", "exp scott/[REDACTED] file=scott.dmp"},
		{"cli 6", "openssl enc -d -aes-256-cbc -pbkdf2 -in backup.tar.enc -out backup.tar -pass pass:'borscht-borscht-34'", "openssl enc -d -aes-256-cbc -pbkdf2 -in backup.tar.enc -out backup.tar -pass pass:'[REDACTED]'"},
		{"cli 7", "gh secret set SLACK_BOT_PASSWORD --body 'CVY988@icfy_' --repo acme/deployer", "gh secret set SLACK_BOT_PASSWORD --body '[REDACTED]' --repo acme/deployer"},
		{"cli 8", "gh secret set NPM_TOKEN -b npm_Xq7mLp2Zr9TtW4vBn8KcD3fH6jY1sQ0aE5uG", "gh secret set NPM_TOKEN -b [REDACTED:npm-token]"},
		{"cli 9", "pulumi config set --secret dbPassword 'OJF818$itwu^'", "pulumi config set --secret dbPassword '[REDACTED]'"},
		{"cli 10", "doppler secrets set STRIPE_KEY sk_live_51Hq8zLm2Vx7Rt4Wn9Kp3Qs6Yd", "doppler secrets set STRIPE_KEY [REDACTED:api-key]"},
		{"cli 11", "dotnet user-secrets set \"Smtp:Password\" \"Hq8zLm2Vx!\"", "dotnet user-secrets set \"Smtp:Password\" \"[REDACTED]\""},
		{"cli 12", "az keyvault secret set --vault-name kv1 --name db-pass --value 'Tz8#qLm2Vx'", "az keyvault secret set --vault-name kv1 --name db-pass --value '[REDACTED]'"},
		{"cli 13", "aws secretsmanager put-secret-value --secret-id prod/db --secret-string 'Rq7!mZ2pX9wL'", "aws secretsmanager put-secret-value --secret-id prod/db --secret-string '[REDACTED]'"},
		{"cli 14", "echo 'Marmelade~1145' | sudo openconnect --user=jdoe --passwd-on-stdin vpn.corp.example.com", "echo '[REDACTED]' | sudo openconnect --user=jdoe --passwd-on-stdin vpn.corp.example.com"},
		{"cli 15", "sqlite> PRAGMA key = 'Bramble26Nordlicht?';\nsqlite> SELECT count(*) FROM messages;", "sqlite> PRAGMA key = '[REDACTED]';\nsqlite> SELECT count(*) FROM messages;"},
		{"cli 16", "PRAGMA main.rekey = 'Nw5!kPq2zX';", "PRAGMA main.rekey = '[REDACTED]';"},
		{"cli 17", "sqlplus / as sysdba", "sqlplus / as sysdba"},
		{"cli 18", "sqlplus /nolog", "sqlplus /nolog"},
		{"cli 19", "rman target /", "rman target /"},
		{"cli 20", "expdp help=y", "expdp help=y"},
		{"cli 21", "exp file=exports/hr.dmp log=exports/hr.log", "exp file=exports/hr.dmp log=exports/hr.log"},
		{"cli 22", "impdp scott/${DB_PW}@orcl directory=dp", "impdp scott/${DB_PW}@orcl directory=dp"},
		{"cli 23", "gh secret set NPM_TOKEN < token.txt", "gh secret set NPM_TOKEN < token.txt"},
		{"cli 24", "gh secret set NPM_TOKEN --body \"$NPM_TOKEN\"", "gh secret set NPM_TOKEN --body \"$NPM_TOKEN\""},
		{"cli 25", "gh secret list", "gh secret list"},
		{"cli 26", "pulumi config set --secret dbPassword", "pulumi config set --secret dbPassword"},
		{"cli 27", "pulumi config set region us-east-1", "pulumi config set region us-east-1"},
		{"cli 28", "aws secretsmanager put-secret-value --secret-id prod/db --secret-string file://secret.json", "aws secretsmanager put-secret-value --secret-id prod/db --secret-string file://secret.json"},
		{"cli 29", "az keyvault secret set --vault-name kv1 --name db-pass --file secret.txt", "az keyvault secret set --vault-name kv1 --name db-pass --file secret.txt"},
		{"cli 30", "PRAGMA key = '<your-key-here>';", "PRAGMA key = '<your-key-here>';"},
		{"cli 31", "PRAGMA journal_mode = 'WAL';", "PRAGMA journal_mode = 'WAL';"},
		{"cli 32", "docker secret create db_pass ./db_pass.txt", "docker secret create db_pass ./db_pass.txt"},
		{"cli 33", "kubectl create secret generic app --from-file=./creds", "kubectl create secret generic app --from-file=./creds"},
		// A password named at a line's end, its value alone on a line
		// below; a description, a reference, a path, a stand-in stay.
		{"next line 0", "root password for the new hypervisor:\n\n    HE1A0Bw6SfFNfQ\n\nstore it in the vault please", "root password for the new hypervisor:\n\n    [REDACTED]\n\nstore it in the vault please"},
		{"next line 1", "Nuevo contraseña del router:\nKq7#pLm2zX", "Nuevo contraseña del router:\n[REDACTED]"},
		{"next line 2", "WLAN-Passwort:\n  Gx8!wQz2Lm\n", "WLAN-Passwort:\n  [REDACTED]\n"},
		{"next line 3", "Hasło do bazy:\n\n  tR5$kLm9Qz", "Hasło do bazy:\n\n  [REDACTED]"},
		{"next line 4", "admin password:\n9f8e7d6c5b4a39281706f5e4d3c2b1a0", "admin password:\n[REDACTED]"},
		{"next line 5", "Password requirements:\n\n    at least 12 characters", "Password requirements:\n\n    at least 12 characters"},
		{"next line 6", "password:\n    ${DB_PASSWORD}", "password:\n    ${DB_PASSWORD}"},
		{"next line 7", "Password reset steps:\n\n1. open the portal", "Password reset steps:\n\n1. open the portal"},
		{"next line 8", "The password file:\n\n/etc/app/secret.txt", "The password file:\n\n/etc/app/secret.txt"},
		{"next line 9", "Password policy:\nMinimum-Length-12", "Password policy:\nMinimum-Length-12"},
		{"next line 10", "password:\n  <set-in-vault>", "password:\n  <set-in-vault>"},
	} {
		if got := String(tt.in); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
