package redact

import (
	"strings"
	"testing"
)

// TestRound20 holds shapes written for the twentieth round's classes
// (none from any corpus). Look-alikes first: a value whose words only
// name the field it fills behind a possessive or an article (a
// connection-string template's Password=myPassword) or say it is wrong (a
// test's bad password "wrong", "incorrect", "wrongpassword", "falsch"),
// in several formats and languages; and a value after the closing
// backtick of the code span its command began in (`vault login
// -method=oidc` first). Beside each, the secrets of the same layout,
// still caught.
func TestRound20(t *testing.T) {
	for _, tt := range []struct{ name, in, secret string }{
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
	} {
		got := String(tt.in)
		if tt.secret == "" {
			if got != tt.in {
				t.Errorf("%s: look-alike changed:\n got %q\nwant %q", tt.name, got, tt.in)
			}
			continue
		}
		if strings.Contains(got, tt.secret) {
			t.Errorf("%s: secret kept: %q", tt.name, got)
		}
	}
}
