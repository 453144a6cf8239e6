package redact

import "testing"

// TestRound25 holds shapes written for the twenty-fifth round's classes
// (none from any corpus). Look-alikes first: a vendor's prefix before a
// placeholder of one repeated character (SG.xxxx.xxxx), a PEM block in an
// env file's string whose body is elided between escaped newlines, a
// command's long option after a path that ends in "token", Python's
// %(NAME)s interpolation; beside each, the secret of the same layout.
// Then secrets' carriers: Cerebras' csk- and a Fernet token (gAAAAAB…); a
// value handed over in a chat ("use this for now:", "try again with …",
// "new key for … ->"), a hex value or a UUID only where the line names a
// secret; a credential an error message quotes as refused; Ruby's ||=
// and JavaScript's ??=; bash's $'…'; a browser WebSocket's subprotocols;
// curl -u with the password alone quoted (and a quoted password after
// "user NAME:" or "login: NAME /" masked whole, its comma and all); a secret a command prints from
// where it is kept (bw get password, op read, printenv DB_PASSWORD, gh auth
// token), on the line below it; Oracle's Easy Connect
// USER/PASSWORD@HOST:PORT/SERVICE; a record whose name field names a
// secret and whose value field holds it (Terraform's aws_ssm_parameter,
// get-parameter's JSON); GitHub Actions' debug Result of a secret; a
// password of scrambled letters alone told in prose.
func TestRound25(t *testing.T) {
	judgeRound(t, []roundCase{
		// A vendor's prefix before a placeholder.
		{"sendgrid placeholder", "SENDGRID_KEY=SG.yyyyyyyyyyyyyyyyyyyyyy.yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", ""},
		{"prefixed zeros", "TOKEN=ab.000000000000000000000000", ""},
		{"sendgrid key", "SENDGRID_KEY=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", "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"},
		// A PEM body elided between escaped newlines.
		{"pem elided escaped", `SIGNING_KEY="-----BEGIN EC PRIVATE KEY-----\n…\n-----END EC PRIVATE KEY-----"`, ""},
		{"pem escaped", `SIGNING_KEY="-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBq3Zk7pQ2vL9xR4mN8tY1wB6cF0hJ5sD3gA7eK2uP9iO4MoAoGCCqGSM49\n-----END EC PRIVATE KEY-----"`, "MHcCAQEEIBq3Zk7pQ2vL9xR4mN8tY1wB6cF0hJ5sD3gA7eK2uP9iO4MoAoGCCqGSM49"},
		// A long option after a path ending in "token".
		{"option after token", "vault kv get -mount=secret ci/deploy/token --format-output json", ""},
		{"ssm option", "aws ssm get-parameter --name /ci/npm/token --with-decryption --region eu-west-1", ""},
		{"token value", "token 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		// Python's %-interpolation names the value.
		{"percent interpolation", `api_secret = "%(API_SECRET)s"`, ""},
		{"configparser interpolation", "password = %(dbpassword)s", ""},
		{"percent in password", `api_secret = "%(Zq8v!Lm2)s-Rt7Wx4Kp9"`, "%(Zq8v!Lm2)s-Rt7Wx4Kp9"},
		// Vendor prefixes.
		{"cerebras", "pasted csk-4k9x2m7q1w8e5r3t6y0u2i4o7p9a1s3d5f7g9h2j4k6l8z0x into the eval box", "csk-4k9x2m7q1w8e5r3t6y0u2i4o7p9a1s3d5f7g9h2j4k6l8z0x"},
		{"csk host", "ssh csk-prod-eu-west-1-cluster-node-pool-abcdefghij.internal", ""},
		{"fernet", "print(f.encrypt(data))  # gAAAAABmQ3x9Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7uP2iO9Mq2Wn5Rt8Yb1Cv4Xz7Lp0Ks3Hd6Jf9Gh2Ma5Nc8Qe1Tr4Uw7Yi0Op3A==", "gAAAAABmQ3x9Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7uP2iO9Mq2Wn5Rt8Yb1Cv4Xz7Lp0Ks3Hd6Jf9Gh2Ma5Nc8Qe1Tr4Uw7Yi0Op3A=="},
		// A value handed over in a chat.
		{"chat use this", "ok the old one was rotated, use this one instead: Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5"},
		{"chat try again", "@ops try again with 7c4e9b2a1f8d3e6c5b0a9f2e1d4c (it has read scope)", "7c4e9b2a1f8d3e6c5b0a9f2e1d4c"},
		{"chat new key", "new token for prod => 9d2f7a4c1e8b3d6f0a5c2e9b4d7f1a3c5e8b", "9d2f7a4c1e8b3d6f0a5c2e9b4d7f1a3c5e8b"},
		{"chat commit", "can you try again with 3f9c2a7b1d0e4f6a8b2c9d1e7f3a5b6c4d8e0f1a? the build was flaky", ""},
		{"chat run id", "try again with 1b4e28ba-2fa1-41d2-883f-0016d3cca427, that run had the old image", ""},
		// A credential an error message refuses.
		{"error api key", "Error: revoked key Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2 (401)", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"error uuid", "unauthorized: invalid key 1b4e28ba-2fa1-41d2-883f-0016d3cca427", "1b4e28ba-2fa1-41d2-883f-0016d3cca427"},
		{"error letters", "AuthError: expired key Hq_vLmZtRwPnYsKxBd", "Hq_vLmZtRwPnYsKxBd"},
		{"error key name", "KeyError: unknown key ANTHROPIC_MODEL_OVERRIDE_NAME", ""},
		{"error identifier", "SyntaxError: invalid token 'parseConfigurationHeader'", ""},
		// Ruby's ||=, JavaScript's ??=.
		{"ruby or-assign", "ENV['SLACK_BOT_SECRET'] ||= 'Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2'", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"js nullish", "settings.apiKey ??= 'Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2';", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"ruby or-assign nil", "opts[:token] ||= nil", ""},
		{"ruby or-assign call", "@token ||= fetch_token(scope: :read)", ""},
		// bash's ANSI-C quoting.
		{"ansi-c", "export API_SECRET=$'Hn4Lq8Zt2Vw6Xp9Rk3Ms'", "Hn4Lq8Zt2Vw6Xp9Rk3Ms"},
		{"ansi-c prompt", `PS1=$'\u@\h \w$ '`, ""},
		// A browser WebSocket's subprotocols.
		{"websocket bearer", "const ws = new WebSocket(`wss://${host}/live`, ['bearer', 'Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA']);", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA"},
		{"websocket graphql", "new WebSocket(url, ['graphql-ws', 'graphql-transport-ws'])", ""},
		// curl -u with the password alone quoted.
		{"curl quoted password", "curl -fsS -u deploy:'Hn4!Lq8Zt2Vw' https://ci.acme.dev/api/json", "Hn4!Lq8Zt2Vw"},
		{"curl quoted variable", `curl -u deploy:"$CI_PASS" https://ci.acme.dev/api/json`, ""},
		{"curl user quoted comma", `curl --user deploy:"Hn4,Lq8=Zt2Vw" https://ci.acme.dev/api/json`, "Lq8=Zt2Vw"},
		{"login quoted comma", `login: admin / "Hn4,Lq8=Zt2"`, "Lq8=Zt2"},
		// A secret a command prints, on the line below it.
		{"pass show", "$ pass show infra/grafana-admin\nTq7-Vw2!Lm9xRz", "Tq7-Vw2!Lm9xRz"},
		{"gh auth token", "$ gh auth token\ngho_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7", "gho_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sD5gA3eK7"},
		{"printenv", "# docker exec api-1 printenv STRIPE_WEBHOOK_SECRET\nQm7Lx2Vt9Rw4PnYs3Hq8LmZ2", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"op read password", "$ op read 'op://infra/smtp/password'\ncopper-lantern-fjord-81", "copper-lantern-fjord-81"},
		{"op read username", "$ op read 'op://infra/smtp/username'\nmailer-svc-eu", ""},
		{"printenv plain", "$ printenv HOME\n/home/deploy", ""},
		// Oracle's Easy Connect.
		{"ezconnect", "sqlldr control=load.ctl userid=x; DSN=etl_rw/Hn4,Lq8=Zt2@db-7.corp.example:1521/SALESPDB", "Hn4,Lq8=Zt2"},
		{"ezconnect at", "export TNS_LOGIN=svc/Qm7@Lx2!Vt9@10.0.4.12:1522/ORCL", "Qm7@Lx2!Vt9"},
		{"module path", "go: downloading golang.org/x/tools@v0.24.0/go/packages", ""},
		{"ezconnect variable", `conn = "app/${DB_PASS}@db:1521/svc"`, ""},
		// A name field naming a secret, its value a few lines below.
		{"ssm resource", "resource \"aws_ssm_parameter\" \"smtp\" {\n  name  = \"/mail/smtp/password\"\n  type  = \"String\"\n  value = \"copper-lantern-fjord-81\"\n}", "copper-lantern-fjord-81"},
		{"ssm output", "{\n  \"Parameter\": {\n    \"Name\": \"/ci/npm/token\",\n    \"Type\": \"SecureString\",\n    \"Value\": \"Zk3pQ7vL2xR9mN4tY8wB\"\n  }\n}", "Zk3pQ7vL2xR9mN4tY8wB"},
		{"ssm reference", "  name  = \"/mail/smtp/password\"\n  type  = \"SecureString\"\n  value = var.smtp_password", ""},
		{"ssm plain", "  name  = \"/mail/smtp/host\"\n  value = \"smtp.eu.example.net\"", ""},
		// GitHub Actions' debug Result of a secret.
		{"gha debug", "##[debug]Evaluating: secrets.NPM_TOKEN\n##[debug]Result: 'Zk3pQ7vL2xR9mN4tY8wB1cF6'", "Zk3pQ7vL2xR9mN4tY8wB1cF6"},
		{"gha debug masked", "##[debug]Evaluating: secrets.NPM_TOKEN\n##[debug]Result: '***'", ""},
		// A password of scrambled letters told in prose.
		{"prose letters", "הסיסמה לשרת הגיבוי היא ZmQpLrTvWxNbKsYhGd", "ZmQpLrTvWxNbKsYhGd"},
		{"prose letters en", "the password for the lab router is kVqTzRmWpLxNbYdHs", "kVqTzRmWpLxNbYdHs"},
		{"prose camel", "the password helper is validatePasswordStrength", ""},
		{"prose controller", "the password reset handler is ResetPasswordController", ""},
	})
}
