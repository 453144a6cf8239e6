package redact

import "testing"

// TestRound27 holds shapes written for the twenty-seventh round's classes
// (none from any corpus): look-alikes first. A build tool's secret mount
// given as its fields (docker build --secret id=…,src=…); beside it, a
// secret given to --secret. A secret store's path of words after
// "-field=token"; beside it, a token after the word. A Go test's name
// with its subtests after go test's status word; beside it, a password
// after PASS. A login's flag that takes a name or an id, given a UUID;
// beside it, a token after --token. A type where a value would go,
// wrapped in the secrecy crate's or the standard library's types; beside
// it, a literal. A call's next argument given by its keyword after a
// secret's name; beside it, the value itself. An analytics cookie's
// generated client id; beside it, a session's.
func TestRound27(t *testing.T) {
	judgeRound(t, []roundCase{
		// A build tool's secret mount, by its fields.
		{"docker secret mount", "$ docker buildx build --secret id=pip_conf,src=./pip.conf --push .", ""},
		{"docker secret env", "docker build --secret id=gh,env=GITHUB_TOKEN -t app:dev .", ""},
		{"secret flag value", "mytool deploy --secret Vq7Lr2Xt9Wn4PzYs3Hk8 --env prod", "Vq7Lr2Xt9Wn4PzYs3Hk8"},
		// A secret store's path after -field=token.
		{"vault field path", "TOKEN=$(vault kv get -field=token kv/platform/deploy-bot)", ""},
		{"vault read path", "vault read -field=token auth/approle/role-id", ""},
		{"token word then value", "curl -H \"Authorization: token Zk3pQ7vL2xR9mN4tY8wB1cF6\" https://api.example.dev", "Zk3pQ7vL2xR9mN4tY8wB1cF6"},
		// Go test's status word before a test's name.
		{"go test pass", "--- PASS: TestLogin/expired_sk_live_key (0.01s)", ""},
		{"go test pass underscore", "    --- PASS: Test_parse_api_key_v2 (0.00s)", ""},
		{"pass is password", "PASS: Qm7Lx2Vt9Rw4!nYs", "Qm7Lx2Vt9Rw4!nYs"},
		// A login flag that takes a name or an id.
		{"login client id", "$ acmectl login --sso --client-id 7f1c9e2a-4b3d-4e5f-8a9b-0c1d2e3f4a5b", ""},
		{"login tenant", "cloudx login --service-principal --tenant 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", ""},
		{"login token", "wandb login --relogin 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234", "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234"},
		// A type where a value would go.
		{"rust secret generic", "let token: Secret<String> = read_token()?;", ""},
		{"rust option secret", "pub api_key: Option<SecretString>,", ""},
		{"rust literal", "let token: &str = \"Hn4Lq8Zt2Vw7Rx3Kp9TsQm7L\";", "Hn4Lq8Zt2Vw7Rx3Kp9TsQm7L"},
		// A keyword argument after a secret's name.
		{"kwarg after name", "os.environ.pop(\"STRIPE_SECRET_KEY\", default=None)", ""},
		{"kwarg raising", "monkeypatch.setenv(\"SENTRY_AUTH_TOKEN\", raising=True)", ""},
		{"value after name", "monkeypatch.setenv(\"SENTRY_AUTH_TOKEN\", \"Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s\")", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		// An analytics cookie's client id.
		{"cookie gid", "Cookie: _gid=GA1.3.1873362451.1764300000; theme=light", ""},
		{"cookie fbp", "Cookie: _fbp=fb.1.1764300000123.987654321; lang=en", ""},
		{"cookie session", "Cookie: _gid=GA1.3.1873362451.1764300000; sessionid=q7lx2vt9rw4pnys3hq8lmz2kp9ts", "q7lx2vt9rw4pnys3hq8lmz2kp9ts"},
	})
}
