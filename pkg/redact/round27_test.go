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
// generated client id; beside it, a session's. Then secrets: a chat line
// that names a service's key and gives it after "is"; beside it, a key's
// name, a digest, a path and a word there. A chat line handing over "the
// new <service> one here", its value's fate on the next line; beside it,
// a commit's hash. A literal inside a format string's field after Bearer.
// A personal access token's name (_PAT) and its value as two arguments,
// the value in base32's small letters; beside it, a path's name. A key's
// name and value with their quotes escaped (code in a notebook's JSON);
// beside it, a word. PowerShell's -EncodedCommand whose script hands a
// made literal to a login; beside it, a script that logs in to nothing.
// A Kafka URL whose generated password holds '/'; beside it, a path with
// '@'. A hex key as an environment lookup's fallback; beside it, a short
// hex. The password's word in Arabic without its article, Danish's
// "koden" and Italian's "credenziali" before a login; beside each, a word.
// A generated value that opens with '(' (a WordPress salt) or with '<'
// closing nothing, or holds a digit between '<' and '>'; beside them, a
// placeholder, a call and a salt's stand-in.
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
		// A service's key given after "is" in chat.
		{"chat key for is", "fyi the sentry key for prod is Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s, swap it in", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"chat token is hex", "the webhook token is 4f9a2c1e77aa4c1e9f000a1b2c3d4e5f6a7b8c9d — don't share", "4f9a2c1e77aa4c1e9f000a1b2c3d4e5f6a7b8c9d"},
		{"chat key is name", "the cache key for builds is go-build-linux-amd64-modules", ""},
		{"chat key is digest", "the signing key for releases is sha256:9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234abcd5678", ""},
		{"chat key is path", "the key for staging is /etc/ssl/private/staging-web.key", ""},
		{"chat key is word", "the primary key for orders is order_id_with_tenant_prefix", ""},
		// The new <service> one, handed over.
		{"chat new one here", "lee: dropped the new sentry one here so it's handy: `9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234`\nlee: expires monday", "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234"},
		{"chat new one here token", "ana: put the new fly one here for you: Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2"},
		{"chat new one here commit", "lee: the new release one here is tagged from: 4f9a2c1e77aa4c1e9f000a1b2c3d4e5f6a7b8c9d", ""},
		// A literal inside a format string's field.
		{"fstring bearer", "headers = {\"Authorization\": f\"Bearer {'Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s'}\"}", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"template bearer", "const h = `Bearer ${'Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9t'}`;", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9t"},
		{"fstring bearer var", "headers = {\"Authorization\": f\"Bearer {token_from_vault}\"}", ""},
		// A _PAT name and its value as two arguments.
		{"setenv pat base32", "os.Setenv(\"GITEA_PAT\", \"q7lx2vt3rw4pnys3hq6lmz2kp5tsbvnc\")", "q7lx2vt3rw4pnys3hq6lmz2kp5tsbvnc"},
		{"setenv pat asana", "os.environ.setdefault(\"ASANA_PAT\", \"1/1203948576/5566778899:a1b2c3d4e5f60718293a4b5c6d7e8f90\")", "1/1203948576/5566778899:a1b2c3d4e5f60718293a4b5c6d7e8f90"},
		{"path name pair", "cfg.set(\"DATA_PATH\", \"/var/lib/app/data/archive-2024\")", ""},
		// A key's name and value with escaped quotes.
		{"notebook escaped key", "  \"os.environ[\\\"BLOB_STORAGE_KEY\\\"] = \\\"Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2Vt9Rw4\\\"\\n\"", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7Lx2Vt9Rw4"},
		// PowerShell's -EncodedCommand.
		{"powershell encoded login", "PS> powershell -NoProfile -EncodedCommand JABrAD0AJwBWAHIAOAAjAG0AUQAyAHgATABwADkAIQAnADsAIABuAGUAdAAgAHUAcwBlACAAWQA6ACAAXABcAG4AYQBzAFwAYgBhAGMAawB1AHAAIAAkAGsAIAAvAHUAcwBlAHIAOgBjAG8AcgBwAFwAYgBhAGMAawB1AHAA", "JABrAD0AJwBWAHIAOAAjAG0AUQAyAHgATABwADkAIQAnADsAIABuAGUAdAAgAHUAcwBlACAAWQA6ACAAXABcAG4AYQBzAFwAYgBhAGMAawB1AHAAIAAkAGsAIAAvAHUAcwBlAHIAOgBjAG8AcgBwAFwAYgBhAGMAawB1AHAA"},
		{"powershell encoded plain", "PS> powershell -enc RwBlAHQALQBDAGgAaQBsAGQASQB0AGUAbQAgAEMAOgBcAGwAbwBnAHMAIAB8ACAAUgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUA", ""},
		// A generated password holding '/'.
		{"kafka url slash", "BROKER=kafka+ssl://7QKX2MZP4RTV9LNB:Zk3pQ7vL2xR9/mN4tY8wB1cF6hJ0sQm7L+x2Vt9Rw4PnYs@broker.example.cloud:9092", "Zk3pQ7vL2xR9/mN4tY8wB1cF6hJ0sQm7L+x2Vt9Rw4PnYs"},
		{"url path at", "see https://docs.example.dev:8443/guides/setup/@latest for the steps", ""},
		// A hex key as a lookup's fallback.
		{"env fallback hex", "const k = process.env.STRIPE_SECRET ?? \"4f9a2c1e77aa4c1e9f000a1b2c3d\";", "4f9a2c1e77aa4c1e9f000a1b2c3d"},
		{"env fallback short hex", "const c = process.env.THEME_KEY ?? \"4f9a2c\";", ""},
		// The password's word in more forms.
		{"prose arabic no article", "كلمة سر خادم الاختبار: Qm7Lx2Vt9Rw4Pn", "Qm7Lx2Vt9Rw4Pn"},
		{"prose arabic word", "كلمة سر قوية: طويلة", ""},
		{"prose danish koden", "Koden til gæste-wifi er Hn4Lq8Zt2Vw7Rx", "Hn4Lq8Zt2Vw7Rx"},
		{"prose danish koden word", "Koden til projektet er skrevet i Go", ""},
		{"prose italian credenziali", "Credenziali staging: admin.ops / Zt2Vw7Rx3Kp9Ts", "Zt2Vw7Rx3Kp9Ts"},
		{"prose italian credenziali word", "Credenziali staging: vedi il vault / chiedi a Luca", ""},
		// Generated values with a call's or a placeholder's marks.
		{"wp salt paren", "define('NONCE_SALT', '(Kq7#vL2]xR9!mN4{tY8*wB1^cF6~hJ0s|Pz3<Wd5;Gk8');", "(Kq7#vL2]xR9!mN4{tY8*wB1^cF6~hJ0s|Pz3<Wd5;Gk8"},
		{"token opens angle", "env:\n  REGISTRY_TOKEN: <Zk3pQ7vL2xR9mN4tY8wB1\n", "<Zk3pQ7vL2xR9mN4tY8wB1"},
		{"token digit in angles", "REGISTRY_TOKEN=\"Qm7Lx2Vt<4>Rw4Pn[Ys3Hq8\"", "Qm7Lx2Vt<4>Rw4Pn[Ys3Hq8"},
		{"placeholder angle", "REGISTRY_TOKEN: <your-registry-token>", ""},
		{"call paren", "define('NONCE_SALT', '(getenv(\"NONCE_SALT\"))');", ""},
		{"salt stand-in", "define('NONCE_SALT', 'put your unique phrase here');", ""},
		{"notebook escaped word", "  \"os.environ[\\\"SORT_KEY\\\"] = \\\"created_at_descending\\\"\\n\"", ""},
	})
}
