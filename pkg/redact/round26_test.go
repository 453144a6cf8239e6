package redact

import "testing"

// TestRound26 holds shapes written for the twenty-sixth round's classes
// (none from any corpus): a chat line that tells of a credential made
// anew and hands it over after an arrow with no name for it ("new one
// for prod, rotate friday -> …"); beside it, the same words before a
// path, a ticket, a word or a commit's short hash. Then a YAML block
// scalar under bearer: or credentials:, an XML element named credential
// (its text or CDATA), and a Python REPL's expression naming a token or a
// key with the value it echoes on the line below; beside each, prose, a
// type, an id, a word and a length in the same places. Then the literal
// an environment lookup of a secret's name falls back to (?? and ||);
// beside it, a URL, a region, a placeholder. Then a builder step named
// for a secret given a generator's letters and '_' without a digit;
// beside it, a name of words and a placeholder. Then a base64 JSON
// object wrapped at 64 or 76 columns holding a private key's PEM or a
// login; beside it, a wrapped object that holds none. Then a password
// of capitals, digits and a symbol told in prose with words between the
// word and the verb; beside it, a standard's name and a policy. Then a
// quoted password right before the verb that closes its clause (Persian
// است); beside it, a word and a default quoted there.
func TestRound26(t *testing.T) {
	judgeRound(t, []roundCase{
		// A credential made anew, handed over after an arrow.
		{"chat rotate arrow", "[09:14] lee: new one for prod, rotate friday -> Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"chat new key", "@ana: new key for the worker => 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"chat rotated dotted", "rotated it this morning → xk.live.Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s", "xk.live.Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"chat regenerated quoted", "regenerated after the leak -> 'Hn4Lq8Zt2Vw7Rx3Kp9Ts'", "Hn4Lq8Zt2Vw7Rx3Kp9Ts"},
		{"rotate path", "new one for staging, rotate after the demo -> /etc/logrotate.d/api-gateway", ""},
		{"rotate ticket", "key rotation -> tracked in OPS-4411-followup-notes", ""},
		{"rotate words", "log rotation -> weekly_compressed_archives", ""},
		{"rotate short hash", "rotated the signing key -> see commit 4f9a2c1", ""},
		// A YAML block scalar under a bearer's or a credential's key.
		{"yaml folded bearer", "http:\n  bearer: >-\n    Zk3pQ7vL2xR9mN4tY8wB1cF6\n  timeout: 30", "Zk3pQ7vL2xR9mN4tY8wB1cF6"},
		{"yaml literal credentials", "svc:\n  credentials: |\n    Hn4Lq8Zt2Vw7Rx3Kp9TsQm7L\n", "Hn4Lq8Zt2Vw7Rx3Kp9TsQm7L"},
		{"yaml folded bearer prose", "docs:\n  bearer: >-\n    Send the header on every call.\n", ""},
		// An element named for a credential, its text or CDATA.
		{"xml credential cdata", "<auth><credential><![CDATA[Qm7@Lx2!Vt9+Rw4]]></credential></auth>", "Qm7@Lx2!Vt9+Rw4"},
		{"xml credential text", "<credential>Hn4,Lq8=Zt2Vw7</credential>", "Hn4,Lq8=Zt2Vw7"},
		{"xml credential type", "<credentialType>password</credentialType>", ""},
		{"xml credential id", "<credentialId>4f9a2c1e-77aa-4c1e-9f00-0a1b2c3d4e5f</credentialId>", ""},
		// A REPL's expression naming a token, its value echoed below.
		{"repl token key", ">>> Token.objects.get(user=admin).key\n'9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234'", "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234"},
		{"repl api key", ">>> os.environ['OPENAI_API_KEY']\n'Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s'", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"repl token word", ">>> token.kind\n'personal_access_token_classic'", ""},
		{"repl length", ">>> len(api_key)\n40", ""},
		// An environment lookup's fallback literal.
		{"env fallback nullish", "const key = process.env.PLANETSCALE_TOKEN ?? \"pscale_tkn_q7lx2vt9rw4pnys3hq8lmz2kp9ts\";", "pscale_tkn_q7lx2vt9rw4pnys3hq8lmz2kp9ts"},
		{"env fallback or", "const t = import.meta.env.VITE_API_TOKEN || 'Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s';", "Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"env fallback url", "const url = process.env.API_URL ?? \"https://api.example.dev/v2/things\";", ""},
		{"env fallback region", "const region = process.env.AWS_REGION ?? \"eu-west-1\";", ""},
		{"env fallback placeholder", "const token = process.env.GH_TOKEN ?? \"your-token-here\";", ""},
		// A builder step named for a secret given a generator's letters.
		{"builder letters", "let c = Client::builder()\n    .api_key(\"QmLx_VtRwPnYsHqLmZkpTsBvNcXz\")\n    .build()?;", "QmLx_VtRwPnYsHqLmZkpTsBvNcXz"},
		{"builder name", "let c = Client::builder()\n    .secret_name(\"Prod_Database_Credentials\")\n    .build()?;", ""},
		// A base64 JSON object wrapped at 64 or 76 columns.
		{"b64 wrapped private key", "sa.json (base64):\neyJ0eXBlIjogInNlcnZpY2VfYWNjb3VudCIsICJwcm9qZWN0X2lkIjogImFjbWUtY2kiLCAicHJp\ndmF0ZV9rZXkiOiAiLS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tXG5NSUlFdlFJQkFEQU5CZ2tx\naGtpRzl3MEJBUUVGQUFTQ0JLY3dnZ1NqQWdFQUFvSUJBUUNxN1prM3BRN3ZMMnhSOW1ONFxuLS0t\nLS1FTkQgUFJJVkFURSBLRVktLS0tLVxuIn0=\n", "eyJ0eXBlIjogInNlcnZpY2VfYWNjb3VudCIsICJwcm9qZWN0X2lkIjogImFjbWUtY2kiLCAicHJp"},
		{"b64 wrapped login", "DOCKER_AUTH_B64:\neyJyZWdpc3RyeSI6ICJnaGNyLmlvIiwgInVzZXJuYW1lIjogImNpLWJvdCIsICJw\nYXNzd29yZCI6ICJRbTdMeDJWdDlSdzRQbllzM0hxOExtWjJrUDl0In0=\n", "eyJyZWdpc3RyeSI6ICJnaGNyLmlvIiwgInVzZXJuYW1lIjogImNpLWJvdCIsICJw"},
		{"b64 wrapped plain", "dashboard.json (base64):\neyJuYW1lIjogImFjbWUtZGFzaGJvYXJkIiwgImRlc2NyaXB0aW9uIjogInRoZSB0ZWFtJ3Mgd2Vl\na2x5IGRhc2hib2FyZCBvZiBidWlsZCB0aW1lcyBhbmQgZmxha3kgdGVzdHMiLCAib3duZXIiOiAi\ncGxhdGZvcm0ifQ==\n", ""},
		// A password of capitals, digits and a symbol told in prose with
		// words between; a quoted one before a final verb.
		{"prose caps arabic", "كلمة المرور لخادم النسخ الاحتياطي هي QX7!RT4#M9 ولا ترسلها", "QX7!RT4#M9"},
		{"prose caps english", "the password for the lab router is KQ8$ZT3*WN1", "KQ8$ZT3*WN1"},
		{"prose caps standard", "كلمة المرور لقاعدة البيانات هي ISO-8601", ""},
		{"prose caps policy", "The password policy for the database is SHA-256 and NIST-800", ""},
		// A quoted password right before the verb that closes the clause.
		{"prose quoted persian", "رمز عبور پنل مدیریت \"HQTRw+KLPzX-57\" است", "HQTRw+KLPzX-57"},
		{"prose quoted persian word", "رمز عبور پنل مدیریت \"کوتاه\" است", ""},
		{"prose quoted persian default", "رمز عبور پیش\u200cفرض \"changeme\" است", ""},
		{"builder placeholder", "let c = Client::builder().api_key(\"YOUR_API_KEY\").build()?;", ""},
	})
}
