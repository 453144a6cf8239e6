package redact

import "testing"

// TestRound16 holds shapes written for the sixteenth round's classes (none
// from any corpus): a value that says where a secret is kept or how it is
// read is left intact, beside the real secret of the same shape; a key
// given as a literal to a signing or MAC call, a variable named …_KEY set
// by a shell's directive, a password piped to runas are caught.
func TestRound16(t *testing.T) {
	judgeRound(t, []roundCase{
		// A reference in the value's place: a YAML tag handing the value
		// to a store, an annotation or a call that reads it, a cmdlet that
		// prompts for it, a manifest's pointer by name.
		{"vault tag in xml", "<password>!vault |</password>", ""},
		{"vault tag block", "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6331", ""},
		{"home assistant secret", "wifi_password: !secret wifi_pw", ""},
		{"cloudformation ref", "MasterUserPassword: !Ref DbPassword", ""},
		{"esphome env", "password: !env_var DB_PASS", ""},
		{"spring value", "api_key = @Value(\"${spring.datasource.password}\")", ""},
		{"spring value export", "export API_KEY=@Value(\"${spring.datasource.password}\")", ""},
		{"spring field", "@Value(\"${jwt.secret}\") private String jwtSecret;", ""},
		{"getpass", "password = getpass.getpass(\"Password: \")", ""},
		{"environ get", "api_key = os.environ.get(\"API_KEY\")", ""},
		{"input call", "token = input(\"token: \")", ""},
		{"prompt call", "secret = prompt(\"Enter secret\")", ""},
		{"getter", "password = getPassword()", ""},
		{"secretKeyRef yaml", "password: secretKeyRef", ""},
		{"secretKeyRef properties", "spring.datasource.password=secretKeyRef", ""},
		{"valueFrom", "client_secret: valueFrom", ""},
		{"keyVaultReference", "DB_PASSWORD: keyVaultReference", ""},
		{"read-host", "$password = Read-Host -AsSecureString 'Password'", ""},
		{"get-secret", "$token = Get-Secret -Name GitHubToken -AsPlainText", ""},
		{"convertto", "$secure = ConvertTo-SecureString $plain -AsPlainText -Force", ""},
		{"get-credential", "$cred = Get-Credential", ""},
		// Real values of the same shapes stay caught.
		{"bang password", "password: !Xk9mQ2vLp8", "!Xk9mQ2vLp8"},
		{"bang glued", "DB_PASSWORD=!vault9Xk2pQ", "vault9Xk2pQ"},
		{"dash words", "password: Correct-Horse", "Correct-Horse"},
		{"dash digit", "password: Blue-Falcon7", "Blue-Falcon7"},
		{"ref-like", "password: fooRefX9", "fooRefX9"},
		{"at token", "token: @Xk9mQ2vLp8wZ", "Xk9mQ2vLp8wZ"},
		// A key given as a literal to a signing or MAC call.
		{"pyjwt encode", "token = jwt.encode(claims, \"Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa\", algorithm=\"HS256\")", "Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa"},
		{"node sign", "jwt.sign(payload, 'Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5', { expiresIn: '1h' })", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5"},
		{"node verify", "jwt.verify(token, 'Xk9mQ2vLp8wZr4Tq7Yb3Xk9mQ')", "Xk9mQ2vLp8wZr4Tq7Yb3Xk9mQ"},
		{"pyjwt decode", "jwt.decode(token, \"Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H\", algorithms=[\"HS256\"])", "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H"},
		{"python hmac", "mac = hmac.new(b\"Xk9mQ2vLp8wZr4Tq7Yb3\", msg, hashlib.sha256)", "Xk9mQ2vLp8wZr4Tq7Yb3"},
		{"node hmac", "crypto.createHmac('sha256', 'Lm2Qz7WxRt4Pk9Vb3Nc8').update(body)", "Lm2Qz7WxRt4Pk9Vb3Nc8"},
		{"jjwt", "Jwts.builder().signWith(Keys.hmacShaKeyFor(\"Wq9Lm2ZxTr7Pk4Vb8Nc3Yd6HWq9Lm2ZxTr7\".getBytes()))", "Wq9Lm2ZxTr7Pk4Vb8Nc3Yd6HWq9Lm2ZxTr7"},
		{"go jwt", "token, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(\"Px7Lq3WmZt8Rk2Vb9Nc4\"))", "Px7Lq3WmZt8Rk2Vb9Nc4"},
		{"php hmac", "$sig = hash_hmac('sha256', $body, 'Hx4qLm9TzWp2Rk7Vb3Nc');", "Hx4qLm9TzWp2Rk7Vb3Nc"},
		{"ruby hmac", "sig = OpenSSL::HMAC.hexdigest('SHA256', 'Qm7wTz2xLp9RtXc4Vb8N', data)", "Qm7wTz2xLp9RtXc4Vb8N"},
		// Stand-ins, references and a payload's claims stay.
		{"jwt stand-in", "jwt.encode(claims, \"secret\", algorithm=\"HS256\")", ""},
		{"jwt docs secret", "jwt.sign(payload, 'your-256-bit-secret')", ""},
		{"jwt env", "jwt.sign(payload, process.env.JWT_SECRET, { expiresIn: '1h' })", ""},
		{"jwt settings", "jwt.encode(claims, settings.SECRET_KEY, algorithm=\"HS256\")", ""},
		{"jwt claim", "jwt.sign({ sub: 'user-1234567890' }, key)", ""},
		{"jwt claim py", "jwt.encode({\"sub\": \"1234567890abcdef\"}, key, algorithm=\"HS256\")", ""},
		{"hmac message", "crypto.createHmac('sha256', secret).update('hello-world-message')", ""},
		// A variable named …_KEY set by a shell's directive, as export
		// sets it; a cache's or a sort's key stays.
		{"fish key", "set -gx MAPS_KEY Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5"},
		{"csh key", "setenv STRIPE_KEY Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H", "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H"},
		{"docker env key", "ENV SENTRY_KEY Lm2Qz7WxRt4Pk9Vb3Nc8Yd5H", "Lm2Qz7WxRt4Pk9Vb3Nc8Yd5H"},
		{"cache key stays", "set -gx CACHE_KEY session", ""},
		{"sort key stays", "set -gx SORT_KEY created_at", ""},
		// A password piped to runas (it reads the password from stdin).
		{"runas", "echo lantern-orbit-velvet-42| runas /user:CORP\\jdoe \"mmc.exe\"", "lantern-orbit-velvet-42"},
		{"runas savecred", "echo Xk9mQ2vLp8wZr4| runas /savecred /user:admin cmd", "Xk9mQ2vLp8wZr4"},
		// A password named with words between it and its colon, made of
		// letters and symbols with no digit; a login or a password set to a
		// value in prose; a credential named by its abbreviation (PAT, PSK,
		// WPA2 key, Wi-Fi key); a password given in a chat as the answer to
		// a question asking for it. Their look-alikes stay.
		{"told 0", "Пароль от сервера: taEbzXkDS--DSsJsFkbT", "taEbzXkDS--DSsJsFkbT"},
		{"told 1", "Hasło do serwera: Qz-XkDSmPtw_LsBvn", "Qz-XkDSmPtw_LsBvn"},
		{"told 2", "Reset the Grafana admin login to 2q4lGI0RQemS5AoWACABPHtl after the upgrade.", "2q4lGI0RQemS5AoWACABPHtl"},
		{"told 3", "Changed the root password to hedgehog-bottom-fruit-kit37 yesterday.", "hedgehog-bottom-fruit-kit37"},
		{"told 4", "Set the Jenkins admin login to Xk9mQ2vLp8wZr4 for now.", "Xk9mQ2vLp8wZr4"},
		{"told 5", "Office Wi-Fi: SSID Acme-Guest, WPA2 key YhJENbDilq3n9m3", "YhJENbDilq3n9m3"},
		{"told 6", "Guest Wi-Fi key: similar-satisfy-special-quiz80", "similar-satisfy-special-quiz80"},
		{"told 7", "PSK=Xk9mQ2vLp8wZr4Tq7", "Xk9mQ2vLp8wZr4Tq7"},
		{"told 8", "PAT: duaurvg3mdirejmkbtqupsdgcadddbdt3t36yjganpspcnthesgm", "duaurvg3mdirejmkbtqupsdgcadddbdt3t36yjganpspcnthesgm"},
		{"told 9", "Max: hast du das Passwort?\nLea: ja: ZiL8ygf9LaRr-0AQNHc  (bitte nicht in Confluence)", "ZiL8ygf9LaRr-0AQNHc"},
		{"told 10", "Anna: what's the staging password?\nBen: sure: Nebula6998sEqG", "Nebula6998sEqG"},
		{"told 11", "Ana: ¿tienes la contraseña del wifi?\nLuis: sí: hedgehog-bottom-fruit-kit37", "hedgehog-bottom-fruit-kit37"},
		{"told stays 0", "Reset the password to the default and ask IT.", ""},
		{"told stays 1", "Set the login to SSO-only in the admin panel.", ""},
		{"told stays 2", "Changed the password to something longer after the audit.", ""},
		{"told stays 3", "The router uses WPA2 key rotation every 90 days.", ""},
		{"told stays 4", "Wi-Fi network Acme-Guest on floor 3", ""},
		{"told stays 5", "WPA2 key management is configured in the controller.", ""},
		{"told stays 6", "PAT expires on 2025-01-31", ""},
		{"told stays 7", "Create a PAT with the Code (read) scope.", ""},
		{"told stays 8", "Max: hast du das Passwort geändert?\nLea: ja: gestern, nach dem Audit.", ""},
		{"told stays 9", "Anna: where is the staging password stored?\nBen: sure: in 1Password under Staging.", ""},
		// A name and its value apart in the text's own syntax: a command
		// that stores or sets a password or token, a login as two code spans,
		// an XML element's <Value> child, a password in braces, a key after
		// its type's prefix, a seed in hex; JSON escaped more than once.
		{"nested 0", "x11vnc -storepasswd xdnyiKlW ~/.vnc/passwd", "xdnyiKlW"},
		{"nested 1", "x11vnc -storepasswd Quartz21 ~/.vnc/passwd", "Quartz21"},
		{"nested 2", "consul acl set-agent-token default 6080c5a6-2aad-54cb-8060-a5089cfe0305", "6080c5a6-2aad-54cb-8060-a5089cfe0305"},
		{"nested 3", "nomad acl set-agent-token agent df47b260-ae8a-978e-0717-1528a7ec235b", "df47b260-ae8a-978e-0717-1528a7ec235b"},
		{"nested 4", "rabbitmqctl change_password deploy Xk9mQ2vLp8wZr4", "Xk9mQ2vLp8wZr4"},
		{"nested 5", "mysqladmin -u root set-password Wq9Lm2ZxTr7Pk4", "Wq9Lm2ZxTr7Pk4"},
		{"nested 6", "- staging DB: `app` / `lantern-orbit-velvet-42` (until we move to IAM auth)", "lantern-orbit-velvet-42"},
		{"nested 7", "- prod login: `admin` / `Xk9mQ2vLp8wZr4`", "Xk9mQ2vLp8wZr4"},
		{"nested 8", "<AdministratorPassword>\n  <Value>fCFCZgwKGFPdIsG</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>", "fCFCZgwKGFPdIsG"},
		{"nested 9", "<Password>\n  <Value>Xk9mQ2vLp8wZr4</Value>\n</Password>", "Xk9mQ2vLp8wZr4"},
		{"nested 10", "<setting name=\"SmtpPassword\" serializeAs=\"String\">\n  <value>Wq9Lm2ZxTr7Pk4</value>\n</setting>", "Wq9Lm2ZxTr7Pk4"},
		{"nested 11", "DRIVER={ODBC Driver 18 for SQL Server};SERVER=10.0.4.17;UID=sa;PWD={kQ7entLtpJ4bJzR}", "kQ7entLtpJ4bJzR"},
		{"nested 12", "Server=db;User Id=sa;Password={kUAentLtp;J4bJzR};", "J4bJzR"},
		{"nested 13", "tor key: ED25519-V3:+gTWwI3QHeob6JGjJKXefddq60OQLQfdeel1eJkb7S2y0vWh604sm8BGJZGOdXsTovltG5c5iQQkWcgLV8ROhg==", "+gTWwI3QHeob6JGjJKXefddq60OQLQfdeel1eJkb7S2y0vWh604sm8BGJZGOdXsTovltG5c5iQQkWcgLV8ROhg=="},
		{"nested 14", "ADD_ONION RSA1024:MIICXAIBAAKBgQDq6sNtq6yqUcBm5Mg6Xk9mQ2vLp8wZr4Tq7Yb3Xk9mQ2vLp8w Port=80", "MIICXAIBAAKBgQDq6sNtq6yqUcBm5Mg6Xk9mQ2vLp8wZr4Tq7Yb3Xk9mQ2vLp8w"},
		{"nested 15", "BIP32 root seed (hex): 5c169227195db08bc40dfb680d9e6776aeab0e3f392083125ef0b19acf1a1d6f9467a15ece038c225c118f0764c07089403b4ab86cbaa9d40726b89388a81d11", "5c169227195db08bc40dfb680d9e6776aeab0e3f392083125ef0b19acf1a1d6f"},
		{"nested 16", "wallet master key: 0x9949edce8546e1db08d5aceee8b4b546cabe058680f59bde4dd97486e73a3a7a", "9949edce8546e1db08d5aceee8b4b546"},
		{"nested 17", "log: \"{\\\\\\\"password\\\\\\\":\\\\\\\"Xk9mQ2vLp8wZr4Tq7\\\\\\\",\\\\\\\"user\\\\\\\":\\\\\\\"bob\\\\\\\"}\"", "Xk9mQ2vLp8wZr4Tq7"},
		{"nested 18", "log: \"{\\\\\\\"apiKey\\\\\\\":\\\\\\\"Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa\\\\\\\"}\"", "Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa"},
		{"nested stays 0", "x11vnc -storepasswd ~/.vnc/passwd", ""},
		{"nested stays 1", "x11vnc -storepasswd $VNC_PASS ~/.vnc/passwd", ""},
		{"nested stays 2", "consul acl set-agent-token default \"$CONSUL_TOKEN\"", ""},
		{"nested stays 3", "rabbitmqctl change_password deploy", ""},
		{"nested stays 4", "The reset-password endpoint returns 204.", ""},
		{"nested stays 5", "Call set_token before connecting.", ""},
		{"nested stays 6", "- staging DB branches: `main` / `develop`", ""},
		{"nested stays 7", "- db migration modes: `up` / `down-all-steps`", ""},
		{"nested stays 8", "Use `GET` / `POST` for the login endpoint.", ""},
		{"nested stays 9", "<AdministratorPassword>\n  <Value>*SENSITIVE*DATA*DELETED*</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>", ""},
		{"nested stays 10", "<setting name=\"Timeout\" serializeAs=\"String\">\n  <value>30</value>\n</setting>", ""},
		{"nested stays 11", "<PasswordPolicy>\n  <Value>Complex</Value>\n</PasswordPolicy>", ""},
		{"nested stays 12", "Driver={PostgreSQL Unicode};Server=db;Uid=app;Pwd={%DB_PASS%};", ""},
		{"nested stays 13", "ADD_ONION NEW:ED25519-V3 Port=80", ""},
		{"nested stays 14", "random seed: 42", ""},
		{"nested stays 15", "Test seed: 1700000000", ""},
		{"nested stays 16", "seed commit: 9f2c4e6a8b0d1f3e5a7c9f2c4e6a8b0d1f3e5a7c", ""},
		{"nested stays 17", "log: \"{\\\\\\\"apiKey\\\\\\\":\\\\\\\"\\\\\\\"}\"", ""},
		{"nested stays 18", "log: \"{\\\\\\\"tokenType\\\\\\\":\\\\\\\"Bearer\\\\\\\"}\"", ""},
		// A seed phrase laid out as a wallet shows it to back up (numbered
		// 1..n one a line, or a grid), its checksum not asked; a secret carried
		// encoded: a base64 blob the text calls so whose text assigns a
		// secret, hex under a secret's name that decodes to a password.
		{"carried 0", "Wallet backup, keep offline:\n1. opera\n2. tornado\n3. diary\n4. lecture\n5. anger\n6. wisdom\n7. bridge\n8. trick\n9. negative\n10. satisfy\n11. lend\n12. half", "tornado"},
		{"carried 1", "phrase:\nsorry trust elder auto profit place\nhelp today fall asthma bike wrong\nnorth course rail ozone link one\nbutter produce hat liberty property work", "asthma"},
		{"carried 2", "backup:\nsorry trust elder auto\nhelp today fall asthma\nnorth course rail ozone", "ozone"},
		{"carried 3", "Frase de recuperación:\n1. ábaco\n2. abdomen\n3. abeja\n4. abierto\n5. abogado\n6. abono\n7. aborto\n8. abrazo\n9. abrir\n10. abuelo\n11. abuso\n12. acabar", "abogado"},
		{"carried 4", "ENV_FILE_B64=REJfUEFTU1dPUkQ9WGs5bVEydkxwOHdacjRUcQpBUElfS0VZPVJrNHFMbTlUeldwMlhrN1ZiM05jOFlkMUhmNUdqNlNhCg==", "REJfUEFTU1dPUkQ9WGs5bVEydkxwOHdacjRUcQpBUElfS0VZPVJrNHFMbTlUeldwMlhrN1ZiM05jOFlkMUhmNUdqNlNhCg=="},
		{"carried 5", "secrets.env (base64): REJfUEFTU1dPUkQ9WGs5bVEydkxwOHdacjRUcQpBUElfS0VZPVJrNHFMbTlUeldwMlhrN1ZiM05jOFlkMUhmNUdqNlNhCg==", "REJfUEFTU1dPUkQ9WGs5bVEydkxwOHdacjRUcQpBUElfS0VZPVJrNHFMbTlUeldwMlhrN1ZiM05jOFlkMUhmNUdqNlNhCg=="},
		{"carried 6", "vault kv get shows db_pass_hex=674a73794c7967736b652e76497155 (hex of the plain password)", "674a73794c7967736b652e76497155"},
		{"carried 7", "api_token_hex: 5171376d547a3278", "5171376d547a3278"},
		{"carried stays 0", "Deploy steps:\n1. build\n2. test\n3. tag\n4. push\n5. deploy\n6. verify\n7. monitor\n8. rollback\n9. notify\n10. close\n11. review\n12. archive", ""},
		{"carried stays 1", "Release order:\n1. build\n2. test\n3. deploy", ""},
		{"carried stays 2", "Top words this sprint:\nbug fix test deploy\nreview merge build release\ncache query index table", ""},
		{"carried stays 3", "Our team values: trust, focus, balance, humble, honest, brave, curious, patient, kind, fair, open, bold", ""},
		{"carried stays 4", "CONFIG_B64=TE9HX0xFVkVMPWRlYnVnClBPUlQ9ODA4MApGRUFUVVJFX0ZMQUdTPXNlYXJjaCxleHBvcnQK", ""},
		{"carried stays 5", "logo.png base64: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", ""},
		// Second shapes of the same classes, written after the first landed:
		// PHP's JWT::encode, a keyword key, Rust's HMAC; chat answers in
		// Italian, French, Japanese, Chinese and Korean; a provider's source.
		{"second 0", "$jwt = JWT::encode($payload, 'Px7Lq3WmZt8Rk2Vb9Nc4Yd1H', 'HS256');", "Px7Lq3WmZt8Rk2Vb9Nc4Yd1H"},
		{"second 1", "token = jwt.encode(payload, key=\"Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa\", algorithm=\"HS256\")", "Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa"},
		{"second 2", "let mac = HmacSha256::new_from_slice(b\"Wq9Lm2ZxTr7Pk4Vb8Nc3\").unwrap();", "Wq9Lm2ZxTr7Pk4Vb8Nc3"},
		{"second 3", "Giulia: hai la password del NAS?\nMarco: sì, eccola: Tz8qPw4LmNx7Rk2V", "Tz8qPw4LmNx7Rk2V"},
		{"second 4", "Pierre : tu as le mot de passe ?\nJulie : oui : Hq7zLm2Wx9pRt4Vb", "Hq7zLm2Wx9pRt4Vb"},
		{"second 5", "田中: DBのパスワードは？\n佐藤: Lp2Wq7zRmTx9Kc4V です", "Lp2Wq7zRmTx9Kc4V"},
		{"second 6", "小王：数据库密码是多少？\n小李：Rk4qLm9TzWp2Xk7V", "Rk4qLm9TzWp2Xk7V"},
		{"second 7", "민수: 서버 비밀번호 뭐야?\n지영: Tz8qPw4LmNx7Rk2V", "Tz8qPw4LmNx7Rk2V"},
		{"second stays 0", "田中: DBのパスワードは変わった？\n佐藤: はい、昨日変えました", ""},
		{"second stays 1", "apiKey: fromSecret", ""},
		{"second stays 2", "password := os.Getenv(\"DB_PASSWORD\")", ""},
		{"second stays 3", "$pw = Get-AzKeyVaultSecret -VaultName kv -Name db -AsPlainText", ""},
	})
}
