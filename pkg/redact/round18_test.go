package redact

import (
	"strings"
	"testing"
)

// TestRound18 holds shapes written for the eighteenth round's classes
// (none from any corpus): a seed phrase laid out numbered on one line or
// of any length, or named by the text before it in some language, with no
// checksum asked; a session cookie as a key of a code map or a record; a
// login whose value is a generated token; a secret's identifier and its
// value with no operator, as a log prints them; and beside each the
// look-alikes of the same layout (a cache key after "key", fixtures that
// call a phrase invalid, a date, a uuid, a word after an identifier).
func TestRound18(t *testing.T) {
	// Random list words: no checksum of BIP39 is asked of them.
	w12 := "orbit canyon velvet hammer plunge ticket forest mango ribbon salute walnut zebra"
	w15 := w12 + " gravity lemon shallow"
	w18 := w15 + " timber noble cousin"
	numbered := func(ws, sep, join string) string {
		var b strings.Builder
		for i, w := range strings.Fields(ws) {
			if i > 0 {
				b.WriteString(join)
			}
			b.WriteString(itoa(i+1) + sep + w)
		}
		return b.String()
	}
	judgeRound(t, []roundCase{
		// A backup layout numbered 1..n, on one line or one a line, any length.
		{"numbered paren line 18", numbered(w18, ") ", " "), "timber"},
		{"numbered dot line 12", numbered(w12, ". ", " "), "velvet"},
		{"numbered lines 18", numbered(w18, ". ", "\n"), "cousin"},
		{"numbered lines 15", numbered(w15, ") ", "\n"), "shallow"},
		{"numbered colon 12", numbered(w12, ": ", ", "), "ribbon"},
		{"numbered in md list", "Backup:\n\n" + numbered(w18, ". ", "\n"), "noble"},
		// A phrase the text before it names, in several languages.
		{"en recovery words", "my recovery words are " + w12 + " please keep them safe", "hammer"},
		{"fr guillemets", "La phrase de récupération est « " + w12 + " »", "plunge"},
		{"de seed", "Meine Seed-Phrase lautet: " + w12, "forest"},
		{"es semilla", "frase semilla: " + w15, "lemon"},
		{"pt recuperacao", "A frase de recuperação é " + w12, "mango"},
		{"it recupero", "frase di recupero: " + w12, "salute"},
		{"ru phrase", "сид-фраза: " + w12, "walnut"},
		{"zh label", "助记词: " + w12, "zebra"},
		{"ja label", "シードフレーズ：" + w12, "canyon"},
		{"seed phrase label in list", "seed phrase: " + w12, "orbit"},
		{"ethers fromPhrase", `const w = ethers.Wallet.fromPhrase("` + w18 + `");`, "timber"},
		{"env mnemonic", "MNEMONIC=\"" + w12 + "\"", "ticket"},
		{"wallet 24 prose", "wallet backup phrase: " + w18 + " gravity lemon shallow timber noble cousin", "cousin"},
		// Look-alikes: fixtures, a word cloud, prose, a short list.
		{"invalid fixture", "INVALID_MNEMONIC=\"" + w12 + "\"", ""},
		{"bad fixture", "# negative test: checksum mismatch\nBAD_SEED=\"" + w12 + "\"", ""},
		{"eleven after seed", "not a seed: orbit canyon velvet hammer plunge ticket forest mango ribbon salute walnut", ""},
		{"word cloud", "top terms this week: " + w12, ""},
		{"numbered eight", numbered("orbit canyon velvet hammer plunge ticket forest mango", ". ", "\n"), ""},
		{"numbered out of order", "3. orbit\n1. canyon\n7. velvet\n2. hammer\n9. plunge\n4. ticket\n5. forest\n8. mango\n6. ribbon\n12. salute\n11. walnut\n10. zebra", ""},
		{"numbered steps", "1. build the image\n2. push it\n3. deploy", ""},
		// A session cookie as a key of a map, an object or a record.
		{"python cookies", "requests.get(u, cookies={'sessionid': 'Qm8xV2pL9zTr4vWn7yBc3dHs6KfJ1aE5'})", "Qm8xV2pL9zTr4vWn7yBc3dHs6KfJ1aE5"},
		{"json phpsessid", `{"PHPSESSID": "k29fj3lq0zm8xv7bn4rt6yw1pp"}`, "k29fj3lq0zm8xv7bn4rt6yw1pp"},
		{"ps hashtable", `$c = @{ "connect.sid" = "s%3AaB3dE9kLmN0pQ7rS2tUv.Xy8Zq1W" }`, "s%3AaB3dE9kLmN0pQ7rS2tUv.Xy8Zq1W"},
		{"ruby hash", `cookies: { "_myapp_session" => "Zt7Lq2Wm9Xk4Vb8Nc3Yd6HfG1jS5aR0" }`, "Zt7Lq2Wm9Xk4Vb8Nc3Yd6HfG1jS5aR0"},
		{"playwright record", `{"name": "sessionid", "value": "a8Kx02mQpL9zTr4vWn7yBc3dHs6", "domain": ".shop.example"}`, "a8Kx02mQpL9zTr4vWn7yBc3dHs6"},
		{"selenium add_cookie", `driver.add_cookie({"name": "JSESSIONID", "value": "8F3A2C9D1E7B4F6A0C5D8E2B9A1F7C3D"})`, "8F3A2C9D1E7B4F6A0C5D8E2B9A1F7C3D"},
		{"yaml sid", "cookies:\n  sid: 'Rk4Lm9Qx2Wz7Tp3Vn8Bc5Yd1HfG6'", "Rk4Lm9Qx2Wz7Tp3Vn8Bc5Yd1HfG6"},
		{"session uuid", `{"sessionId":"535139da-f67a-48d3-8369-d6f21a047039","cwd":"/x"}`, ""},
		{"session date", `"session": "2024-05-01-standup"`, ""},
		{"session name", `{"name": "session", "value": "onboarding-flow-v2"}`, ""},
		{"session count", `{"sessions": "12"}`, ""},
		// A login whose value is a generated token.
		{"sonar login", "sonar.login=Hq7zLm2Wx9pRt4VbN3cY8dK1fG5jS6aT0e", "Hq7zLm2Wx9pRt4VbN3cY8dK1fG5jS6aT0e"},
		{"gradle sysprop login", "systemProp.sonar.login=4f1c9a7e2b8d3f6a0c5e9b1d7a3f8c2e6b0d4a9f", "4f1c9a7e2b8d3f6a0c5e9b1d7a3f8c2e6b0d4a9f"},
		{"yaml login token", "registry:\n  login: \"Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5w\"", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5w"},
		{"json logon", `{"logon": "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8HfG2jS"}`, "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8HfG2jS"},
		{"login user", "sonar.login=admin", ""},
		{"login email", "login: k.novak@example.com", ""},
		{"login url", "LOGIN_URL=https://sso.example.com/loginPageForUsers", ""},
		{"login name", "git_login=dana-ops-2024", ""},
		// A secret's identifier then its value, no operator.
		{"glog master key", `I0412 13:05:02.119 main.go:57] using master_key "Xk9mQ2vLp8wZr4Tq7Yb3Nc6Hd5Fg"`, "Xk9mQ2vLp8wZr4Tq7Yb3Nc6Hd5Fg"},
		{"logfmt bare", "level=info msg=loaded client_secret Lm2Qz7WxRt4Pk9Vb3Nc8Yd5HfG6jS", "Lm2Qz7WxRt4Pk9Vb3Nc8Yd5HfG6jS"},
		{"camel backtick", "DEBUG setting apiKey `sk_9fQ2x8Lm3Vb7Kp1Zr5Tw6Y`", "sk_9fQ2x8Lm3Vb7Kp1Zr5Tw6Y"},
		{"trace signing", "trace: signingKey 'c2VjcmV0LWtleS1mb3ItaG1hYy0yMDI0'", "c2VjcmV0LWtleS1mb3ItaG1hYy0yMDI0"},
		{"word after name", "the master_key rotation runs via kms_key_rotation_2024", ""},
		{"expires after", "the access_token expires after 3600 seconds", ""},
		{"release tag", "api_key v1_2024_01_15_release", ""},
		{"uuid id", "session_token_id 3f9a2b7c-1d4e-5f60-7182-93a4b5c6d7e8", ""},
		{"commit sha", "commit_sha 3f9a2b7c1d4e5f60718293a4b5c6d7e8f9012345", ""},
		{"prose key", "the key Xk9mQ2vLp8wZr4Tq7Yb3Nc6Hd5Fg is not in this text as code", ""},
		// A key into a store after a key word.
		{"cache key colon", "key: user:54837:profile", ""},
		{"redis key", "cache_key: tenant:42:settings:v2", ""},
		{"key placeholder", "key = \"rl:ip:{addr}:minute\"", ""},
		{"key glob", "key: session:*:data", ""},
		{"key generated part", "key: user:Xk9pQ2mZ7vLs8Tq4:profile", "Xk9pQ2mZ7vLs8Tq4"},
		{"password colons", "password: blue:54837:horse", "blue:54837:horse"},
	})
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}
