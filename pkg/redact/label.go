package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// labelRules find a generated token that ends a line after a label naming
// an API or a token, whatever language the rest of the label is in
// ("API-Schlüssel für das Zahlungs-Gateway: …", "APIキー: …", "token de
// acceso del bot: …"): the key words the other rules know sit apart from
// the colon, or the label's noun is not English. The value must look
// generated (capitals, small letters and digits mixed as a generator
// mixes them), be the line's one token, and the label name no identifier,
// hash or version.
func labelRules() []rule {
	return []rule{{
		name:   "secret-value",
		hints:  []string{"api", "token"},
		window: true,
		span:   200,
		pre:    func(lower string) bool { return strings.Contains(lower, ":") || strings.Contains(lower, "：") },
		re:     lazy.RE(`(?i)(\b(?:api|token)\b[^\n:=：]{0,60}[:：][ \t]*)([A-Za-z0-9]{20,100})([ \t]*(?:\r?\n|$))`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			l := strings.ToLower(m[1])
			return anyOf(l, " id", "_id", "-id", "hash", "sha", "digest", "version", "fingerprint", "nonce", "request", "trace", "commit", "url", "endpoint") ||
				!mixedCase(m[2]) || !random(m[2]) || hexOnly(m[2])
		},
	}, {
		// A directive whose name closes a compound on "pass" or "auth"
		// (redis' requirepass and masterauth, a config's rootpass or
		// dbpass) given its value after spaces, bare or quoted, as a
		// server's config file or its CONFIG SET command writes it.
		name:   "secret-value",
		hints:  []string{"pass ", "pass\t", "auth ", "auth\t"},
		window: true,
		span:   160,
		re:     lazy.RE(`(?i)((?:^|[^A-Za-z0-9_])[a-z]{2,12}(?:pass|auth)[ \t]+"?)([^\s"]{12,200})("?)`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			name := strings.ToLower(strings.TrimSpace(strings.TrimRight(strings.TrimLeft(m[1], " \t\n([{,;'`"), " \t\"")))
			return notPassNames.Get()[name] || notAValue(m[2]) || redacted(m[2]) || !generated(m[2]) && !tokenLike(m[2])
		},
	}, {
		// A credential named by its abbreviation or its protocol: an
		// Azure DevOps or GitHub PAT, a Wi-Fi network's WPA2/WPA3 or
		// PSK key, a network key ("PAT: …", "WPA2 key …", "PSK=…").
		name:   "secret-value",
		hints:  []string{"pat", "psk", "wpa", "wep", "wi-fi", "wifi", "wlan", "network key"},
		window: true,
		span:   160,
		re:     lazy.RE(`((?:^|[^\p{L}\p{N}_])(?:PAT|(?i:psk|pre-shared key|wpa[23]?(?:-psk)?|wep|wi-?fi|wlan|wireless|network)(?:[ \t-]+(?i:key|passphrase|password|pass|code))?)[ \t]*[:=：]?[ \t]+["'\x60]?)([^\s"'\x60]{8,120})`),
		repl:   func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			l := strings.ToLower(m[1])
			v := strings.TrimRight(m[2], sentenceEnd)
			bare := !strings.ContainsAny(l, ":=：") && !strings.Contains(l, "key") && !strings.Contains(l, "pass") && !strings.Contains(l, "code")
			return notAValue(v) || redacted(v) || bare && !strings.Contains(m[1], "PAT") || !strong(v) && !tokenLike(v) && !passphrase(v) && !generatedLetters(v)
		},
	}, {
		// A login or a password set to a value in prose: "reset the
		// Grafana admin login to …", "changed the root password to …".
		name:   "secret-value",
		hints:  []string{"login", "password", "passwd", "passphrase", "credential"},
		window: true,
		span:   200,
		re:     lazy.RE(`(?i)(\b(?:reset|set|changed?|rotated?|updated?)\s+(?:the\s+|my\s+|our\s+|its\s+)?(?:[\w-]+\s+){0,3}?(?:login|password|passwd|passphrase|credentials?)\s+(?:to|=)\s+["'\x60]?)([^\s"'\x60]{8,120})`),
		repl:   func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			v := strings.TrimRight(m[2], sentenceEnd)
			return notAValue(v) || redacted(v) || !strong(v) && !generated(v) && !passphrase(v) && !generatedLetters(v) && !chosen(v)
		},
	}, {
		// A password given in a chat as the answer to a question asking
		// for it, in any language: "Max: hast du das Passwort?" then
		// "Lea: ja: …" on the next line ("sì, eccola: …", "oui : …").
		name:   "secret-value",
		hints:  append([]string{"パスワード", "密码", "密碼", "口令", "비밀번호", "비번"}, pwHints...),
		window: true,
		span:   240,
		re:     lazy.RE(`(?i)((?:` + pwWords + `|パスワード|密码|密碼|口令|비밀번호|비번)[^\n]{0,60}[?？][ \t]*\r?\n[^\n:：]{1,30}[:：][ \t]*(?:[\p{L}]{1,10}[ \t]*[,:!.，：]?[ \t]+){0,3}["'\x60]?)([^\s"'\x60]{8,120})`),
		repl:   func(m []string) string { return m[1] + Mask },
		keep: func(m []string) bool {
			v := strings.TrimRight(m[2], sentenceEnd)
			return notAValue(v) || redacted(v) || !strong(v) && !generated(v) && !passphrase(v) && !generatedLetters(v) && !chosen(v)
		},
	}}
}

// notPassNames end in "pass" or "auth" and name no secret.
var notPassNames = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"bypass": true, "compass": true, "surpass": true, "overpass": true, "underpass": true, "trespass": true, "encompass": true, "impass": true, "oauth": true, "noauth": true, "preauth": true, "reauth": true, "unauth": true}
}}
