package redact

import "testing"

// TestRound13 holds shapes written for the thirteenth round's classes
// (none from any corpus): each class's catches, by their secret, and the
// look-alikes it must leave intact (secret "").
func TestRound13(t *testing.T) {
	judgeRound(t, []roundCase{
		// A value of any printable bytes under a secret's name.
		{"env symbols", "export API_SECRET='Rw3?mZ^q8Lp[x'\n", "Rw3?mZ^q8Lp[x"},
		{"yaml symbols", "smtp:\n  password: \"Tq7]vv~Mw0#e\"\n", "Tq7]vv~Mw0#e"},
		{"toml caret", "signing_key = \"Hb5^Nq2?Xw8!Lc\"\n", "Hb5^Nq2?Xw8!Lc"},
		{"properties escape", "mail.smtp.password=Qe\\:wRt5_Yu!Io\n", "Qe\\:wRt5_Yu!Io"},
		{"bare PASS words", "PASS=tangerine_4410walrus\n", "tangerine_4410walrus"},
		{"pwd words number", "DB_PWD: ember-2231glacier\n", "ember-2231glacier"},
		// The name in the person's own language, as an identifier.
		{"de name", "kennwort_smtp=Lx93mPqr7Tz\n", "Lx93mPqr7Tz"},
		{"fr name", "MOT_DE_PASSE_API='bouleau-8812-renard'\n", "bouleau-8812-renard"},
		{"es name", "contrasena_admin: \"Ñu7Qx!2mPz\"\n", "Ñu7Qx!2mPz"},
		{"pt name", "senha_smtp=guarda-chuva-7741azul\n", "guarda-chuva-7741azul"},
		{"ru name", "ПАРОЛЬ_БД=Vq8!nWz3Lp\n", "Vq8!nWz3Lp"},
		{"pl name", "haslo_bazy = \"Kw9#pLm2Zx\"\n", "Kw9#pLm2Zx"},
		{"nl name", "WACHTWOORD_DB=tulp-molen-5520\n", "tulp-molen-5520"},
		{"tr name", "sifre_veritabani: Zx8!kLm3Qp\n", "Zx8!kLm3Qp"},
		{"escaped key", "app.contrase\\u00f1a.db=Wm4~rT8-Qz2x\n", "Wm4~rT8-Qz2x"},
		// setx and a key string then its value.
		{"setx", "setx GITHUB_TOKEN ghx_9f8Qz2LmN4pR7sT1vW3yX5aB\n", "ghx_9f8Qz2LmN4pR7sT1vW3yX5aB"},
		{"setx quoted", "setx DB_PASSWORD \"Pq8!mZ3xLw\" /M\n", "Pq8!mZ3xLw"},
		{"putenv pair", "putenv(\"SMTP_SECRET\", \"K9[xQ]m2Lp7Zw\");\n", "K9[xQ]m2Lp7Zw"},
		{"dict pair", "env.setdefault('STRIPE_TOKEN', 'tk_Q8mZ2xLw9pR4nT7v')\n", "tk_Q8mZ2xLw9pR4nT7v"},
		// A secret's name ending its line, its value alone below.
		{"below fenced", "Here is the new `HEROKU_API_KEY`:\n\n```\nf3a9c1d2e8b7461a9c0d5e4f3b2a1908\n```\n", "f3a9c1d2e8b7461a9c0d5e4f3b2a1908"},
		{"below set to", "we exported DATADOG_APP_KEY set to\nq7x2m9c4v8b1n6z3k5j0h2g7f4d9s1a8\nafter the rotation\n", "q7x2m9c4v8b1n6z3k5j0h2g7f4d9s1a8"},
		{"below colon", "SENDGRID_TOKEN:\n  sgx.Q8mZ2xLw9pR4nT7vB3kY6hJ1fD5sA0\n", "sgx.Q8mZ2xLw9pR4nT7vB3kY6hJ1fD5sA0"},
		// An element named for a password with a namespace, attributes,
		// CDATA or a nested value.
		{"xml ns attr", "<ns2:Password Type=\"Text\">Hq8mZ2xLw9</ns2:Password>", "Hq8mZ2xLw9"},
		{"xml encoded attr", "<Password encoding=\"base64\">cGFzc3dvcmQxMjM0NTY3OA==</Password>", "cGFzc3dvcmQxMjM0NTY3OA=="},
		{"xml cdata", "<apiSecret><![CDATA[Zq9!mL2x#Pw7]]></apiSecret>", "Zq9!mL2x#Pw7"},
		{"xml nested value", "<DomainPassword>\n  <Value>Lm8~Qz3xWp</Value>\n</DomainPassword>", "Lm8~Qz3xWp"},
		// An armored block naming a static or secret key.
		{"static key", "-----BEGIN WireGuard Static Key-----\n0a1b2c3d4e5f60718293a4b5c6d7e8f9\n-----END WireGuard Static Key-----", "0a1b2c3d4e5f60718293a4b5c6d7e8f9"},

		// Where a file format or a command puts the secret (layout.go).
		{"pap column", "# client\tserver\tpassword\tIP\nbob\tvpn1\tQw8!zPl2Xm\t*", "Qw8!zPl2Xm"},
		{"chpasswd list", "chpasswd:\n  expire: true\n  list: |\n    admin:Tz8qPw4LmN\n", "Tz8qPw4LmN"},
		{"redis acl setuser", "ACL SETUSER app on >Rk7!mQz2Lp ~cache:* +get", "Rk7!mQz2Lp"},
		{"nslcd binddn bindpw", "binddn cn=reader,dc=corp bindpw Hy6-vQx2Lm!", "Hy6-vQx2Lm!"},
		{"davfs line", "/mnt/share alice Zq8mL2xWp9\n# davfs2 secrets", "Zq8mL2xWp9"},
		{"typed at prompt", "I pasted Wx7!kLq2Zm into the vault prompt and it worked", "Wx7!kLq2Zm"},
		{"auth in write", "sendto(4, \"AUTH default Pq9.mZx-Lw7K\\r\\n\", 30, 0) = 30", "Pq9.mZx-Lw7K"},
		{"url token segment", "index-url: https://pkgs.example.com/t/q8Zm2xLw9pR4nT7vB3kY/simple", "q8Zm2xLw9pR4nT7vB3kY"},
		{"cat pw file", "$ cat /etc/ansible/.become_pass\nQx7#mLp2Zw\n", "Qx7#mLp2Zw"},
		{"base64 keystore", "base64 -i release.jks\nMIIKZgIBAzCCCiAGCSqGSIb3DQEHAaCCChEEggoNMIIKCTCCBb0GCSqGSIb3DQEHAaCCBa4EggWqMIIFpjCCBaIGCyqGSIb3", "MIIKZgIBAzCCCiAGCSqGSIb3"},
		{"seed in parens", "wallet seed (hex): 9f2c4e6a8b0d1f3e5a7c9b2d4f6e8a0c1b3d5f7e9a2c4b6d8f0e1a3c5b7d9f2e", "9f2c4e6a8b0d1f3e5a7c9b2d4f6e8a0c"},
		{"oath add", "oathtool setup: 2fa add github JBSWY3DPEHPK3PXPJBSWY3DP", "JBSWY3DPEHPK3PXPJBSWY3DP"},
		{"mc user add", "mc admin user add minio ci-bot Pq8!zLm2Xw", "Pq8!zLm2Xw"},
		{"database call", "conn = database('sales', 'report', 'Lq9#mZx2Pw');", "Lq9#mZx2Pw"},
		{"rust raw", "let db_pass = r#\"Zx8!qLm2Pw9~\"#;", "Zx8!qLm2Pw9~"},
		{"wrapped jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmMiLCJ\nyb2xlIjoiYWRtaW4ifQ.Qm9vYmFyYmF6cXV4MTIzNA", "yb2xlIjoiYWRtaW4ifQ"},
		{"mc card", "MC: 5239-1748-8806-2317", "5239-1748-8806-2317"},
		{"hr prose", "Lozinka za bazu je Kv8mQz2Lp!", "Kv8mQz2Lp!"},
		{"romaji prose", "pasuwaado wa Zq8-mLp2Xw desu", "Zq8-mLp2Xw"},
		{"letters only", "the staging şifresi qWeRtZuIoPaSdFgH, paylaşma", "qWeRtZuIoPaSdFgH"},
		{"ja brackets", "サーバーのパスワードは「Xy7qLm2Pwz」です", "Xy7qLm2Pwz"},
		{"zh brackets", "测试库的密码是“Qz8mLp2Xw”", "Qz8mLp2Xw"},
		{"printf basic", "curl -H \"Authorization: Basic $(printf 'ci:%s' 'q8zm2xlw9pr4nt7vb3ky6hj1fd5sa0' | base64)\" https://git.example.com", "q8zm2xlw9pr4nt7vb3ky6hj1fd5sa0"},
		{"echo basic", "echo -n 'deploy:Xq7!mZp2Lw' | base64", "Xq7!mZp2Lw"},
		{"chat creds", "<dana> who has the staging db login?\n<li> root / Pq8mZx2Lw!", "Pq8mZx2Lw!"},
		{"printf var", "printf ':%s' \"$PAT\" | base64", ""},
		{"chat path", "where's the password file?\nops / etc/secrets/db", ""},
		// and what stays
		{"column no secret", "# host port user\ndb1 5432 app", ""},
		{"redis acl reset", "ACL SETUSER app on nopass ~* +@read", ""},
		{"typed command", "I typed make test at the shell prompt and it passed", ""},
		{"url no token", "https://conda.anaconda.org/t/conda-forge/linux-64", ""},
		{"tx signature", "solana confirm -v 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW", ""},
		{"database call plain", "db = database('analytics', 'utf8mb4')", ""},

		// Look-alikes: what names, identifies or describes a secret.
		{"token id uuid", "refresh_token_id: 3f0e1c2a-9b8d-4e7f-a6c5-b4d3e2f1a0b9", ""},
		{"password length", "PASSWORD_MIN_LENGTH=12", ""},
		{"password regex", "password_pattern: \"^[A-Za-z0-9!@#]{12,}$\"", ""},
		{"password encryption", "password_encryption = scram-sha-256", ""},
		{"secret arn", "API_SECRET_ARN=arn:aws:secretsmanager:us-east-1:111122223333:secret:api-Xy12Ab", ""},
		{"secret name value", "KUBE_SECRET=payments-api-token", ""},
		{"flag secret name", "helm install x --set-string --secret=orders-db-password", ""},
		{"pwd dir", "PWD=/home/ci/work/2026-11-26", ""},
		{"key version", "signing_key_version: v2-2026", ""},
		{"below prose", "The TOKEN_TTL is set to\n3600 seconds in production\n", ""},
		{"below path", "DEPLOY_KEY:\n/etc/deploy/keys/id_ed25519\n", ""},
		{"xml policy", "<PasswordPolicy>strict</PasswordPolicy>", ""},
		{"xml expiry", "<TokenLifetime>3600</TokenLifetime>", ""},
		// Look-alikes by structure: a file's path under a secret's name, a
		// login method's parameter, a KDF's salt, a list of words that goes
		// on past twelve, a seed phrase a test must reject.
		{"from-file path", "kubectl create secret generic api --from-file=token=./secrets/api-token.txt", ""},
		{"sudoers nopasswd", "%ops ALL=(root) NOPASSWD: /usr/bin/journalctl", ""},
		{"env file path", "DB_PASSWORD_FILE=/run/secrets/db_password", ""},
		{"ssh key path", "ssh_private_key: ~/.ssh/id_ed25519", ""},
		{"vault method param", "vault login -method=userpass username=ops", ""},
		{"vault token still", "vault login s.Q8mZ2xLw9pR4nT7vB3kY6hJ1", "s.Q8mZ2xLw9pR4nT7vB3kY6hJ1"},
		{"kdf salt", "scrypt N=32768 r=8 p=1 salt=Qm9vYmFyYmF6cXV4MTIzNA==", ""},
		{"password salt still", "SECURITY_PASSWORD_SALT=Zq8mL2xWp9Rt4Nv7Bk3Y", "Zq8mL2xWp9Rt4Nv7Bk3Y"},
		{"word list", "tags: ocean, hammer, bottom, ribbon, citizen, fever, escape, wagon, lecture, upgrade, oval, coffee, orbit, sponsor", ""},
		{"comma seed", "seed words: during, advice, monkey, wink, humor, thrive, proud, busy, attract, discover, document, size", "during, advice, monkey"},
		{"comma list goes on", "top terms: during, advice, monkey, wink, humor, thrive, proud, busy, attract, discover, document, size, zoo", ""},
		{"comma list before", "top terms: zoo, during, advice, monkey, wink, humor, thrive, proud, busy, attract, discover, document, size", ""},
		{"bad seed fixture", "INVALID_SEED=\"wolf wolf wolf wolf wolf wolf wolf wolf wolf wolf wolf wolf\"", ""},
		{"public key block", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----", ""},
	})
}
