package redact

import "testing"

// TestRound20 holds shapes written for the twentieth round's classes
// (none from any corpus). Look-alikes first: a value whose words only
// name the field it fills behind a possessive or an article (a
// connection-string template's Password=myPassword) or say it is wrong (a
// test's bad password "wrong", "incorrect", "wrongpassword", "falsch"),
// in several formats and languages; and a value after the closing
// backtick of the code span its command began in (`vault login
// -method=oidc` first). Then secrets' classes: a value named by the
// object, list or block that encloses it (a private key's record, a
// tokens block, a cookies list), and a cookie known by the attributes
// after it; a secret fed to a password reader through decoding stages
// (echo HEX | xxd -r -p | sudo -S); a generated value holding '<' and '>'
// among its symbols (a WordPress salt), not a placeholder; a symmetric
// signingKey in code's hump case, not git's signingkey id; a plist's key
// and string on a diff's added lines; a key store encoded under its
// name; a CLI's space-aligned table whose column names the secret; every
// secret's column of a delimited table. Beside each, the secrets or
// look-alikes of the same layout.
func TestRound20(t *testing.T) {
	judgeRound(t, []roundCase{
		// A template's field words.
		{"ado template", "Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;", ""},
		{"odbc template", "Driver={ODBC Driver 18 for SQL Server};Server=myServer;Uid=myUsername;Pwd=myPassword;", ""},
		{"env your", "DB_PASSWORD=yourPassword", ""},
		{"yaml my secret key", "aws:\n  secret_key: mySecretKey\n  access_key: myAccessKey", ""},
		{"json your api key", "{\"apiKey\": \"yourApiKey\"}", ""},
		{"snake my password", "password = \"my_password\"", ""},
		{"german template", "passwort: meinPasswort", ""},
		{"properties the password", "spring.datasource.password=thePassword", ""},
		{"made password after my", "Password=myP@ssw0rd2024;", "myP@ssw0rd2024"},
		{"real camel", "DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3"},
		// A test's wrong password.
		{"python test wrong", "resp = client.post(\"/login\", data={\"user\": \"alice\", \"password\": \"wrong\"})", ""},
		{"js test incorrect", "await login({ username: 'bob', password: 'incorrect' }); expect(res.status).toBe(401)", ""},
		{"go test wrongpassword", "err := auth.Check(\"bob\", \"wrongpassword\") // want ErrBadPassword", ""},
		{"ruby invalid", "post :create, params: { email: 'a@b.c', password: 'invalid-password' }", ""},
		{"java bad pass", "assertThrows(AuthException.class, () -> svc.login(\"bob\", \"bad_pass\"));", ""},
		{"yaml fixture", "fixtures:\n  bad_login:\n    password: not-the-password", ""},
		{"german falsch", "passwort = \"falsch\"", ""},
		{"spanish incorrecta", "contraseña: incorrecta", ""},
		{"wrong with digits", "password: \"wrongPass1!\"", "wrongPass1!"},
		{"word password", "password=hunter2", "hunter2"},
		{"badwolf", "db_password: BadWolf42", "BadWolf42"},
		// A value after the command's span.
		{"vault oidc first", "Run `vault login -method=oidc` first, then `vault kv get` that path.", ""},
		{"vault userpass then", "Use `vault login -method=userpass username=ci` then read the secret.", ""},
		{"vault login prose", "After `vault login` succeeds, run the job.", ""},
		{"cargo login then", "Run `cargo login` once, then publish.", ""},
		{"vault token in span", "Run `vault login s.Xk9pQ2mZ7vLs8Tq4Rw3Ye5Ub` now.", "s.Xk9pQ2mZ7vLs8Tq4Rw3Ye5Ub"},
		{"vault token after span", "Run `vault login` hvs.CAESIJ3Vq8y7mKxZ0LqB2pN9tR4wE6uY1iO3pA5sD7fG9hJ", "CAESIJ3Vq8y7mKxZ0LqB2pN9tR4wE6uY1iO3pA5sD7fG9hJ"},
		// A value named by what encloses it.
		{"tendermint priv", "{\n  \"pub_key\": {\"type\": \"tendermint/PubKeyEd25519\", \"value\": \"xSVtYbGrHSQVjmuytLbojTVsXFcoqAOBDI6EQFAPUDw=\"},\n  \"priv_key\": {\n    \"type\": \"tendermint/PrivKeyEd25519\",\n    \"value\": \"x1hSqPPUphK3664EOSRrPvyfQswWtMhX/tCoQ3mF1Nv3T/JYaplOqGpMNAIXRMzMwcLBhlRuJaGYd1BtdDHFeA==\"\n  }\n}", "x1hSqPPUphK3664EOSRrPvyfQswWtMhX"},
		{"tendermint pub stays", "{\"pub_key\": {\"type\": \"tendermint/PubKeyEd25519\", \"value\": \"xSVtYbGrHSQVjmuytLbojTVsXFcoqAOBDI6EQFAPUDw=\"}}", ""},
		{"yaml private key block", "privateKey:\n  format: pkcs8\n  data: \"MC4CAQAwBQYDK2VwBCIEIJ3Vq8y7mKxZ0LqB2pN9tR4wE6uY1iO3pA5sD7fG9hJk\"", "MC4CAQAwBQYDK2VwBCIEIJ3Vq8y7mKxZ0LqB2pN9tR4wE6uY1iO3pA5sD7fG9hJk"},
		{"consul tokens", "acl {\n  enabled = true\n  tokens {\n    agent = \"8a5d6193-4b37-1a32-5234-de8234d3f988\"\n  }\n}", "8a5d6193-4b37-1a32-5234-de8234d3f988"},
		{"consul tokens two", "acl = {\n  tokens = {\n    initial_management = \"b1gs33cr3-0000-4aaa-8bbb-1234567890ab\"\n    default = \"3f2c1a9e-7b4d-4e8f-9a0b-1c2d3e4f5a6b\"\n  }\n}", "3f2c1a9e-7b4d-4e8f-9a0b-1c2d3e4f5a6b"},
		{"tokens zero uuid", "tokens { agent = \"00000000-0000-0000-0000-000000000000\" }", ""},
		{"tokens counts", "{\"tokens\": {\"max_input\": 4096, \"model\": \"claude-sonnet-4-5\"}}", ""},
		{"token type", "{\"token\": {\"type\": \"Bearer\", \"expires_in\": 3600, \"scope\": \"read write\"}}", ""},
		{"secret arn", "{\"secret\": {\"name\": \"db-creds\", \"arn\": \"arn:aws:secretsmanager:us-east-1:123456789012:secret:db-creds-AbCdEf\"}}", ""},
		{"secret names list", "\"secrets\": [\"DB_PASSWORD\", \"API_KEY\", \"STRIPE_SECRET\"]", ""},
		{"credentials client id", "{\"credentials\": {\"client_id\": \"7d1e0c52-4b7a-4e8e-9f61-2b0c1a3d9e44\", \"region\": \"eu-west-1\"}}", ""},
		{"key id kept", "\"private_key\": {\"kid\": \"2024-09-key-1\", \"alg\": \"RS256\", \"sha256\": \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"}", ""},
		{"storage state sid", "{\n  \"cookies\": [\n    {\n      \"name\": \"sid\",\n      \"value\": \"A7MHfzYCBgHDImVcIEz9ymRyAqV9eWCY9kMTH9lg\",\n      \"domain\": \"app.acme.io\",\n      \"path\": \"/\"\n    }\n  ]\n}", "A7MHfzYCBgHDImVcIEz9ymRyAqV9eWCY9kMTH9lg"},
		{"cookie theme", "{\"cookies\": [{\"name\": \"theme\", \"value\": \"dark\", \"domain\": \"app.acme.io\"}]}", ""},
		{"cypress cookies", "cy.setCookie('x', 'y'); const cookies = [{ name: 'auth', value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX2hlcmVfMTIzNDU2', path: '/' }];", "c2lnbmF0dXJlX2hlcmVfMTIzNDU2"},
		// A cookie known by its attributes.
		{"sess attrs", "_acme_sess=P6h1tpy8EX6ehdJrnAz2%2FX3pV3VCRbM4BY4QdOPVDH7qkzqSlI0pNuAneMm%2BAJIWbrH0hrJLUgzQkYG5H2gwg0GJxs89B2a2qo1H0KNPrrbUlCDWTSipsHQoKv43NPXte6tC67IDW5PMMA; path=/; secure; HttpOnly; SameSite=Lax", "P6h1tpy8EX6ehdJrnAz2"},
		{"log cookie attrs", "DEBUG [main] remember_token=Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1; Domain=.acme.io; Secure", "Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1"},
		{"theme attrs", "Set-Cookie: theme=dark; Path=/; SameSite=Lax", ""},
		{"visitor count", "visitor_id=1234567890; path=/", ""},
		// Decoded on its way to a password reader.
		{"hex to sudo", "echo 347630316476336831636c335f3532 | xxd -r -p | sudo -S systemctl restart app", "347630316476336831636c335f3532"},
		{"base64 to sudo", "echo 'cDRzc3cwcmQhMjAyNA==' | base64 -d | sudo -S apt update", "cDRzc3cwcmQhMjAyNA=="},
		{"b64 to docker stdin", "echo Zm9vYmFyYmF6cXV4MTIzNDU2 | base64 --decode | docker login -u ci --password-stdin ghcr.io", "Zm9vYmFyYmF6cXV4MTIzNDU2"},
		{"variable to sudo", "echo \"$SUDO_PASS\" | base64 -d | sudo -S ls", ""},
		{"hex dump", "echo 48656c6c6f | xxd -r -p", ""},
		// Brackets among a generated value's symbols.
		{"wp salt", "define('SECURE_AUTH_SALT', 'ndom#z^dM0QDZix}+fDQorbNOx,KIm6>cP^-TA}<cNZv,n,Dw8r+|.z24FD3+JR)');", "ndom#z^dM0QDZix"},
		{"wp salt diff", "+define( 'AUTH_KEY',         'ndom#z^dM0QDZix}+fDQorbNOx,KIm6>cP^-TA}<cNZv,n,Dw8r+|.z24FD3+JR)' );", "ndom#z^dM0QDZix"},
		{"wp placeholder", "define( 'AUTH_KEY', 'put your unique phrase here' );", ""},
		{"angle placeholder", "password: <your password>", ""},
		{"angle name", "api_key=<api-key>", ""},
		{"angle user pass", "DATABASE_URL=postgres://<user>:<password>@db:5432/app", ""},
		// A signing key in code's case.
		{"csharp hex signing key", "var signingKey = \"54592d10d8ab2f37366b828de063c0281b048290\";", "54592d10d8ab2f37366b828de063c0281b048290"},
		{"ts hex signing key", "const signingKey = '0ed7e22cca312dd60ed7e22cca312dd60ed7e22c';", "0ed7e22cca312dd60ed7e22cca312dd60ed7e22c"},
		{"git section id lower", "[user]\n\tsigningkey = 0ed7e22cca312dd6", ""},
		{"git cli id lower", "git config --global user.signingkey 3aa5c34371567bd2", ""},
		// A plist on a diff's lines.
		{"plist diff", "+<dict>\n+    <key>EnrollmentPassword</key>\n+    <string>Mobile^a5Jl6b2</string>\n+</dict>", "Mobile^a5Jl6b2"},
		{"plist diff removed", "-    <key>APIToken</key>\n-    <string>Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1</string>", "Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1"},
		{"plist bundle name", "+    <key>CFBundleName</key>\n+    <string>AcmeAgent</string>", ""},
		// A key store by its name.
		{"keystore b64", "ANDROID_KEYSTORE_BASE64=7ac74GWv7QgBnsJE8qGrtvjsOA6T3huw51RSRnXvUAI0kbSE5lfisSd3SlNMew91N0DgE0J0OxKM01bIYmbkZ8Er76SIVumk", "7ac74GWv7QgBnsJE8qGrtvjsOA6T3huw"},
		{"p12 yaml", "signing:\n  cert_p12: \"k0Pztvr8x/Aq+Kz9KV/0vVzaC94GllJLIaZSLl+YHy0k0Pztvr8x/Aq+Kz9KV/0vVzaC94GllJLIaZSLl\"", "k0Pztvr8x/Aq+Kz9KV"},
		{"pfx env", "CERT_PFX_B64: Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1Lm2Qx8Vt", "Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1"},
		{"keystore path", "ANDROID_KEYSTORE_FILE=app/release.keystore", ""},
		{"keystore password ref", "storePassword = System.getenv(\"KEYSTORE_PASSWORD\")", ""},
		// A table aligned by spaces.
		{"az keys table", "$ az storage account keys list -g rg -n sa -o table\nKeyName    Permissions    Value\n---------  -------------  ------------------------------------------------------------------------------------------\nkey1       FULL           I+4NOq3aFeBIpoHexaN+KFKhslAq6iwGYc0GIL6KllUmbTx6Zcx4UZPjAxFvqXsdu5qsQ3VM99v61qQbf/s5rw==", "I+4NOq3aFeBIpoHexaN"},
		{"secret column table", "Name        Secret\n----------  ----------------------------------------\nci-bot      Xk9pQ2mZ7vLs8Tq4Rw3Ye5Ub2Nc6Md8Kf", "Xk9pQ2mZ7vLs8Tq4Rw3Ye5Ub2Nc6Md8Kf"},
		{"status table", "Name        Status    Created\n----------  --------  ----------\napi-prod    Enabled   2024-05-01", ""},
		{"value table no keys", "Name                 Value\n-------------------  ---------------------------------\ncommit               9f86d081884c7d659a2feaa0c55ad015a3bf4f1b", ""},
		// Every secret's column of a delimited table.
		{"aws csv", "User name,Password,Access key ID,Secret access key,Console login link\nci-deployer,,AKIALP765OAWJSJID2TL,+//IsA0LuDL1NSE3hi2xqdhQr/8923d286/8fnPX,https://899108706434.signin.aws.amazon.com/console", "+//IsA0LuDL1NSE3hi2xqdhQr"},
		{"two secret columns", "user;password;api_token\nana;Tr0ub4dor&3x;Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1", "Lm2Qx8Vt4Rb7Np3Ks9Wd6Hf1"},
	})
}
