package redact

import "strings"

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
		re:     lazyRE(`(?i)(\b(?:api|token)\b[^\n:=：]{0,60}[:：][ \t]*)([A-Za-z0-9]{20,100})([ \t]*(?:\r?\n|$))`),
		repl:   func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			l := strings.ToLower(m[1])
			return anyOf(l, " id", "_id", "-id", "hash", "sha", "digest", "version", "fingerprint", "nonce", "request", "trace", "commit", "url", "endpoint") ||
				!mixedCase(m[2]) || !random(m[2]) || hexOnly(m[2])
		},
	}}
}
