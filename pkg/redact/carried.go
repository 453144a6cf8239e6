package redact

import (
	"net/url"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// carriedRules find a secret carried where no name says "password" next
// to it in plain text (round 17, by class):
//   - a webhook's address whose path carries the secret (Office 365's
//     /webhook/…/IncomingWebhook/…, Mattermost's and Rocket.Chat's
//     /hooks/…, any /webhooks/ID/TOKEN): a generated path segment after
//     the hook's own word is its token;
//   - an authenticator's setup key written in groups of four, as setup
//     screens show it (M7KJ PRG4 GL66 TEPV …): base32 groups, some with
//     digits, which English words in capitals have not;
//   - a name and its value percent-encoded inside a URL or a form body
//     (redirect=password%3D…%26user…, %22token%22%3A%22…%22), read
//     decoded as the name=value rules read it.
func carriedRules() []rule {
	return []rule{
		{
			name:   "webhook",
			hints:  []string{"/webhook", "/hook", "/incoming-webhook", "/incomingwebhook"},
			window: true,
			back:   256,
			span:   600,
			re:     lazy.RE(`(?i)(\bhttps?://[a-z0-9.-]+(?::\d+)?(?:/[A-Za-z0-9._~%-]*)*?/(?:webhooks?|hooks?|webhookb2|incomingwebhook|incoming-webhooks?)/)((?:[A-Za-z0-9._~@+-]+/?)+)`),
			repl: func(m []string) string {
				segs := strings.Split(m[2], "/")
				for i, s := range segs {
					if hookToken(s) {
						segs[i] = Mask
					}
				}
				return m[1] + strings.Join(segs, "/")
			},
			keep: func(m []string) bool {
				for s := range strings.SplitSeq(m[2], "/") {
					if hookToken(s) {
						return false
					}
				}
				return true
			},
		},
		{
			name: "totp-seed",
			pre:  groupedBase32,
			re:   lazy.RE(`(?:^|[^A-Za-z0-9])((?:[A-Z2-7]{4} ){3,}[A-Z2-7]{1,4}|(?:[a-z2-7]{4} ){3,}[a-z2-7]{1,4})(?:[^A-Za-z0-9]|$)`),
			repl: func(m []string) string {
				return strings.Replace(m[0], m[1], "[REDACTED:totp-seed]", 1)
			},
			keep: func(m []string) bool {
				// Groups that mix letters and digits, as random base32
				// does in most groups; a group of digits only is a card's
				// or a number's, and a text of hex digits only (a PGP
				// fingerprint) has no letter past F.
				mixed, numbers := 0, 0
				for g := range strings.SplitSeq(m[1], " ") {
					d := strings.ContainsAny(g, "234567")
					l := strings.Trim(g, "234567") != ""
					if d && l {
						mixed++
					}
					if !l {
						numbers++
					}
				}
				pastF := strings.ContainsAny(strings.ToUpper(m[1]), "GHIJKLMNOPQRSTUVWXYZ")
				return len(strings.ReplaceAll(m[1], " ", "")) < 16 || mixed < 2 || numbers > 1 || !pastF
			},
		},
		{
			name:  "secret-value",
			hints: []string{"%3d", "%3a"},
			re: lazy.RE(`(?i)((?:^|[?&\s=;]|%26|%3F|%22|%2C|%7B)([A-Za-z0-9_.-]*(?:pass|pwd|secret|token|api_?key|apikey|auth|credential)[A-Za-z0-9_.-]*)(?:%3D|(?:%22)?%3A(?:%20)?(?:%22)?))` +
				`((?:[A-Za-z0-9._~+!*()-]|%(?:[013-9A-Fa-f][0-9A-Fa-f]|2[013-589A-Ba-bD-Fd-f]))+)`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v, err := url.QueryUnescape(m[3])
				return err != nil || !namedSecret(m[2], v)
			},
		},
	}
}

// hookToken reports a webhook path's segment that is its secret: long
// and generated, not a word, an id of digits or a placeholder.
func hookToken(s string) bool {
	return len(s) >= 20 && !notAValue(s) && !redacted(s) && (random(s) || generated(s))
}

// groupedBase32 reports four or more groups of four base32 characters
// apart by single spaces, two of them mixing letters and digits: the
// only texts the grouped setup key's rule reads.
func groupedBase32(s string) bool {
	// run counts the groups of four in a row, mixed those of them with
	// a digit 2-7 and a letter (prose's four-letter words have none).
	run, mixed, n := 0, 0, 0
	digit, letter := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			n++
			letter = true
		case c >= '2' && c <= '7':
			n++
			digit = true
		case c == ' ' && n == 4:
			run++
			if digit && letter {
				mixed++
			}
			n, digit, letter = 0, false, false
			if run >= 3 && mixed >= 2 && i+1 < len(s) && s[i+1] != ' ' {
				return true
			}
			continue
		default:
			run, mixed, n, digit, letter = 0, 0, 0, false, false
			continue
		}
		if n > 4 {
			run, mixed, n, digit, letter = 0, 0, 0, false, false
		}
	}
	return false
}
