package redact

import "testing"

// TestRound22 holds shapes written for the twenty-second round's classes
// (none from any corpus). Look-alikes first: a template's action where a
// braced password would be (consul-template's {{ with secret "…" }},
// Jinja's {% … %}), a publishable key under any name (pk_live_…,
// pk_test_…), a lookup key built from words and a digest (a CI cache's
// key template). Then secrets' classes: Sentry's sntrys_/sntryu_ and
// Fly.io's FlyV1 fm2_ tokens, a password glued to 7z's or rar's -p and
// quoted for the shell, a master or admin key told in prose, Bundler's
// gem source login (BUNDLE_<HOST>), a key in base32's small letters (an
// Azure DevOps PAT), a signing call's key after a payload's object
// literal (jwt.sign({ … }, '…')), a secret decoded between the echo and
// the command that reads it, a call that takes the password alone
// (red:auth("…")), a JSON object in base64 holding a login (a
// .dockerconfigjson), a gzip stream in base64 under an environment's or
// secrets' name, a JWT wrapped in literals a compiler joins or known by
// its header alone, and a chosen password of both cases and a symbol
// with no digit, in prose after a dash and in a builder's .password("…");
// from the older sets' classes, a deploy or build hook's URL and a
// credential, a Geheimschlüssel or a jeton d'accès told in prose.
// Beside each, the look-alike of the same layout.
func TestRound22(t *testing.T) {
	judgeRound(t, []roundCase{
		// A template's action is a reference.
		{"consul template", "password = {{ with secret \"secret/data/prod/api\" }}{{ .Data.data.password }}{{ end }}", ""},
		{"jinja action", "PWD = {% if prod %}{{ vault_pw }}{% endif %}", ""},
		{"odbc braced", "Driver={ODBC Driver 18};Server=db;PWD={Xk9;pQ2mZ7vqL}", "Xk9;pQ2mZ7vqL"},
		// A publishable key is public under any name.
		{"clerk publishable", "VITE_CLERK_PUBLISHABLE_KEY=pk_live_Y2xlcmsuZXhhbXBsZS5jb20k", ""},
		{"stripe publishable yaml", "stripe:\n  client_key: \"pk_test_51HqLmZ2xVt4RwP7nYsK8Hq2\"", ""},
		{"stripe secret same name", "stripe:\n  client_key: \"sk_test_51HqLmZ2xVt4RwP7nYsK8Hq2\"", "sk_test_51HqLmZ2xVt4RwP7nYsK8Hq2"},
		{"pk not a mode", "APP_KEY=pk_Xq7Lm2Zk9Vt4Rw8PnYs3", "pk_Xq7Lm2Zk9Vt4Rw8PnYs3"},
		// A lookup key of words and a digest.
		{"cache key sha256", "Cache saved with key: pip-cache-Windows-py311-5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592", ""},
		{"cache key sha1", "restore_cache key: gradle-deps-linux-2fd4e1c67a2d28fced849ee1bb76e7391b93eb12", ""},
		{"key random run", "deploy key: Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs"},
		{"key word then random", "signing key: prod-Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs"},
		// Vendor prefixes: Sentry's sntrys_/sntryu_, Fly.io's macaroons.
		{"sentry user", "for staging use 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 until Friday", "sntryu_4f1c2a9e"},
		{"sentry org", "paste sntrys_eyJpYXQiOjE3MDAwMDAwMDB9_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2xVt4RwP7nYsK8Hq", "sntrys_eyJpYXQ"},
		{"fly macaroon", "hey, the deploy uses FlyV1 fm2_lJPECAAAAAAAAAbxxQ8Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYsK8Hq2LmZ9xVt4RwP7n,fm2_lJPEQm7Lx2Vt9Rw4PnYs3Hq8LmZ2xVt for now", "fm2_lJPECAAAA"},
		{"fm2 word", "the fm2_ prefix marks Fly's macaroons", ""},
		// A password glued to -p, quoted for the shell.
		{"7z quoted", "7za x -p\"Qm7#vT2pLx9\" backup.7z", "Qm7#vT2pLx9"},
		{"rar quoted", "rar a -hp'Lp2Wq7zRmTx9' secrets.rar docs/", "Lp2Wq7zRmTx9"},
		{"7z prompt", "7z a -p archive.7z ./dir   # prompts for the password", ""},
		// A master or admin key told in prose.
		{"prose master key", "FYI the Typesense admin key on prod is Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L"},
		{"prose master key words", "the master key is rotated by the KMS every 90 days", ""},
		// Bundler's gem source login.
		{"bundler env", "export BUNDLE_GEMS__GRAPHQL__PRO=\"a1b2c3d4:9f8e7d6c5b4a\"", "a1b2c3d4:9f8e7d6c5b4a"},
		{"bundler yaml", "---\nBUNDLE_RUBYGEMS__PKG__GITHUB__COM: \"ci-bot:ghp_notreal\"", "ci-bot:ghp_notreal"},
		{"bundler build flags", "BUNDLE_BUILD__NOKOGIRI: \"--use-system-libraries\"", ""},
		{"bundler path", "BUNDLE_PATH: \"vendor/bundle\"", ""},
		{"bundler mirror", "BUNDLE_MIRROR__RUBYGEMS__ORG: \"https://gems.internal.example\"", ""},
		// A key in base32's small letters and digits.
		{"azure pat", "AZURE_DEVOPS_EXT_PAT=lq2tvvxuluo6o5gjwihpg3zghu5fwjjd7vjzizspmm4utwfsd4mb", "lq2tvvxuluo6o5gjwihpg3zghu5fwjjd7vjzizspmm4utwfsd4mb"},
		{"pat words", "GITHUB_PAT_SCOPE=repository-read-and-write-packages", ""},
		// A signing call's key after a payload's object literal.
		{"jwt sign object", "const t = jwt.sign({ sub: u.id, role: 'admin' }, 'Xq7Lm2Zk9Vt4Rw8PnYs3', { expiresIn: '1h' })", "Xq7Lm2Zk9Vt4Rw8PnYs3"},
		{"jwt sign env", "const t = jwt.sign({ sub: u.id }, process.env.JWT_SECRET)", ""},
		// A secret decoded between the echo and what reads it.
		{"echo b64 docker", "echo 'UW03I3ZUMnBMeDk=' | base64 --decode | vault login -", "UW03I3ZUMnBMeDk="},
		{"echo b64 file", "echo 'aGVsbG8gd29ybGQ=' | base64 -d | wc -c", ""},
		// A call that takes the password alone.
		{"lua auth", "local ok, err = red:auth(\"Qm7#vT2pLx9\")", "Qm7#vT2pLx9"},
		{"node redis auth", "await client.auth('Lp2Wq7zRmTx9')", "Lp2Wq7zRmTx9"},
		{"auth name", "app.auth(\"basic\")", ""},
		// A JSON object in base64 holding a login; a gzip'd .env in base64;
		// a JWT wrapped in joined literals or known by its header alone.
		{"docker config b64", "  .dockerconfigjson: eyJhdXRocyI6IHsicmVnaXN0cnkuZXhhbXBsZS5pbyI6IHsiYXV0aCI6ICJZMms2VVcwM2VFeHdPWFpVTW5kU2VqUkxaQT09In19fQ==", "eyJhdXRocyI6IHsicmVnaXN0cnkuZXhhbXBsZS5p"},
		{"json b64 plain", "  app.json: eyJuYW1lIjogIndlYiIsICJyZXBsaWNhcyI6IDN9", ""},
		{"gzip env", "DOTENV_GZ_B64=H4sIAAAAAAAAA+3OMQ6CQBRF0V7F2QBFhmFmYqGNhY0rIJJBMAYMz0Tcvak0JmpqE8O5zS1e8rbVZOd+aTSbhR3w2F4Za", "H4sIAAAAAAAAA+3OMQ6C"},
		{"gzip other", "ASSETS_GZ=H4sIAAAAAAAAA+3OMQ6CQBRF0V7F2QBFhmFmYqGNhY0rIJJBMAYMz0Tcvak0JmpqE8O5zS1e8rbVZOd+aTSbhR3w2F4Za", ""},
		{"jwt joined", "API_JWT = (\n    \"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaS1ib3Qi\"\n    \"LCJpYXQiOjE3MDAwMDAwMDB9.Qm7xLp9vT2wRz4KdXq7Lm2Zk9Vt4\"\n)", "Qm7xLp9vT2wRz4KdXq7Lm2Zk9Vt4"},
		{"joined words", "MSG = (\n    \"eyJ is how base64 JSON opens \"\n    \"and nothing more\"\n)", ""},
		{"jwt header only", "fallback when unset: \"eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4Rw.P7nYsK8Hq2LmZ9xVt4RwP7n\"", "Xq7Lm2Zk9Vt4Rw8PnYs3"},
		// A chosen password of both cases and a symbol, no digit.
		{"prose dash symbols", "Пароль до VPN — QmRt-x!+z#wkp, зміню завтра.", "QmRt-x!+z#wkp"},
		{"builder symbols", "DataSource ds = builder.password(\"kqRTWzpLmX*\").build();", "kqRTWzpLmX*"},
		{"builder word", "cfg.password(\"Password\")", ""},
		{"prose dash word", "Пароль до VPN — у менеджері паролів, зміню завтра.", ""},
		// From the older sets' classes: a deploy hook's URL; a credential,
		// a Geheimschlüssel, a jeton d'accès told in prose.
		{"netlify hook", "curl -X POST https://api.netlify.com/build_hooks/5f2a9c0e7b1d4a6c8e3f0b2d", "5f2a9c0e7b1d4a6c8e3f0b2d"},
		{"vercel hook", "hook: https://api.vercel.com/v1/integrations/deploy/prj_Qm7xLp9vT2wRz4Kd/Xq7Lm2Zk9V", "Xq7Lm2Zk9V"},
		{"netlify docs", "see https://docs.netlify.com/configure-builds/build-hooks/ for build hooks", ""},
		{"prose credential", "the service credential is Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L/9a", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2L/9a"},
		{"prose geheim", "Geheimschlüssel: Qm7xLp9vT2wRz4KdXq7Lm2Zk9Vt4Rw8P", "Qm7xLp9vT2wRz4KdXq7Lm2Zk9Vt4Rw8P"},
		{"prose jeton", "jeton d'accès : Lp2Wq7zRmTx9Kc4VbN8sQ3jH", "Lp2Wq7zRmTx9Kc4VbN8sQ3jH"},
		{"prose credential words", "the credential is stored in Vault under kv/ci", ""},
	})
}
