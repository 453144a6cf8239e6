// Package redact removes secrets from text before it is stored in a note or
// sent to a model. Notes sync to every machine a user owns and live in git
// history for good, so a token pasted into a prompt must never reach disk.
//
// The rules favour catching real credentials over preserving every byte of
// prose: a false positive costs a word in a session summary, a false negative
// leaks a credential to every clone of the memory repository.
package redact

import (
	"cmp"
	"encoding/base64"
	"math"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
	"github.com/anamnesis-dev/anamnesis/pkg/mnemonic"
	"github.com/anamnesis-dev/anamnesis/pkg/pairs"
)

// Mask replaces a secret value whose key is kept (password=[REDACTED]).
const Mask = "[REDACTED]"

type rule struct {
	name string
	// re is compiled on the rule's first use: most texts give no rule's
	// hint, and a process redacts few texts (compiling every rule costs
	// a hook several ms at its start).
	re *lazy.Regexp
	// repl builds the replacement from one match's submatches; nil means
	// the whole match becomes "[REDACTED:name]".
	repl func(m []string) string
	// keep, when set, vetoes a match (RE2 has no lookaround).
	keep func(m []string) bool
	// hints are lower-case substrings one of which every match contains;
	// checking them first keeps ordinary prose off the slower regexps.
	hints []string
	// repeat runs the rule again on its own output while it changes
	// (several flags of one command).
	repeat bool
	// window: every match opens a few bytes before one of the hints and
	// stays on its line within windowSpan bytes of it, so the regexp reads
	// only the text around the hints (a whole transcript holds "pass" a
	// few dozen times, and the prose rules' Unicode classes are slow).
	window bool
	// span, when set, bounds a windowed rule's match to fewer bytes after
	// its hint than windowSpan: a key, its operator and a value (the
	// hints of such rules fill a transcript, and a smaller window is read
	// faster).
	span int
	// assigned: only a hint that the rest of a name, a quote or spaces
	// lead to ':' or '=' opens a window (a key given a value).
	assigned bool
	// literal: only a hint that the rest of a name and spaces lead to
	// '(' or a quote opens a window (a name given a literal).
	literal bool
	// back, when set, is how far before its hint a windowed rule's match
	// may open, instead of windowBack (a literal before the comment that
	// names it).
	back int
	// pre, when set, is a test on the lower-cased text that every match
	// passes, cheaper than the regexp (a hint alone may be in every text).
	pre func(lower string) bool
	// gate, when set, is asked at the end of each hint of a windowed rule
	// whether it opens a window (as assigned and literal are).
	gate func(lower string, end int) bool
}

// windowBack and windowSpan bound where a windowed rule's match lies
// around a hint: a keyword may open up to windowBack bytes before its hint
// ("api key" before "key"), and the keyword, its qualifier, verb and a
// quoted value fit in windowSpan; an unquoted value runs to a space.
const (
	windowBack = 64
	windowSpan = 1200
	// keySpan is the span of a key's rules: the rest of the key, its
	// operator and a value of up to 200 bytes.
	keySpan = 320
)

// windowed finds a windowed rule's matches in the windows around its
// hints (lower is s lower-cased, of the same length).
func windowed(ru *rule, s, lower string) [][]int {
	var at []int
	for _, h := range ru.hints {
		for from := 0; ; {
			i := strings.Index(lower[from:], h)
			if i < 0 {
				break
			}
			if (!ru.assigned || assignAfter(lower, from+i+len(h))) && (!ru.literal || literalAfter(lower, from+i+len(h))) && (ru.gate == nil || ru.gate(lower, from+i+len(h))) {
				at = append(at, from+i)
			}
			from += i + len(h)
		}
	}
	slices.Sort(at)
	// reach is where the window of a hint at i must end at least: its
	// span, then on to the next space (an unquoted value runs to one).
	reach := func(i int) int {
		end := min(len(s), i+cmp.Or(ru.span, windowSpan))
		if k := strings.IndexAny(s[end:], " \t\r\n"); k >= 0 {
			return end + k
		}
		return len(s)
	}
	var out [][]int
	back := cmp.Or(ru.back, windowBack)
	for k := 0; k < len(at); {
		start := max(0, at[k]-back)
		for start > 0 && !utf8.RuneStart(s[start]) {
			start--
		}
		end := reach(at[k])
		// The hints whose windows overlap this one join it.
		for k++; k < len(at) && at[k]-back < end; k++ {
			end = max(end, reach(at[k]))
		}
		for _, m := range ru.re.Get().FindAllStringSubmatchIndex(s[start:end], -1) {
			for g := range m {
				if m[g] >= 0 {
					m[g] += start
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// assignAfter reports whether the rest of a name, quotes, brackets or
// spaces lead from lower[j:] to ':' or '=' within a few bytes.
func assignAfter(lower string, j int) bool {
	for k := j; k < len(lower) && k < j+32; k++ {
		switch c := lower[k]; {
		case c == ':' || c == '=' || c == '|' && strings.HasPrefix(lower[k:], "||="):
			return true
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 || strings.IndexByte("_.-\\\"' \t]?", c) >= 0:
		default:
			return false
		}
	}
	return false
}

// literalAfter reports whether the rest of a name, spaces or ".set" lead
// from lower[j:] to '(' followed by a quote, or to a quote.
func literalAfter(lower string, j int) bool {
	k := j
	for k < len(lower) && k < j+32 && (lower[k] >= 'a' && lower[k] <= 'z' || lower[k] >= '0' && lower[k] <= '9' || lower[k] == '_') {
		k++
	}
	rest := strings.TrimPrefix(lower[k:], ".set")
	rest = strings.TrimLeft(rest, " \t(")
	return rest != "" && (rest[0] == '"' || rest[0] == '\'')
}

// Redactor applies a fixed rule list. It is safe for concurrent use.
type Redactor struct {
	rules []rule
}

// pairKeys are key names whose value is a secret. The key must be followed
// directly by ':' or '=' (optionally after a closing quote), so "tokenizer:",
// "max_tokens=" and "the token you pasted" are left alone. authtok is
// PAM's and SSSD's authentication token (ldap_default_authtok); bearer
// alone names the token a Bearer header carries ("bearer": "…"); a CSRF
// token is a session's secret (a session store's record holds one).
const pairKeys = `(?:pass(?:word|wd|[_-]?phrase)?|[_.-]pass|pwd|secret(?:[_-]?access)?(?:[_-]?key)?|client[_-]?secret|` +
	`(?:access|auth|refresh|id|session|bearer|api|bot|private)?[_-]?token|` +
	`api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|private[_-]?key|credentials?|` +
	`account[_-]?key|shared[_-]?access[_-]?key|psk|requirepass|masterauth|passcode|_auth(?:token)?|auth[_-]?tok\b|bearer\b|signature|mnemonic|macaroon|[_-]pat|[_-]pw|[cx]srf(?:[_-]?token)?\b)`

// assign is the operator between a key and its value: = : := => and
// Make's ?=, and the assignments that keep a value already set (Ruby's
// and JavaScript's ||=, ??=) (a Go ":=" must not leave "=" as the value).
const assign = `(?::=|=>|\?\?=|\?=|\|\|=|[:=])`

// litPrefix opens a string literal with its language's prefix: T-SQL's
// N'…', Postgres' E'…', Objective-C's @"…", Python's b'…', r'…', u'…',
// bash's ANSI-C quoting $'…'.
const litPrefix = `(?:[NE@$]|[bru]{1,2})`

// rawHashes is the number of '#' of a Rust raw string r#"…"# (0: none).
func rawHashes(v string) int {
	if !strings.HasPrefix(v, "r#") {
		return 0
	}
	h := len(v) - len(strings.TrimLeft(v[1:], "#")) - 1
	if len(v) < 2*h+3 || v[h+1] != '"' || !strings.HasSuffix(v, `"`+strings.Repeat("#", h)) {
		return 0
	}
	return h
}

// prefixLen is the length of a literal's prefix (litPrefix) before its
// quote, or 0.
func prefixLen(v string) int {
	for i := 0; i < len(v) && i < 3; i++ {
		if v[i] == '"' || v[i] == '\'' {
			if i > 0 && i < len(v)-1 && v[len(v)-1] == v[i] {
				return i
			}
			return 0
		}
		if !strings.ContainsRune("NnEe@$bBrRuU", rune(v[i])) {
			return 0
		}
	}
	return 0
}

// passWords are words that end in "pass" and name no password.
var passWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"bypass": true, "compass": true, "encompass": true, "overpass": true, "underpass": true, "trespass": true, "surpass": true, "multipass": true, "onepass": true, "twopass": true, "firstpass": true, "singlepass": true}
}}

// New compiles the rule list. Callers normally use String or Redact, which
// share one compiled Redactor; New exists for tests.
func New() *Redactor {
	whole := func(name, expr string, hints ...string) rule {
		return rule{name: name, re: lazy.RE(expr), hints: hints}
	}
	// codeRules come first: a list of codes is one secret, and a key's
	// rule would take only its first group.
	rules := append(append(bracedRules(), codeRules()...), []rule{
		// A complete PEM private key block, any algorithm, then one whose END
		// line is missing (a truncated paste still leaks the key material).
		// RFC 4716's SSH2 form (Tectia, SecureCRT) opens "---- BEGIN SSH2 …".
		whole("private-key", `-{4,5} ?BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}[\s\S]*?-{4,5} ?END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}`, "private key"),
		{
			// A truncated block holds key material after its header; a
			// header that prose follows ("must start with -----BEGIN
			// PRIVATE KEY----- and end with …") documents the format.
			name:  "private-key",
			hints: []string{"private key"},
			re:    lazy.RE(`(-{4,5} ?BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5})([\s\S]*)`),
			keep: func(m []string) bool {
				// Key material starts on the next line (or glued on); words
				// on the header's own line after a space are prose.
				rest := strings.TrimLeft(m[2], " \t")
				f := strings.Fields(rest)
				return len(f) > 0 && len(rest) < len(m[2]) && rest[0] != '\n' && rest[0] != '\r' && (len(f[0]) < 16 || strings.Trim(f[0], upper+lower+"0123456789+/=") != "")
			},
		},
		{
			// A private-key file base64-wrapped whole (a Kubernetes tls.key,
			// `base64 -w0 hs_ed25519_secret_key`): its decoded start says so.
			name:  "private-key",
			hints: []string{"ls0tls1crudjt", "pt0gzwqyntux"},
			re:    lazy.RE(`\b(?:LS0tLS1CRUdJT|PT0gZWQyNTUxOXYxLXNlY3JldD)[A-Za-z0-9+/]{40,}={0,2}`),
			keep: func(m []string) bool {
				head, _ := base64.StdEncoding.DecodeString(m[0][:min(len(m[0]), 80)/4*4])
				return !strings.Contains(string(head), "PRIVATE KEY") && !strings.Contains(string(head), "-secret:")
			},
		},
		{
			// An XML key pair (.NET's RSA.ToXmlString(true)) holding its
			// private exponent; the public half (Modulus, Exponent) stays.
			name:  "private-key",
			hints: []string{"keyvalue"},
			re:    lazy.RE(`(?:<|&lt;)(?:RSA|DSA)KeyValue(?:>|&gt;)[\s\S]*?(?:<|&lt;)/(?:RSA|DSA)KeyValue(?:>|&gt;)`),
			keep: func(m []string) bool {
				for _, e := range []string{"<D>", "&lt;D&gt;", "<X>", "&lt;X&gt;"} {
					if strings.Contains(m[0], e) {
						return false
					}
				}
				return true
			},
		},
		{
			// minisign's and signify's secret key files: a comment line that
			// names a secret key, then the key in base64.
			name:  "private-key",
			hints: []string{"untrusted comment"},
			re:    lazy.RE(`(?i)(untrusted comment:[^\n]*secret key[^\n]*\r?\n)([A-Za-z0-9+/]{40,}={0,2})`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		// Nostr's private keys (bech32 nsec, and NIP-49's encrypted form).
		whole("private-key", `\b(?:nsec1[02-9ac-hj-np-z]{58}|ncryptsec1[02-9ac-hj-np-z]{80,})\b`, "nsec1", "ncryptsec1"),
		whole("age-secret-key", `\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{50,}`, "age-secret-key-"),
		// JWTs before the generic token rules so the whole token goes at once.
		// A terminal may wrap it: its first two segments may run on over
		// lines, each ending at its '.'.
		whole("jwt", `\beyJ[A-Za-z0-9_-]{4,}(?:\r?\n[A-Za-z0-9_-]+)*\.eyJ[A-Za-z0-9_-]{4,}(?:\r?\n[A-Za-z0-9_-]+)*\.[A-Za-z0-9_-]*`, "eyj"),
		// A JWT known by its header alone ({"typ":"JWT" or {"alg": in
		// base64), whatever its claims are encoded as.
		whole("jwt", `\beyJ(?:0eXAiOiJKV1Qi|hbGciOi)[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{16,}`, "eyj0exaioijkv1qi", "eyjhbgcioi"),
		{
			// Code may wrap it in string literals a compiler joins (Python's
			// and C's adjacent literals, one a line): the literals joined
			// are the token, whatever line its dots fall on.
			name:  "jwt",
			hints: []string{"eyj"},
			re:    lazy.RE(`(["'])eyJ[A-Za-z0-9_.-]*["'](?:[ \t]*\+?[ \t]*\\?\r?\n[ \t]*(?:\+[ \t]*)?["'][A-Za-z0-9_.-]*["'])+`),
			repl:  func(m []string) string { return m[1] + "[REDACTED:jwt]" + m[1] },
			keep: func(m []string) bool {
				return !jwtShape(strings.NewReplacer("\"", "", "'", "", "\n", "", "\r", "", " ", "", "\t", "", "+", "", "\\", "").Replace(m[0]))
			},
		},
		{
			// AWS's documentation keys end in EXAMPLE (AKIAIOSFODNN7EXAMPLE):
			// published on purpose, they open no account.
			name:  "aws-access-key-id",
			hints: []string{"akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "abia", "acca"},
			re:    lazy.RE(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{16}\b`),
			keep:  func(m []string) bool { return awsExample(m[0]) },
		},
		whole("github-token", `\bgh[pousr]_[A-Za-z0-9]{20,255}\b`, "gh"),
		whole("github-token", `\bgithub_pat_[A-Za-z0-9_]{22,255}\b`, "github_pat_"),
		whole("gitlab-token", `\bgl(?:pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_-]{20,}`, "glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "gloas-"),
		whole("npm-token", `\bnpm_[A-Za-z0-9]{36}\b`, "npm_"),
		whole("pypi-token", `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, "pypi-"),
		whole("rubygems-token", `\brubygems_[a-f0-9]{48}\b`, "rubygems_"),
		whole("huggingface-token", `\bhf_[A-Za-z0-9]{30,}\b`, "hf_"),
		whole("slack-token", `\bxox[abcposre]-[A-Za-z0-9-]{10,}`, "xox"),
		whole("slack-token", `\bxapp-[0-9]-[A-Za-z0-9-]{10,}`, "xapp-"),
		whole("slack-webhook", `\bhttps?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`, "hooks.slack.com"),
		// A deploy or build hook's URL: whoever holds it starts a build
		// (Netlify's build_hooks/<id>, Vercel's integrations/deploy/prj_…/<key>).
		whole("webhook", `\bhttps?://api\.netlify\.com/build_hooks/[a-f0-9]{20,}|\bhttps?://api\.vercel\.com/v1/integrations/deploy/prj_[A-Za-z0-9]+/[A-Za-z0-9]{8,}`, "build_hooks/", "integrations/deploy/"),
		whole("discord-webhook", `\bhttps?://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{30,}`, "discord"),
		whole("google-api-key", `\bAIza[0-9A-Za-z_-]{35}`, "aiza"),
		whole("gcp-oauth-secret", `\bGOCSPX-[A-Za-z0-9_-]{24,}`, "gocspx-"),
		whole("sendgrid-key", `\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, "sg."),
		whole("mailgun-key", `\bkey-[0-9a-z]{32}\b`, "key-"),
		whole("mailchimp-key", `\b[0-9a-f]{32}-us[0-9]{1,2}\b`, "-us"),
		whole("twilio-key", `\bSK[0-9a-fA-F]{32}\b`, "sk"),
		{
			// A Telegram bot token, alone or in the Bot API's URL (/bot<token>/).
			name:  "telegram-bot-token",
			hints: []string{":aa"},
			re:    lazy.RE(`(\bbot|\b)([0-9]{8,10}:AA[A-Za-z0-9_-]{32,33})\b`),
			repl:  func(m []string) string { return m[1] + "[REDACTED:telegram-bot-token]" },
		},
		// BIP32 extended private keys (xprv, tprv and the SegWit forms).
		whole("private-key", `\b[xtyzuv]prv[1-9A-HJ-NP-Za-km-z]{100,}`, "prv"),
		{
			// Discord bot tokens: two dots six characters apart. The first
			// part is a user id's base64: M, N or O first for the older
			// ids, and any letter for the newer (round 17), whose part
			// then mixes capitals, small letters and digits.
			name:  "discord-bot-token",
			hints: []string{"."},
			pre:   dottedToken,
			re:    lazy.RE(`\b([A-Za-z0-9_-]{24,28})\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b`),
			keep: func(m []string) bool {
				id := m[1]
				return strings.IndexByte("MNO", id[0]) < 0 && (!strings.ContainsAny(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || !strings.ContainsAny(id, "abcdefghijklmnopqrstuvwxyz") || !strings.ContainsAny(id, "0123456789"))
			},
		},
		whole("digitalocean-token", `\bdo[opr]_v1_[a-f0-9]{64}\b`, "_v1_"),
		whole("shopify-token", `\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`, "shp"),
		whole("square-token", `\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}`, "sq0"),
		whole("databricks-token", `\bdapi[a-f0-9]{32}(?:-[0-9])?\b`, "dapi"),
		whole("linear-key", `\blin_api_[A-Za-z0-9]{40}\b`, "lin_api_"),
		whole("postman-key", `\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`, "pmak-"),
		whole("grafana-token", `\bgl(?:sa|c)_[A-Za-z0-9_+/=-]{32,}`, "glsa_", "glc_"),
		whole("vault-token", `\bhv[sbr]\.[A-Za-z0-9_-]{24,}`, "hvs.", "hvb.", "hvr."),
		whole("newrelic-key", `\bNR(?:AK|II|JS|RA)-[A-Z0-9]{27}\b`, "nrak-", "nrii-", "nrjs-", "nrra-"),
		whole("pulumi-token", `\bpul-[a-f0-9]{40}\b`, "pul-"),
		whole("alibaba-key-id", `\bLTAI[A-Za-z0-9]{12,24}\b`, "ltai"),
		whole("stripe-webhook-secret", `\bwhsec_[A-Za-z0-9]{24,}`, "whsec_"),
		whole("doppler-token", `\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`, "dp."),
		whole("flyio-token", `\bfo1_[A-Za-z0-9_-]{40,}`, "fo1_"),
		// Fly.io's macaroon tokens: "FlyV1 fm2_…,fm2_…", the scheme and
		// every comma-joined part.
		whole("flyio-token", `\b(?:FlyV1 )?fm[12]_[A-Za-z0-9+/=_-]{40,}(?:,fm[12]_[A-Za-z0-9+/=_-]{20,})*`, "fm1_", "fm2_"),
		whole("supabase-token", `\bsbp_[a-f0-9]{40}\b`, "sbp_"),
		whole("planetscale-token", `\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}`, "pscale_"),
		// Sentry's organisation and user tokens (sntrys_, sntryu_) and the
		// older sntr?_ forms.
		whole("sentry-token", `\bsntr(?:y?[ysu])_[A-Za-z0-9+/=_-]{40,}`, "sntr"),
		whole("atlassian-token", `\bATATT3[A-Za-z0-9_=-]{100,}`, "atatt3"),
		// More vendors' prefixes, each followed by its token body
		// (Pinecone's pcsk_, Honeycomb's ingest and management keys,
		// Checkout.com's sandbox secret keys among them).
		whole("vendor-token", `\b(?:dckr_pat_|CCIPAT_|HRKU-|sntr[ysu]_|sq[upa]_|r8_|gsk_|pplx-|xai-|nvapi-|jina_|nfp_|rzp_(?:live|test)_|pdl_(?:live|sdbx)_apikey_|figd_|FLWSECK(?:_TEST)?-|ATBB|AKCp|ya29\.|xoxe\.|EAAA|pcsk_|hc[ax][im]k_|sk_sbox_)[A-Za-z0-9_.$-]{14,}`, "dckr_pat_", "ccipat_", "hrku-", "sntr", "squ_", "sqp_", "sqa_", "r8_", "gsk_", "pplx-", "xai-", "nvapi-", "jina_", "nfp_", "rzp_", "pdl_", "figd_", "flwseck", "atbb", "akcp", "ya29.", "xoxe.", "eaaa", "pcsk_", "hcaik_", "hcxik_", "hcamk_", "hcxmk_", "sk_sbox_"),
		// Cerebras' keys (csk- and 48 small letters and digits: no dash
		// inside, unlike a host named csk-…), and a Fernet token (version
		// byte 0x80 and a timestamp: gAAAAAB…), which opens the data it
		// seals to whoever holds it with the key and is handed out as a
		// session's bearer value.
		whole("vendor-token", `\bcsk-[a-z0-9]{40,64}\b`, "csk-"),
		whole("session-token", `\bgAAAAAB[A-Za-z0-9_-]{60,}={0,2}`, "gaaaaab"),
		// Tencent Cloud's SecretId (AKID and 32 letters and digits) and
		// Cloudflare's Origin CA key (v1.0-, 24 hex digits, 146 more).
		whole("vendor-token", `\bAKID[A-Za-z0-9]{32}\b`, "akid"),
		whole("vendor-token", `\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b`, "v1.0-"),
		// AWS's session token (its base64 opens with the same bytes,
		// "IQoJb3JpZ2luX2Vj"), Harness's personal and service account
		// tokens (pat. or sat., an account id, 24 hex digits, a secret),
		// Depot's project tokens.
		whole("vendor-token", `\bIQoJb3JpZ2luX2Vj[A-Za-z0-9+/]{60,}={0,2}`, "iqojb3jpz2lux2vj"),
		whole("vendor-token", `\b[ps]at\.[A-Za-z0-9_-]{16,32}\.[0-9a-f]{24}\.[A-Za-z0-9]{16,32}\b`, "pat.", "sat."),
		whole("vendor-token", `\bdepot_project_[0-9a-f]{40,}\b`, "depot_project_"),
		// Google's OAuth refresh tokens (1//0…).
		whole("vendor-token", `\b1//0[A-Za-z0-9_-]{30,}`, "1//0"),
		whole("vendor-token", `\baccess_token\$production\$[a-z0-9]+\$[a-f0-9]{32}`, "access_token$"),
		whole("vendor-token", `\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{40,}`, "atlasv1"),
		whole("vendor-token", `\boy2[a-z0-9]{43}\b`, "oy2"),
		// Prefixes whose body holds separators the generic rule below stops
		// at: Tailscale, Dynatrace, Brevo, HubSpot private apps, 1Password
		// service accounts, Mapbox secret tokens, JFrog reference tokens.
		whole("vendor-token", `\btskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}`, "tskey-"),
		whole("vendor-token", `\bdt0[a-z]01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b`, "dt0"),
		whole("vendor-token", `\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b`, "xkeysib-", "xsmtpsib-"),
		whole("vendor-token", `\bpat-(?:na|eu|ap)[0-9]-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}\b`, "pat-"),
		whole("vendor-token", `\bops_eyJ[A-Za-z0-9_-]{40,}`, "ops_eyj"),
		whole("vendor-token", `\bsk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}`, "sk.eyj"),
		whole("vendor-token", `\bcmVmdGtuOjAx[A-Za-z0-9]{40,}`, "cmvmdgtu"),
		whole("vendor-token", `\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b`, "lsv2_"),
		// Firebase Cloud Messaging's legacy server key: AAAA…:APA91b….
		whole("vendor-token", `\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}`, "apa91b"),
		{
			// Resend keys (re_<8>_<24>; a literal start keeps the scan fast).
			name:  "vendor-token",
			hints: []string{"re_"},
			re:    lazy.RE(`re_[A-Za-z0-9]{8}_([A-Za-z0-9]{20,})\b`),
			keep:  func(m []string) bool { return !random(m[1]) },
		},
		{
			// Backblaze B2 application keys (K00…), Twitch chat tokens
			// (oauth:<30>): generated bodies only.
			name:  "vendor-token",
			hints: []string{"k00", "oauth:"},
			re:    lazy.RE(`\b(?:K00([0-9A-Za-z]{28})|oauth:([a-z0-9]{30}))\b`),
			keep: func(m []string) bool {
				if m[2] != "" {
					return !strings.ContainsAny(m[2], digits) || !strings.ContainsAny(m[2], lower) || entropy(m[2]) < 3.5
				}
				return !random(m[1])
			},
		},
		{
			// Any other short lower-case prefix and '_' or '-' followed by a
			// long random body (a vendor's token whose prefix no rule names):
			// the body's randomness decides; hex bodies are digests.
			name:  "vendor-token",
			hints: []string{"_", "-"},
			re:    lazy.RE(`\b([a-z][a-z0-9]{1,7})[_-](?:(?:live|test|pat|prod|production|development|sandbox|api|key|sk|v1)[_-])?([A-Za-z0-9]{28,})(\b[+/=]?)`),
			keep: func(m []string) bool {
				// sha512-<base64> is an integrity digest; a body running on
				// into base64 is an encoded blob.
				return strings.HasPrefix(m[1], "sha") || strings.HasPrefix(m[1], "md") || m[3] != "" || objectIDs.Get()[m[1]] || publicPrefixes.Get()[m[1]] ||
					hexOnly(m[2]) || !random(m[2]) || !strings.ContainsAny(m[2], upper)
			},
		},
		// Chat webhooks: the URL is the credential.
		whole("webhook", `\bhttps://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,}`, "webhook.office.com"),
		{
			name:  "webhook",
			hints: []string{"chat.googleapis.com"},
			re:    lazy.RE(`(\bhttps://chat\.googleapis\.com/v1/spaces/[^\s?]+\?)(\S+)`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		{
			name:  "webhook",
			hints: []string{"/hooks/"},
			re:    lazy.RE(`(\bhttps?://[^\s/]+/hooks/)([a-z0-9]{26})\b`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		// PuTTY private key files, whole.
		whole("private-key", `PuTTY-User-Key-File-[0-9]+:[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|\z)`, "putty-user-key-file"),
		{
			// A JWK's private members (an EC or RSA key's d, p, q, ...), as
			// JSON or as a script's object literal (importJWK({kty: …, d: …})).
			name:  "private-key",
			hints: []string{"kty"},
			re:    lazy.RE(`((?:"|\b)(?:d|p|q|dp|dq|qi|k)"?[ \t]*:[ \t]*["'])([A-Za-z0-9_-]{20,})(["'])`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
		},
		// A 64-byte key pair as a JSON array of numbers (Solana's id.json).
		whole("private-key", `\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]`, ","),
		{
			// A BIP39 seed phrase: 12 to 24 lower-case words where a seed,
			// mnemonic or recovery phrase is named.
			name:  "mnemonic",
			hints: []string{"seed", "mnemonic", "recovery", "phrase", "wallet"},
			re:    lazy.RE(`(?i)((?:[a-z0-9]+[_-])*(?:mnemonic|seed(?:[ _-]?phrase|[ _-]?words)?|recovery[ _-]?(?:phrase|words)|secret[ _-]?phrase|wallet[ _-]?words)[^\n]{0,40}?(?:[:=]|\n)[ \t"'\n\x60]*)((?:[a-z]{3,8}[ \t\n]+){11,23}[a-z]{3,8})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				n := len(strings.Fields(m[2]))
				return n%3 != 0 || m[2] != strings.ToLower(m[2]) || badFixture(m[1])
			},
		},
		{
			// Cookies: every value of a Cookie or Set-Cookie header, and of
			// curl's -b/--cookie, except the attributes.
			name:   "cookie",
			window: true,
			hints:  []string{"cookie", "-b"},
			re:     lazy.RE(`(?i)(\b(?:set-)?cookie[ \t]*:[ \t]*|(?:^|\s)(?:-b|--cookie)[ \t]+["']?)([^\n"']+)`),
			repl:   func(m []string) string { return m[1] + cookieMask(m[2]) },
			keep:   func(m []string) bool { return !strings.Contains(m[2], "=") || cookieMask(m[2]) == m[2] },
		},
		{
			// Credential headers other than Authorization: X-API-Key,
			// X-Auth-Token, Private-Token, api-key, X-Vault-Token, ...; as
			// sent, or set by name in a language's HTTP client, name and
			// value quoted: headers['X-Auth-Token'] = '…' (Ruby, Python),
			// .addHeader("X-Api-Key", "…") (OkHttp, Go's Header.Set,
			// reqwest's .header), "X-Api-Key" => "…" (PHP).
			name:   "header",
			window: true,
			hints:  []string{"key", "token", "secret", "macaroon"},
			span:   keySpan,
			re: lazy.RE(`(?i)(\b(?:x-[a-z0-9-]*(?:key|token|secret)|private-token|api-?key|apikey|[a-z]+-(?:auth|access|session|server|api)-(?:key|token)|x-auth-key|[a-z-]*macaroon)` +
				`(?:[ \t]*:[ \t]*|["'][ \t]*\]?[ \t]*(?:[:,]|=>?)[ \t]*["']))([^\s"',;]{8,})`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		// Command-line password flags, by tool.
		flagRule(`docker[ \t]+login|podman[ \t]+login|buildah[ \t]+login|mongosh|mongo|mongodump|mongorestore|mongoexport|mongoimport|hdbsql|az[ \t]+login`, `-p|--password|-password`),
		// Registry and cluster logins, database shells and Windows remoting
		// tools whose -p is the password (never a port for these).
		flagRule(`oc[ \t]+login|cf[ \t]+login|crane[ \t]+auth[ \t]+login|oras[ \t]+login|nerdctl[ \t]+login|helm[ \t]+registry[ \t]+login|twine|`+
			`cqlsh|cypher-shell|rabbitmqadmin|couchbase-cli|cbq|psexec|psexec64|evil-winrm|crackmapexec|netexec|nxc|rdesktop|ncftp|ncftpput|ncftpget|nuget|dotnet[ \t]+nuget|racadm`, `-p|-Password`),
		// openssl enc's -k, Windows' schtasks /RP and /P (the run-as and
		// the connecting user's passwords), influx's -t.
		flagRule(`openssl`, `-k`),
		flagRule(`schtasks|schtasks\.exe`, `/RP|/rp|/P|/p`),
		flagRule(`influx`, `-t`),
		flagRule(`plink|pscp|psftp`, `-pw`),
		flagRule(`vsql`, `-w`),
		flagRule(`redis-cli|valkey-cli|keydb-cli`, `-a|--pass`),
		flagRule(`mosquitto_pub|mosquitto_sub|mosquitto_rr`, `-P|--pw`),
		flagRule(`sqlcmd|bcp|osql|ipmitool|zip|unzip|tsql|isql|mssql-cli`, `-P`),
		flagRule(`elasticsearch-users|opensearch-users`, `-p|--password`),
		flagRule(`ldap[a-z]*`, `-w`),
		flagRule(`keytool|jarsigner`, `-storepass|-keypass|-srcstorepass|-deststorepass|-srckeypass|-destkeypass`),
		flagRule(`gpg|gpg2`, `--passphrase`),
		flagRule(`influx|snmp[a-z]*`, `-password|-A|-X`),
		flagRule(`xfreerdp|wlfreerdp`, `/p:`),
		flagRule(`wget`, `--password|--http-password|--ftp-password`),
		{
			// 7z's and rar's password is glued to -p (rar's -hp also hides names).
			name:  "password-flag",
			hints: []string{"7z", "rar"},
			// The password may be quoted for the shell (-p'…').
			re:   lazy.RE(`(\b(?:7za?|7zz|unrar|rar)\b[^\n|;&]*?[ \t]-h?p['"]?)([^\s'"-][^\s'"]*)`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool { return redacted(m[2]) || notAValue(m[2]) },
		},
		{
			// Bundler keeps a gem source's login under BUNDLE_ and the
			// source's host, its dots written "__" (.bundle/config's
			// BUNDLE_GEMS__CONTRIBSYS__COM: "user:pass", or the environment).
			// A gem's build flags (BUNDLE_BUILD__…) and a mirror's address
			// name no login.
			name:  "secret-value",
			hints: []string{"bundle_"},
			re:    lazy.RE(`(\bBUNDLE_[A-Z0-9_]*[A-Z0-9]__[A-Z0-9_]*[A-Z]["']?[ \t]*[:=][ \t]*["']?)([^\s"']{6,})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				return strings.HasPrefix(m[1], "BUNDLE_BUILD__") || strings.HasPrefix(m[1], "BUNDLE_MIRROR__") || strings.Contains(m[2], "://") || notAValue(m[2]) || reference(m[2]) || redacted(m[2])
			},
		},
		{
			// openssl -passin/-passout pass:SECRET (env:VAR and file: name one).
			name:  "password-flag",
			hints: []string{"pass:"},
			re:    lazy.RE(`(-pass(?:in|out)?[ \t]+["']?pass:["']?)([^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return redacted(m[2]) },
		},
		{
			// smbclient -U user%password (and rpcclient, smbmap, ...).
			name:  "password-flag",
			hints: []string{"%"},
			re:    lazy.RE(`((?:^|\s)(?:-U|--user(?:name)?)[ \t=]*["']?[^%\s'"]+%)([^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return redacted(m[2]) },
		},
		{
			// htpasswd -b FILE USER PASSWORD (-n: no FILE).
			name: "password-flag",
			// mosquitto_passwd -b FILE USER PASSWORD has the same shape.
			hints: []string{"htpasswd", "mosquitto_passwd"},
			re:    lazy.RE(`(\b(?:htpasswd|mosquitto_passwd)[ \t]+(-[A-Za-z]*b[A-Za-z]*)(?:[ \t]+-[A-Za-z]+)*[ \t]+(?:\S+[ \t]+)?\S+[ \t]+)('[^'\n]*'|"[^"\n]*"|[^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				// Without -n the match must span FILE and USER.
				return redacted(strings.Trim(m[3], `'"`)) || !strings.Contains(m[2], "n") && len(strings.Fields(m[1])) < 4
			},
		},
		{
			// Commands whose secret is a positional argument: vault login
			// TOKEN; rabbitmqctl add_user|change_password USER PASSWORD; mc
			// alias set NAME URL ACCESS SECRET; net use [D:] \\host\share
			// PASSWORD /user:NAME (or after /user:NAME); b2 authorize-account
			// ID KEY; vonage config:setup KEY SECRET; ngrok config
			// add-authtoken TOKEN; cf auth USER PASSWORD; poetry config
			// http-basic.REPO USER PASSWORD; aws configure set
			// aws_secret_access_key KEY; db2 connect to DB user U using
			// PASSWORD; SQL's IDENTIFIED BY 'password'; nmcli's password
			// and wifi-sec.psk properties; wpa_passphrase SSID PASSPHRASE.
			name:  "password-flag",
			hints: []string{"vault", "cargo", "rabbitmqctl", "mc ", "net use", "b2 ", "vonage", "nexmo", "ngrok", "cf auth", "snyk auth", "poetry", "aws configure", "connect to", "identified", "rclone obscure", "nmcli", "wpa_passphrase"},
			re: lazy.RE(`(?i)(\b(?:vault|cargo)[ \t]+login[ \t]+(?:-\S+[ \t]+)*|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+|` +
				`\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+|\bmc[ \t]+admin[ \t]+user[ \t]+add[ \t]+\S+[ \t]+\S+[ \t]+|\bnet[ \t]+use\b[^\n]*?/user:\S+[ \t]+|` +
				`\bnet[ \t]+use(?:[ \t]+(?:[A-Za-z]:|\*))?[ \t]+\\\\\S+[ \t]+|\bb2[ \t]+(?:authorize-account|authorize_account|account[ \t]+authorize)[ \t]+\S+[ \t]+|` +
				`\b(?:vonage|nexmo)[ \t]+(?:config:)?setup[ \t]+\S+[ \t]+|\bngrok[ \t]+(?:config[ \t]+add-authtoken|authtoken)[ \t]+|\bcf[ \t]+auth[ \t]+\S+[ \t]+|\bsnyk[ \t]+auth[ \t]+|` +
				`\bpoetry[ \t]+config[ \t]+http-basic\.\S+[ \t]+\S+[ \t]+|\baws[ \t]+configure[ \t]+set[ \t]+(?:\S+\.)?aws_(?:secret_access_key|session_token)[ \t]+|` +
				`\bconnect[ \t]+to[ \t]+\S+[ \t]+user[ \t]+\S+[ \t]+using[ \t]+|` +
				`\bnmcli\b[^\n]*?[ \t](?:password|[a-z0-9-]+\.(?:psk|password|wep-key[0-3]|pin))[ \t]+|\bwpa_passphrase[ \t]+(?:'[^'\n]*'|"[^"\n]*"|\S+)[ \t]+|\brclone[ \t]+obscure[ \t]+|\bidentified[ \t]+(?:with[ \t]+\S+[ \t]+)?by[ \t]+(?:password[ \t]+)?)('[^'\n]*'|"[^"\n]*"|[^\s'"/*:?@-][^\s'";]*)`),
			repl: func(m []string) string { return m[1] + quoteMask(m[2]) },
			// vault login -method=oidc role=dev: a method's parameter
			// (a small-letter name, '=', a value), not a token.
			keep: func(m []string) bool { return notAValue(strings.Trim(m[2], `'"`)) || methodParam(m[2]) },
		},
		{
			// A secret fed to a command that names it through a here-string
			// or a process substitution: --password-file=<(echo X), wrangler
			// secret put KEY <<< "X", wg set … private-key <(echo X).
			name:  "password-flag",
			hints: []string{"<(echo", "<( echo", "<<<"},
			re:    lazy.RE(`(?i)((?:pass|secret|key|token|cred)[^\n]{0,40}?(?:<\(\s*echo[ \t]+(?:-n[ \t]+)?|<<<[ \t]*))('[^'\n]*'|"[^"\n]*"|[^\s'")]+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { v := strings.Trim(m[2], `'"`); return notAValue(v) || redacted(v) },
		},
		{
			// expect scripts: send "X" after expecting a password prompt.
			name:  "password-flag",
			hints: []string{"assword", "passphrase"},
			re:    lazy.RE(`(?i)(\bexpect[ \t]+(?:-\w+[ \t]+)?["{][^"}\n]*(?:assword|passphrase|pin)[^"}\n]*["}][^\n]{0,20}?\bsend[ \t]+(?:--[ \t]+)?["{])([^"}\n\\]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// "use admin / X to get in": a user and a made password after a
			// slash between spaces.
			name:   "secret-value",
			window: true,
			hints:  []string{" / "},
			re:     lazy.RE(`(?i)(\b(?:use|using|with|via|as|mit|avec|con|com)[ \t]+[A-Za-z0-9_.@-]{2,32}[ \t]+/[ \t]+)("[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s"'\x60]+)`),
			repl:   proseMask,
			keep:   func(m []string) bool { return !strong(m[2]) },
		},
		{
			// lftp -u USER,PASSWORD (and lftp's own "open -u USER,PASSWORD").
			name:  "password-flag",
			hints: []string{"lftp"},
			re:    lazy.RE(`(\b(?:lftp|open)\b[^\n]*?[ \t]-u[ \t]+["']?[^,\s'"]+,)([^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// PowerShell: ConvertTo-SecureString 'PASSWORD' -AsPlainText.
			name:  "password-flag",
			hints: []string{"convertto-securestring"},
			re:    lazy.RE(`(?i)(\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?)('[^'\n]*'|"[^"\n]*"|[^\s'"$(-][^\s'")]*)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { v := strings.Trim(m[2], `'"`); return notAValue(v) || redacted(v) },
		},
		{
			// sqlplus USER/PASSWORD[@DB] and the Oracle tools that take it
			// so (expdp, impdp, exp, imp, rman target/catalog, dgmgrl,
			// sqlldr); echo PASSWORD | sudo -S, | … --passwd-on-stdin.
			name:  "password-flag",
			hints: []string{"sqlplus", "expdp", "impdp", "exp ", "imp ", "rman", "dgmgrl", "sqlldr", "sudo", "password-stdin", "on-stdin", "--stdin", "chpasswd", "/dev/stdin", "=-"},
			re:    lazy.RE(`(\b(?:sqlplus|expdp|impdp|exp|imp|rman|dgmgrl|sqlldr)[ \t]+(?:-\S+[ \t]+)*(?:(?:target|auxiliary|catalog)[ \t]+)?[A-Za-z][A-Za-z0-9_$#-]*/)([^\s@/'"=]+)|(\becho[ \t]+(?:-n[ \t]+)?)('[^'\n]*'|"[^"\n]*"|[^\s'"|]+)([ \t]*\|[ \t]*(?:(?:xxd[ \t]+-r(?:[ \t]+-p)?|xxd[ \t]+-p[ \t]+-r|base64[ \t]+(?:-d|--decode|-D)|basenc[ \t]+[^|\n]*-d[^|\n]*|openssl[ \t]+(?:base64|enc)[ \t]+-d[^|\n]*|rev|tr[ \t]+[^|\n]+)[ \t]*\|[ \t]*)*(?:sudo[ \t]+-S|[^|\n]*--password-stdin|[^|\n]*--[a-z-]*pass[a-z-]*-on-stdin\b|passwd[ \t]+--stdin|chpasswd|[^|\n]*--[a-z-]*(?:cred|token|secret|pass)[a-z-]*(?:=|[ \t]+)(?:/dev/stdin|-)(?:[ \t]|$)))`),
			repl: func(m []string) string {
				if m[1] != "" {
					return m[1] + Mask
				}
				return m[3] + quoteMask(m[4]) + m[5]
			},
			keep: func(m []string) bool {
				return redacted(m[2]) || m[2] != "" && notAValue(m[2]) || m[4] != "" && notAValue(strings.Trim(m[4], `'"`))
			},
		},
		{
			// XML credential elements (<password>x</password>; an element
			// named …Key, such as <transactionKey>, when its value looks
			// generated: <key>CFBundleName</key> is a plist's) and records
			// that name a secret and give its value: NuGet's <add
			// key="ClearTextPassword" value="x"/>, a Kubernetes or ECS env
			// entry (name: DB_PASSWORD, value: x), a HAR cookie.
			name:   "secret-value",
			window: true,
			hints:  []string{"pass", "secret", "token", "key", "pwd", "psk", "cred", "auth", "pw"},
			span:   keySpan,
			re: lazy.RE(`(?i)(<([a-z0-9_:.-]*(?:(?:password|passwd|pwd|secret|token|key|passphrase|psk)[a-z0-9_.-]*|pass))>)([^<\n]+)(</)|` +
				`(\b(?:key|name|parameterkey|parametername)[ \t]*["']?[ \t]*[:=][ \t]*["']?(?:([a-z0-9_.:-]*(?:password|passwd|pwd|secret|token|apikey|api_key)[a-z0-9_.:-]*|[a-z0-9_.:-]+key)|([a-z0-9_.:-]*(?:pass|pw|cred|credentials|passphrase|psk|auth)[a-z0-9_.:-]*))["']?[\s,]{1,40}?["']?(?:value|parametervalue)["']?[ \t]*[:=][ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"',}]+)`),
			repl: func(m []string) string {
				if m[1] != "" {
					return m[1] + Mask + m[4]
				}
				return m[5] + quoteMask(m[8])
			},
			keep: func(m []string) bool {
				v := strings.Trim(m[3]+m[8], `"'`)
				// A record whose name holds a password's short word or
				// a credential's (DB_PASS, bindpw, SMTP_CRED) is judged
				// as namedRules judge a name and its value.
				if m[7] != "" {
					return !namedSecret(m[7], m[8])
				}
				// A record named …_KEY (API_SIGNING_KEY, but also CACHE_KEY)
				// holds a secret only when its value looks generated.
				weak := m[2] != "" && !strongName(m[2]) || m[6] != "" && !strongName(m[6])
				return weak && !random(v) || notAValue(v) || redacted(v) || passWords.Get()[strings.ToLower(m[2])] || idName(m[2]) || idName(m[6])
			},
		},
		{
			// A value whose name is given beside it rather than as its
			// element: a plist's <key>APISecret</key><string>…</string>, an
			// element whose name, key or id attribute names a secret
			// (Hibernate's <property name="hibernate.connection.password">…,
			// Android's <string name="api_key">…, Spring's <entry key="…">).
			name:  "secret-value",
			hints: []string{"</key>", "name=", "key=", "id="},
			re: lazy.RE(`(?i)(<key>[ \t]*([A-Za-z0-9_.:-]+)[ \t]*</key>(?:\s|\n[+-])*<string>|<[a-z][a-z0-9_:.-]*[ \t]+(?:[a-z:]+[ \t]*=[ \t]*["'][^"'\n]*["'][ \t]+)*(?:name|key|id)[ \t]*=[ \t]*["']([A-Za-z0-9_.:-]+)["'](?:[^>\n]*[^>/\n])?>)` +
				`([^<\n]+)(<)`),
			repl: func(m []string) string { return m[1] + Mask + m[5] },
			keep: func(m []string) bool {
				name := m[2] + m[3]
				v := strings.TrimSpace(m[4])
				return refName(name) || notAValue(v) || redacted(v) || !strongName(name) && !(secretName(name) && random(v))
			},
		},
		{
			// An Ethereum account's private key (0x and 64 hex digits) where
			// a wallet is built from it: Hardhat's and Truffle's accounts:
			// [...], ethers' new Wallet(…), viem's privateKeyToAccount(…),
			// web3's from_key(…)/privateKeyToAccount, brownie's accounts.add(…).
			// A transaction hash has the same shape and stays.
			name:  "private-key",
			hints: []string{"accounts", "wallet(", "privatekeytoaccount", "from_key", "fromprivatekey"},
			re: lazy.RE(`(?i)(\b(?:accounts[ \t]*:[ \t]*\[[ \t\n]*|accounts\.add\([ \t]*|new[ \t]+(?:ethers\.)?Wallet\([ \t]*|privateKeyToAccount\([ \t]*|from_?key\([ \t]*|fromPrivateKey\([ \t]*)["'])` +
				`((?:0x)?[0-9a-fA-F]{64})(["'])`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
		},
		{
			// A declaration named for a secret whose default holds it:
			// Terraform's variable "db_password" { default = "…" },
			// CloudFormation's DbPassword: … Default: …, argparse's
			// add_argument("--password", default="…").
			name:  "secret-value",
			hints: []string{"default"},
			re: lazy.RE(`(?im)((?:^[ \t]*|\bvariable[ \t]+"|["']--)([a-z0-9_-]*(?:password|passwd|secret|token|api_?key|private_?key|access_?key)[a-z0-9_-]*)["']?[ \t]*(?:\{|:[ \t]*\n|,)[^{}]{0,150}?\bdefault["']?[ \t]*[:=][ \t]*)` +
				`("[^"\n]*"|'[^'\n]*'|[^\s"',}]+)`),
			repl: func(m []string) string { return m[1] + quoteMask(m[3]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[3], `"'`)
				return notAValue(v) || redacted(v) || count(v) || refName(m[2])
			},
		},
		{
			// Prose: "login is admin / X", "creds root:toor", "credentials are
			// u:p"; after a qualifier ("creds for the demo: admin / X") only a
			// value that looks made counts.
			name:  "secret-value",
			hints: []string{"login", "cred", "user"},
			// Round 17: the qualifier may end in an arrow ("creds for the
			// demo → admin / X"), and the password may carry its own label
			// after the slash ("login: ops / pw: X"), which stays.
			re: lazy.RE(`(?i)(\b(?:login|creds?|credentials|credenziali|credenciales|credenciais|user(?:name)?(?:[ \t]+and[ \t]+pass(?:word)?)?)(?:[ \t]*(?::|→|->|=>)[ \t]+|[ \t]+(?:is[ \t]+|are[ \t]+|:[ \t]*)?|([^:\n→]{1,30}(?::|→|->|=>)[ \t]*))([A-Za-z0-9_.@-]+)(?:[ \t]+/[ \t]+((?:pw|pwd|pass|passwd|password)[ \t]*[:=][ \t]*)?|:))("[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s,;]+)`),
			// A quoted password is the whole quotation ("Summer,NEBULA493"),
			// its comma and all.
			repl: func(m []string) string { return m[1] + quoteMask(m[5]) },
			// root:root is an owner and a group (chown), not a login.
			keep: func(m []string) bool {
				// A label's colon ends no password ("user → admin / role:
				// owner"); behind its own label only a made or chosen value
				// counts ("pw: see vault" is prose).
				v := m[5]
				if len(v) > 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
					v = v[1 : len(v)-1]
				}
				return notAValue(v) || redacted(v) || strings.HasPrefix(v, "/") || len(v) < 3 || strings.HasSuffix(v, ":") || (m[2] != "" || m[4] != "") && !madePhrase(v) && !chosen(v) && !mixedCase(v) || v == m[3]
			},
		},
		{
			// A well-known account and a generated password in prose:
			// "root:5qb9.wheaSOz works". Image tags (postgres:16-alpine) and
			// scopes (admin:org) lack the mix of cases and digits.
			name:  "secret-value",
			hints: []string{"root:", "admin:", "administrator:", "sa:", "postgres:", "ubuntu:", "ec2-user:", "guest:", "elastic:", "oracle:"},
			re:    lazy.RE(`(?i)(\b(?:root|admin|administrator|sa|postgres|ubuntu|ec2-user|guest|elastic|oracle):)([^\s,;'"/][^\s,;'"]{7,})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], ".)")
				// admin:admin@host: the account's default login, repeated.
				if pw, _, ok := strings.Cut(v, "@"); ok && userRepeated(m[1], pw) {
					return true
				}
				return !strings.ContainsAny(v, upper) || !strings.ContainsAny(v, lower) || !strings.ContainsAny(v, digits) || redacted(v) || notAValue(v)
			},
		},
		{
			// OpenAI (sk-, sk-proj-), Anthropic (sk-ant-) and the services that
			// copied them. Generated keys are random; kebab-case names
			// ("sk-learn-is-a-library", "pk-long-name") are not.
			name:  "api-key",
			hints: []string{"sk-"},
			re:    lazy.RE(`\bsk-[A-Za-z0-9_-]{20,}`),
			keep: func(m []string) bool {
				b := m[0][3:]
				return !random(b) && !(len(b) >= 32 && hexOnly(b) && strings.ContainsAny(b, digits))
			},
		},
		// Stripe's secret and restricted keys; "sk_buff_head_v2" is an
		// identifier, and a publishable key (pk_live_…) is public by design.
		whole("api-key", `\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`, "_live_", "_test_"),
		{
			// An Authorization header's credential, whatever its length or
			// scheme: "Basic YWRtaW46YWRtaW4=" (admin:admin) is shorter than
			// the bearer rule's minimum. The JSON form may be backslash-escaped
			// inside a shell command.
			name:  "authorization",
			hints: []string{"authorization"},
			re: lazy.RE(`(?i)\b((?:proxy-)?authorization(?:\\?["']?[ \t]*[:=]|["'][ \t]*\]?[ \t]*(?:,|=>?))[ \t]*\\?["']?)` +
				`((?:bearer|basic|token|digest|negotiate|bot|ssws|[a-z][a-z0-9-]{1,30})[ \t]+)?([^\s"'\\,;]+)`),
			repl: func(m []string) string { return m[1] + m[2] + Mask },
			// Rails' "Token token=\"…\"": a parameter's name, its quoted
			// value left to the key rules.
			keep: func(m []string) bool {
				return notAValue(m[3]) || m[2] == "" && schemes.Get()[strings.ToLower(strings.Trim(m[3], "`.:"))] || paramName(m[2], m[3])
			},
		},
		{
			name:  "bearer",
			hints: []string{"bearer", "token", "basic"},
			// The credential may be a literal inside a format string's
			// field (Python's f"Bearer {'…'}", JavaScript's `Bearer ${'…'}`).
			re:   lazy.RE(`(?i)\b(bearer|token|basic)(\s+(?:\$?\{[ \t]*['"])?)([A-Za-z0-9._~+/-]{16,}=*)`),
			repl: func(m []string) string { return m[1] + m[2] + Mask },
			// "Basic"/"token" followed by a long plain word is prose, not a
			// credential: require a digit or a symbol that words lack.
			keep: func(m []string) bool {
				if strings.EqualFold(m[1], "bearer") {
					return notAValue(m[3])
				}
				// "…/oauth2/token\nuserinfo_endpoint: …": a key's name on the
				// next line, no credential; "--name /prod/api/token
				// --with-decryption": the command's next option.
				return !strings.ContainsAny(m[3], "0123456789+/=._~-") || longOption(m[3]) || strings.Trim(m[3], lower+"_") == "" && strings.Contains(m[2], "\n") || wordPath(m[3])
			},
		},
		{
			// A client's method that sets the Authorization header from its
			// scheme and credential: .NET's AuthenticationHeaderValue("Bearer",
			// "…"), reqwest's .bearer_auth("…") and .basic_auth("u", Some("…")),
			// Spring's setBearerAuth/setBasicAuth, Laravel's withToken and
			// withBasicAuth, REST Assured's .basic("u", "…") and .oauth2("…").
			name:  "authorization",
			hints: []string{"authenticationheadervalue", "bearer", "basic", "withtoken", "with_token", "oauth2("},
			re: lazy.RE(`(?i)(\b(?:AuthenticationHeaderValue\(\s*["'](?:bearer|basic|token|digest)["']\s*,|(?:set|with)?_?bearer_?(?:auth|token)\(|with_?token\(|oauth2\(|` +
				`(?:(?:set|with)?_?basic_?auth|basic)\(\s*["'][^"'\n]{1,80}["']\s*,\s*(?:Some\()?)\s*["'])([^"'\s]{6,200})(["'])`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// user:password@ in URLs. The user may be empty
			// (redis://:password@host) or an e-mail address, and the
			// password may hold '@': the host follows the last one.
			name:  "url-password",
			hints: []string{"://"},
			re:    lazy.RE(`\b([a-zA-Z][a-zA-Z0-9+._-]*://[^\s:/@]*(?:@[^\s:/@]+)?:)([^\s/]+)(@)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				return strings.Contains(m[0], "[REDACTED") || notAValue(m[2]) || userRepeated(m[1], m[2])
			},
		},
		{
			// A generated password that holds '/' (base64: Confluent's
			// kafka+ssl://KEY:SECRET@…): the rule above stops at a path's
			// '/', so only a generated value counts here.
			name:  "url-password",
			hints: []string{"://"},
			pre:   func(lower string) bool { return strings.Contains(lower, "@") },
			re:    lazy.RE(`\b([a-zA-Z][a-zA-Z0-9+._-]*://[A-Za-z0-9_.-]+:)([A-Za-z0-9+=_-]*/[A-Za-z0-9+/=_-]*)(@)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return len(m[2]) < 24 || !generated(m[2]) },
		},
		{
			// A token as the whole userinfo (https://<token>@github.com):
			// long and with a digit, unlike user names such as git@.
			name:  "url-token",
			hints: []string{"://"},
			re:    lazy.RE(`\b([a-zA-Z][a-zA-Z0-9+._-]*://)([A-Za-z0-9_-]{20,})(@)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return !strings.ContainsAny(m[2], digits) },
		},
		{
			// An Azure SAS signature (or any URL's sig=) in a query string.
			name:  "url-signature",
			hints: []string{"sig="},
			re:    lazy.RE(`([?&](?:sig|signature|x-amz-signature)=)([^&\s"'#]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return redacted(m[2]) },
		},
		{
			// A signed image URL's s= (imgix, Thumbor-like services): an
			// HMAC's hex digest under the one-letter name.
			name:  "url-signature",
			hints: []string{"&s=", "?s="},
			re:    lazy.RE(`([?&]s=)([0-9a-f]{32}(?:[0-9a-f]{8}|[0-9a-f]{32})?)\b`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		{
			// An API key in a query string under an application's name for
			// it (appid=, app_key=, key=, Azure Functions' code=): only a
			// generated value.
			name:  "secret-value",
			hints: []string{"appid=", "app_id=", "app_key=", "appkey=", "key=", "code="},
			re:    lazy.RE(`(?i)([?&](?:appid|app_id|app_?key|key|code)=)([A-Za-z0-9_-]{16,}={0,2})`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := m[2]
				return !random(v) && !(hexOnly(v) && len(v) >= 32 && strings.ContainsAny(v, digits))
			},
		},
		{
			// curl -u user:password, quoted or not, or the password alone
			// quoted (user:'p@ss'), one pass for the four forms; "-u user"
			// alone prompts.
			name:  "basic-auth-flag",
			hints: []string{"-u", "--user"},
			re:    lazy.RE(`((?:^|\s)(?:-u|--user)[ \t]*)(?:('[^':\n]+:)([^'\n]+)|("[^":\n]+:)([^"\n]+)|([^\s:'"-][^\s:'"]*:)([^\s'"]+)|([^\s:'"-][^\s:'"]*:')([^'\n]+)(')|([^\s:'"-][^\s:'"]*:")([^"\n]+)("))`),
			repl:  func(m []string) string { return m[1] + m[2] + m[4] + m[6] + m[8] + m[11] + Mask + m[10] + m[13] },
			keep: func(m []string) bool {
				pass := m[3] + m[5] + m[7] + m[9] + m[12]
				return redacted(pass) || notAValue(strings.TrimRight(pass, `"'`))
			},
		},
		{
			// HTTPie's and xh's -a/--auth USER:PASSWORD (curl's is -u, above).
			name:  "basic-auth-flag",
			hints: []string{"-a", "--auth"},
			re:    lazy.RE(`((?:^|[\s;&|(])(?:https?|xhs?)[ \t]+(?:[^\n|;&]*?[ \t])?(?:-a|--auth)(?:[ \t]+|=)["']?[^:\s'"]+:)([^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return redacted(m[2]) || notAValue(m[2]) },
		},
		{
			// Any tool's -auth/--auth USER:SECRET (Jenkins CLI's -auth
			// user:apitoken); "-auth @file" names where it is.
			name:  "basic-auth-flag",
			hints: []string{"-auth ", "-auth=", "-auth\t"},
			re:    lazy.RE(`((?:^|\s)--?auth(?:[ \t]+|=)["']?[^:\s'"@]+:)([^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return redacted(m[2]) || notAValue(m[2]) },
		},
		{
			// lftp -u USER,PASSWORD: lftp parts the login with a comma.
			name:  "basic-auth-flag",
			hints: []string{"lftp"},
			re:    lazy.RE(`(\blftp\b[^\n|;&]*?[ \t](?:-u|--user)[ \t]+["']?[^,\s'"]+,)('[^'\n]*'|"[^"\n]*"|[^\s'"]+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				return redacted(strings.Trim(m[2], `'"`)) || notAValue(strings.Trim(m[2], `'"`))
			},
		},
		{
			// A URI written without its scheme, USER:PASSWORD@HOST, where
			// a tool takes one (MySQL Shell's --uri and first argument,
			// --uri of others), and a Go MySQL DSN's USER:PASSWORD@tcp(…)
			// or @unix(…): the password runs to the last '@' before the
			// host.
			name:  "url-password",
			hints: []string{"--uri", "mysqlsh", "@tcp(", "@unix("},
			re:    lazy.RE(`((?:--uri(?:[ \t]+|=)|\bmysqlsh[ \t]+(?:-\S+[ \t]+)*|["'\x60])["']?[A-Za-z0-9_.%+-]+:)([^\s'"\x60]+)(@(?:(?:tcp|unix)\(|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d+)?(?:[\s/'"\x60?]|$)))`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				pre := m[1]
				if strings.IndexAny(pre[:1], `"'`+"`") == 0 && !strings.Contains(m[3], "(") {
					return true // a quoted user:x@host names a login only where a DSN's tcp( follows
				}
				return redacted(m[2]) || notAValue(m[2])
			},
		},
		{
			// mysql -pSECRET / -p'SECRET' (glued: "-p shop" prompts and names a database).
			name:  "password-flag",
			hints: []string{"mysql", "mariadb"},
			re:    lazy.RE(`(?i)(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p)('[^'\n]*'|"[^"\n]*"|[^\s'"\x60]+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				return redacted(strings.Trim(m[2], `'"`)) || notAValue(strings.Trim(m[2], `'"`))
			},
		},
		{
			name:  "password-flag",
			hints: []string{"sshpass"},
			re:    lazy.RE(`(\bsshpass[ \t]+-p[ \t]*)('[^'\n]*'|"[^"\n]*"|\S+)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[2], `'"`)
				return redacted(v) || notAValue(v)
			},
		},
		{
			// Docker's config.json: "auth": "<base64 user:password>".
			name:  "docker-auth",
			hints: []string{`"auth"`},
			re:    lazy.RE(`("auth"[ \t]*:[ \t]*")([A-Za-z0-9+/=]{8,})(")`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			// "auth": "kerberos" names a method: the credential decodes to
			// user:password, or is random.
			keep: func(m []string) bool {
				d, _ := base64.StdEncoding.DecodeString(m[2])
				return !strings.Contains(string(d), ":") && !random(m[2])
			},
		},
		{
			// --password VALUE, --token VALUE (the --key=value form is a pair).
			// The flag must end at the space: --token-file and --password-stdin stay.
			// Any other --…-key (--application-key) holds a generated value.
			name:  "flag",
			hints: []string{"--"},
			re: lazy.RE(`(?i)(--(?:[a-z0-9]+-)*(?:password|passwd|passphrase|pass|token|secret|api-?key|access-key|secret-key|private-key|(key)))` +
				`([ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'-]\S*)`),
			repl: func(m []string) string { return m[1] + m[3] + quoteMask(m[4]) },
			keep: func(m []string) bool {
				v := strings.Trim(m[4], `"'`)
				// pulumi config set --secret NAME VALUE: --secret is a switch,
				// a name of letters after it is no value.
				return v == "" || redacted(v) || notAValue(v) || m[2] != "" && !generated(v) || docValue(v) ||
					strings.EqualFold(m[1], "--secret") && strings.Trim(v, upper+lower+"_.") == ""
			},
		},
		{
			// key=value, key: value, "key": "value", KEY='value'. The key name
			// stays so the note still says what was there.
			name:     "secret-value",
			window:   true,
			assigned: true,
			hints:    []string{"pass", "pwd", "secret", "token", "key", "credential", "auth", "psk", "signature", "mnemonic", "macaroon", "_pat", "-pat", "_pw", "-pw", "bearer", "csrf", "xsrf"},
			span:     keySpan,
			// The key may be glued to a prefix (PGPASSWORD=), JSON may be
			// backslash-escaped inside a shell command (\"password\": \"x\"),
			// or more than once (JSON logged in a JSON string in a log),
			// and a literal may carry its language's prefix (T-SQL's N'x',
			// Objective-C's @"x", Python's b'x').
			re: lazy.RE(`(?i)(\b[A-Za-z0-9_.-]*` + pairKeys + `)` +
				`(\\*["']?\]?[ \t]*` + assign + `[ \t]*)` +
				`(\\{2,}"[^"\\\n]*\\{2,}"|\\"(?:[^"\\\n]|\\[^"\n])*\\"|"""[^"\n]+"""|'''[^'\n]+'''|"[^"\n]*"|'[^'\n]*'|r#{1,3}"[^"\n]*"#{1,3}|` + litPrefix + `(?:"[^"\n]*"|'[^'\n]*')|` + stateThen + `|[^\s,;&"'\x60\\]+)`),
			repl: func(m []string) string {
				if strings.HasPrefix(m[3], `\`) {
					// Escaped once or more (JSON logged inside a JSON
					// string): the same escaped quote either side.
					q := m[3][:strings.IndexByte(m[3], '"')+1]
					return m[1] + m[2] + q + Mask + q
				}
				// Rust's raw string r#"…"#.
				if h := rawHashes(m[3]); h > 0 {
					return m[1] + m[2] + m[3][:h+2] + Mask + m[3][len(m[3])-h-1:]
				}
				p := prefixLen(m[3])
				return m[1] + m[2] + m[3][:p] + quoteMask(m[3][p:])
			},
			// "token == x" compares; "=" must not be taken for the value;
			// "token: 512" is a count.
			keep: func(m []string) bool {
				v := strings.Trim(m[3][prefixLen(m[3]):], `"'\`)
				if h := rawHashes(m[3]); h > 0 {
					v = m[3][h+2 : len(m[3])-h-1]
				}
				// A bare "pass" (user=ops pass=…) holds a password only when
				// the value looks made ("pass: true", "bypass=all" do not).
				// "compass:" and "bypass=" merely end in it; a name glued
				// to it (dbpass, rootpass) holds one when the value looks made.
				parts := nameParts(m[1])
				last := strings.ToLower(parts[len(parts)-1])
				bare := last == "pass" && !strings.ContainsAny(m[1], "_.-")
				// Credentials::new(: a path's "::", no assignment.
				if strings.HasSuffix(m[2], ":") && m[3][0] == ':' {
					return true
				}
				return m[3][0] == '=' && !envPrefix(m[1], m[2], m[3]) || m[2] == ":" && subcommands.Get()[v] || boundVariable(m[2], v) || notAValue(v) || stateThenRE.Get().MatchString(v) || count(v) || sealed(v) || refName(m[1]) || selfNamed(m[1], v) || workDir(m[1], v) ||
					pathLike(v) || objectName(m[1], v) || badFixture(m[1]) || numberParam(v) || chainSignature(m[1], v) ||
					bare && !made(v) || last != "pass" && strings.HasSuffix(last, "pass") && (passWords.Get()[last] || !made(v)) ||
					// ASANA_PAT, GITLAB_PAT: a personal access token, when made (not url_pat: "*.go").
					last == "pat" && (!made(v) || strings.ContainsAny(v, "*^$\\[") || strings.HasPrefix(v, "/")) ||
					// csrf: enabled is a setting; a CSRF token is generated.
					(last == "csrf" || last == "xsrf") && !tokenLike(v)
			},
		},
		{
			// Prose in languages written without spaces: パスワードは X,
			// 密码是 X, 비밀번호는 X.
			name:  "secret-value",
			hints: []string{"パスワード", "密码", "密碼", "口令", "비밀번호", "비번", "暗証番号"},
			re:    lazy.RE(`((?:パスワード|密码|密碼|口令|비밀번호|비번|暗証番号)(?:は|が|是|为|為|係|는|:|：)?[ \t]*(?:[:：][ \t]*)?[「『“]?)([!-~]{6,64}?)([」』”、。，,\s（(]|です|$)`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], ".,;:)")
				return notAValue(v) || !mixedCase(v) && !strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) })
			},
		},
		{
			// PHP's define('DB_PASSWORD', '…') (wp-config.php and kin).
			name:  "secret-value",
			hints: []string{"define"},
			re:    lazy.RE(`(?i)(\bdefine\(\s*['"][a-z0-9_]*(?:password|secret|key|salt|token|pass)[a-z0-9_]*['"]\s*,\s*['"])([^'"\n]+)(['"])`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return notAValue(m[2]) },
		},
		// A wallet's private key in Wallet Import Format, where one is named.
		{
			name:  "private-key",
			hints: []string{"wif", "wallet", "private key", "privkey"},
			re:    lazy.RE(`\b[5KL9c][1-9A-HJ-NP-Za-km-z]{50,51}\b`),
		},
		{
			// net user NAME PASSWORD /add (Windows).
			name: "password-flag",
			// The command as a path in an audit log's command line
			// ("C:\Windows\System32\net.exe" user NAME PASSWORD /add).
			hints: []string{"net user", "net.exe", "net1"},
			re:    lazy.RE(`(?i)(\bnet1?(?:\.exe)?["']?[ \t]+user[ \t]+\S+[ \t]+)([^\s/*][^\s]*)([ \t]+/(?:add|domain|active))`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
			keep:  func(m []string) bool { return notAValue(m[2]) },
		},
		{
			// A PIN or door code stated in prose: digits count here.
			name:   "secret-value",
			window: true,
			hints:  []string{"pin", "code"},
			span:   keySpan,
			re:     lazy.RE(`(?i)(\b(?:pin(?:[ _-]?code)?|door[ _-]?code|alarm[ _-]?code|passcode)\b(?:[^:\n.]{0,40}?(?::[ \t]*|[ \t]+(?:is|was|=|ist|lautet|est|es|é|è)[ \t]+)|[ \t]+))(\d{4,8})\b`),
			repl:   func(m []string) string { return m[1] + Mask },
		},
		{
			// A prefixed token right after the word key or token: "key fw_…".
			name:   "api-key",
			window: true,
			hints:  []string{"key", "token"},
			span:   keySpan,
			re:     lazy.RE(`(?i)(\b(?:key|token|secret)\b[^\n:]{0,30}?[ \t:：]+)([a-z][a-z0-9]{1,7}[_-][A-Za-z0-9]{20,})\b`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				p, body, _ := strings.Cut(strings.Replace(m[2], "-", "_", 1), "_")
				return objectIDs.Get()[strings.ToLower(p)] || !random(body) || redacted(m[2])
			},
		},
		{
			// A ~/.pgpass line, alone or quoted at the end of a sentence:
			// host:port:database:user:password, the password made.
			name:  "secret-value",
			hints: []string{"pgpass", ":5432:"},
			re:    lazy.RE(`(?m)((?:^|\s)[^:\s]+:(?:\d+|\*):[^:\s]+:[^:\s]+:)(\S+)[ \t]*$`),
			repl:  func(m []string) string { return m[1] + Mask },
			keep:  func(m []string) bool { return notAValue(m[2]) || !madePhrase(m[2]) && !mixedCase(m[2]) },
		},
		{
			// A Netscape cookie-jar line (curl -c, browser exports): domain,
			// flag, path, secure, expiry, name, value, tab-separated.
			name:  "cookie",
			hints: []string{"\ttrue\t", "\tfalse\t"},
			re:    lazy.RE(`(?m)^(#HttpOnly_)?(\.?[A-Za-z0-9.-]+\t(?:TRUE|FALSE)\t\S*\t(?:TRUE|FALSE)\t\d+\t([^\t\n]+)\t)([^\t\n]{8,})$`),
			repl:  func(m []string) string { return m[1] + m[2] + Mask },
			keep:  func(m []string) bool { return !sessionCookie(strings.ToLower(m[3])) && !random(m[4]) || redacted(m[4]) },
		},
		{
			// Two-factor recovery or backup codes listed after their name.
			name:  "secret-value",
			hints: []string{"recovery code", "backup code"},
			re:    lazy.RE(`(?i)(\b(?:recovery|backup)[ _-]codes?\b[^\n]{0,60}?[:\n][ \t\n]*)((?:[0-9a-z]{4,6}[ -][0-9a-z]{4,6}[ \t,\n]*){2,})`),
			repl:  func(m []string) string { return m[1] + Mask },
		},
		{
			// HTTP Digest's response="<hash>": the hash proves the password.
			name:  "authorization",
			hints: []string{"digest"},
			re:    lazy.RE(`(?i)(\bresponse[ \t]*=[ \t]*")([0-9a-f]{32,})(")`),
			repl:  func(m []string) string { return m[1] + Mask + m[3] },
		},
		{
			// A session cookie outside a Cookie header (copied from a
			// browser's tools): connect.sid=…, PHPSESSID=…, sessionid=….
			name:   "cookie",
			window: true,
			hints:  []string{"sid=", "sessionid=", "session_id=", "session=", "logged_in"},
			span:   keySpan,
			re:     lazy.RE(`(?i)(\b(?:connect\.sid|phpsessid|jsessionid|asp\.net_sessionid|sessionid|session_id|session|laravel_session|_session_id|[a-z0-9_]*_session|[a-z0-9_]*logged_in[a-z0-9_]*)=)([^\s;,"']{16,})`),
			repl:   func(m []string) string { return m[1] + Mask },
			keep:   func(m []string) bool { return notAValue(m[2]) || redacted(m[2]) },
		},
		{
			// An API client, an SDK or a credential built from literals, in
			// any language: a call named for a client, a credential, a key,
			// a token, an SDK or its init, given its key alone
			// (cohere.Client("…"), Cohere.builder().token("…"),
			// mercadopago.SDK("…")) or an id then its secret (twilio
			// Client(sid, token), TwilioClient.Init(key, secret, sid),
			// common.NewCredential(id, key), Razorpay::Client.new(id,
			// secret), requests' auth=("user", "pw")). Every literal of the
			// call is judged (callLiterals). OpenAI(api_key="…") is a pair.
			name:   "api-key",
			window: true,
			// Every such call opens its literal arguments with one of these.
			// Round 28: or a client given a transport first (new
			// ApiClient(http, "…")), after "client(".
			hints: []string{`("`, "('", `( "`, "( '", "(\n", "client("},
			// A mail, file or directory protocol's session opened with its
			// login (Net::SMTP.start(host, 587, domain, user, password,
			// :login)): a port or a symbol may stand between the literals.
			// A literal may be converted in place ("…".to_owned(),
			// "…".toCharArray()). An LDAP bind opens with the DN it binds
			// as (conn.Bind("cn=svc,dc=corp", "…"), simple_bind_s).
			re: lazy.RE(`(?i)(\b(?:[a-z_]*(?:client|api|auth|credentials?|login|session|token|key|secret|sdk|init|connect|pdo|dbi|database|bind)[a-z0-9_]*(?:\.new|::new)?|(?:smtp|ftp|ftps|imap|pop3?|ldap|sftp)[a-z0-9_]*(?:\.|::)(?:start|open|new|connect))[ \t]*(?:=[ \t]*)?\(\s*(?:[a-z_][a-z0-9_]*\s*,\s*)?(?:[a-z_]+[ \t]*=[ \t]*)?\(?\s*(?:[a-z0-9_.]+\(\s*)?)` +
				`((?:(?:"[^"\n]{1,200}"` + converted + `|'[^'\n]{1,200}'|\d{1,6}|:[a-z_]+)\s*(?:,\s*|\)))*(?:"[^"\n]{1,200}"|'[^'\n]{1,200}')` + converted + `\s*(?:,\s*|\))(?:(?:"[^"\n]{1,200}"` + converted + `|'[^'\n]{1,200}'|\d{1,6}|:[a-z_]+)\s*(?:,\s*|\)))*)`),
			repl: func(m []string) string {
				return m[1] + callLiterals(m[2], true, soleAuth(m[1]) || transportFirst(m[1], m[2]))
			},
			keep: func(m []string) bool {
				return callLiterals(m[2], false, soleAuth(m[1]) || transportFirst(m[1], m[2])) == m[2] || strings.Contains(strings.ToLower(m[1]), "bind") && !dnFirst(m[2])
			},
		},
		{
			// "<vendor> token|key … : <random>": a labelled value in prose.
			name:   "secret-value",
			window: true,
			hints:  []string{"token", "key"},
			span:   keySpan,
			// The name the key word ends (Idempotency-Key) is part of the label.
			// The word before it too: "cache key: go-build-…" is a lookup key.
			re:   lazy.RE(`(?i)(\b((?:[a-z0-9]+[ _-])?(?:[a-z0-9]+[_-])*(?:token|key)[12]?)\b[^:\n]{0,60}:[ \t]*)([A-Za-z0-9_+/=-]{32,})`),
			repl: func(m []string) string { return m[1] + Mask },
			keep: func(m []string) bool {
				v := m[3]
				return refName(strings.ReplaceAll(m[2], " ", "_")) || digestLabel(m[1]) || sealed(v) || namedDigest(v) || strings.Count(v, "/") >= 2 || !random(v) && !(hexOnly(v) && len(v) >= 32 && strings.ContainsAny(v, digits) && strings.ContainsAny(strings.ToLower(v), "abcdef"))
			},
		},
		{
			// AWS secret access keys have no prefix: 40 random base64 characters
			// (the console's CSV, or prose). Only where AWS or a secret is named.
			name:  "aws-secret-key",
			hints: []string{"aws", "akia", "asia", "secret"},
			re:    lazy.RE(`(^|[^A-Za-z0-9/+=])([A-Za-z0-9/+]{40})($|[^A-Za-z0-9/+=])`),
			repl:  func(m []string) string { return m[1] + "[REDACTED:aws-secret-key]" + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return strings.Count(v, "/") > 4 || strings.Contains(v, "//") || !strings.ContainsAny(v, upper) || awsExample(v) ||
					!strings.ContainsAny(v, lower) || !strings.ContainsAny(v, digits) || entropy(v) < 4.2
			},
		},
		{
			// gitleaks' generic rule: any name with a secret-ish word in it
			// (SECRET_KEY_BASE, JWT_SIGNING_KEY_V2, private_key_id) assigned a
			// value that looks random. The name alone would catch prose and
			// code ("cache_key: user", "apiVersion: v1"); the value's entropy
			// and mix of characters decides.
			name:     "secret-value",
			window:   true,
			assigned: true,
			hints:    []string{"pass", "pwd", "secret", "token", "key", "auth", "cred", "api", "signing", "salt", "encrypt", "hmac", "jwt", "_pat", "pat_", "otp", "seed", "cookie", "dsn", "licen"},
			span:     keySpan,
			// The name must hold one of the words, or a vetoed match such as
			// "this: KEY=..." would hide the assignment inside it. A byte
			// conversion may wrap the literal (Go's []byte("…")), and the
			// quotes may be escaped (code in a notebook's JSON).
			re: lazy.RE(`(\b[A-Za-z0-9_.-]*(?i:pass|pwd|secret|token|key|auth|cred|api|signing|salt|encrypt|hmac|jwt|pat|otp|seed|cookie|dsn|licen)[A-Za-z0-9_.-]*)` +
				`([ \t]*\\*["']?\]?[ \t]*` + assign + `[ \t]*(?:\[\]byte\([ \t]*|Buffer\.from\([ \t]*)?\\*["'\x60]?)` +
				`([A-Za-z0-9_.+/-]{12,200}={0,3})(\(?)`),
			repl: func(m []string) string { return m[1] + m[2] + Mask + m[4] },
			// urlBase64ToUint8Array(VAPID_PUBLIC_KEY): a call, not a value.
			keep: func(m []string) bool {
				// A secret's strong name holds a hex value shorter than a
				// key's too (Plaid's 30).
				return m[4] != "" || !secretName(m[1]) || refName(m[1]) || notAValue(m[3]) || !random(m[3]) && !hexKey(m[3]) && !base32Key(m[3]) && !(strongName(m[1]) && len(m[3]) >= 24 && hexOnly(m[3]) && strings.ContainsAny(m[3], digits) && strings.ContainsAny(strings.ToLower(m[3]), "abcdef")) || pathLike(m[3]) || sealed(m[3]) || workDir(m[1], m[3]) ||
					idName(m[1]) && uuidShape(m[3]) || strings.EqualFold(strings.Trim(m[1], "._-"), "salt") || publicKeyID(m[1], m[3]) || publishable(m[3]) || namedDigest(m[3])
			},
		},
		proseRule(`pass(?:word|wd|phrase|code)?|pw|pwd|token|api[ _-]?key|secret(?:[ _-]access)?(?:[ _-]?key)?|access[ _-]key|private[ _-]key|master[ _-]?key|admin[ _-]key|credentials?|geheimschlüssel|jeton(?: d'accès)?|clé secrète|`+
			`passwort|kennwort|mot de passe|mdp|palavra-passe|contraseña|senha|wachtwoord|parola d'ordine|parola|parolă|parool|clave|contrasinal|pasfhocal|zaporka|zaporku|šifra|passord|kodeord|hasło|пароль|şifres?i?|şifrəs?i?|parolası|lösen(?:ord)?|adgangskode|salasana|heslo|jelszó|jelszava|lozinka|lozinku|geslo|mật khẩu|kata sandi|sandi|kata laluan|pasuwaado|pasuwādo`,
			"pass", "pw", "token", "secret", "key", "credential", "geheimschl", "jeton", "clé secrète", "kennwort", "mot de passe", "mdp", "contrase", "senha", "wachtwoord", "parola", "hasło", "пароль", "şifre", "şifrə", "lösen", "salasana",
			"mật khẩu", "kata sandi", "sandi", "kata laluan", "lozinka", "lozinku", "geslo", "jelsz", "heslo", "adgangskode", "clave", "contrasinal", "pasfhocal", "zaporka", "zaporku", "šifra", "passord", "kodeord", "parol", "pasuwaado", "pasuwādo"),
		proseRule(`पासवर्ड|कूटशब्द|و?كلمة المرور|و?كلمة السر|و?كلمة سر|رمز عبور|گذرواژه|کلمه عبور|[הובלש]?סיסמ(?:[הא]|ת[ \t]+[^\s:]+)|κωδικός|συνθηματικό|পাসওয়ার্ড`, "पासवर्ड", "कूटशब्द", "كلمة", "رمز", "گذرواژه", "کلمه عبور", "סיסמ", "κωδικ", "συνθηματικ", "পাসওয়ার্ড"),
		// The password's word in more languages, listed as a login is
		// ("user admin, nywila X"): Thai, Lao, Khmer, Burmese, Georgian,
		// Armenian, Tamil, Telugu, Amharic, Kazakh, Swahili, Hausa,
		// Yoruba, Zulu, Latin.
		proseRule(`รหัสผ่าน|รหัส|ລະຫັດຜ່ານ|ពាក្យសម្ងាត់|စကားဝှက်|პაროლი|გაღტნაბარ|գաղտնաբառ(?:ը)?|கடவுச்சொல்|పాస్\x{200c}?వర్డ్|የይለፍ ቃል|құпия ?сөз(?:і)?|nywila|neno la siri|kalmar sirri|ọ̀rọ̀ aṣínà|oro asina|iphasiwedi|tessera`,
			"รหัส", "ລະຫັດຜ່ານ", "ពាក្យសម្ងាត់", "စကားဝှက်", "პაროლ", "գաղտնաբառ", "கடவுச்சொல்", "పాస్", "የይለፍ ቃል", "құпия", "nywila", "neno la siri", "kalmar sirri", "aṣínà", "oro asina", "iphasiwedi", "tessera"),
		{
			// A password told in prose with any words between the word and
			// the verb, in languages whose prepositions the prose rules do
			// not list or glue to the noun ("Heslo k testovací databázi je
			// X", "كلمة المرور لخادم … هي X", "Mật khẩu máy chủ … là X",
			// "Lösenordet till … är X", "Паролата за … е X", "A … jelszava:
			// X"): only a value of capitals, small letters and digits, a
			// random one, or a chosen one (words and digits:
			// "maple-falcon-ember-harbor6", "rivercedar72$") counts.
			name:   "secret-value",
			window: true,
			hints:  pwHints,
			// The word, up to 48 bytes and a verb, and a value of up to 200.
			span: keySpan,
			re: lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + pwWords + `)` +
				`(?:[ \t]*[:：][ \t]*|[ \t]+[^:：\n]{1,48}?[ \t]*[:：][ \t]*|(?:[ \t]*[^:\n]{1,48}?)?(?:[ \t]+(?:are both|is|was|are|ist|war|lautet|est|es|és|é|è|era|este|jest|je|е|yra|ir|är|er|on|ay|ni|là|adalah|ialah|είναι|это|є|হলো|হল|হচ্ছে|—|هي|هو|היא|הוא|је|yw|ydy|është|estas|hija|huwa|гэта|ficou|fica|теперь|now|jetzt|ahora|agora|maintenant|adesso|teraz|sekarang|kini|(?:(?:was|is|has been|got)[ \t]+)?(?:reset|set|changed)[ \t]+to)[ \t]+|[ \t]*คือ[ \t]*)))` +
				`("[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s"'\x60]+)`),
			repl: proseMask,
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], sentenceEnd)
				return !strong(m[2]) && !chosen(m[2]) && !passphrase(m[2]) && !generatedLetters(m[2]) && !symbolMixed(v) && !(len(v) >= 12 && scrambled(v)) && !capsChosen(v) || regexTail(v)
			},
		},
		{
			// A password told in prose with the value anywhere in the clause
			// after the word, before a verb that closes it (Persian "رمز
			// عبور پنل X است", Hindi "पासवर्ड X है", Turkish, Japanese) or
			// after one the rules do not list ("the wifi password at the
			// office changed to X"): only a value with digits and a
			// symbol, capitals and small letters, as people choose them.
			name:   "secret-value",
			window: true,
			hints:  pwHints,
			span:   160,
			re: lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + pwWords + `)[^\n.!?。]{0,80}?[ \t:：])` +
				`([^\s"'\x60]*?(?:\d[^\s"'\x60]*?[!@#$%^&*+=~?]|[!@#$%^&*+=~?][^\s"'\x60]*?\d)[^\s"'\x60]*)`),
			repl: proseMask,
			keep: func(m []string) bool {
				v := strings.TrimRight(m[2], sentenceEnd)
				return !strong(m[2]) || !strings.ContainsAny(v, upper) || !strings.ContainsAny(v, lower) || strings.HasPrefix(v, "$") || strings.Contains(v, "=") && !strings.HasSuffix(v, "=")
			},
		},
		{
			// The same clause with the value quoted right before the verb
			// that closes it (Persian "رمز عبور سرور "X" است", Hindi "…
			// "X" है", Turkish "…" dır"): the verb after the closing mark
			// says the quotation is the value (round 26).
			name:   "secret-value",
			window: true,
			hints:  pwHints,
			span:   160,
			pre: func(lower string) bool {
				return anyOf(lower, "\"", "»", "”") && anyOf(lower, "است", "هست", "بود", "है", "था", "です", "だ", "dir", "dır", "idi")
			},
			re: lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + pwWords + `)[^\n.!?。"«“]{0,80}?[ \t]["«“])` +
				`([^\s"»”]{6,200})(["»”][ \t]*(?:است|هست|بود|है|था|です|だ|dir|dır|idi)(?:[^\p{L}]|$))`),
			repl: func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				return notAValue(v) || redacted(v) || !strong(v) && !symbolMixed(v) && !chosen(v) && !capsChosen(v)
			},
		},
		{
			// Logging in as a user with a password told in prose: "log in to
			// X as ops@… with PASSWORD", "sign in as admin using PASSWORD",
			// "melde dich als admin mit PASSWORD an".
			name:   "secret-value",
			window: true,
			hints:  []string{"log", "sign", "connect", "authenticat", "ssh", "melde", "anmelden", "conéctate", "conecta", "accedi", "inicia sesión"},
			// "try logging in with 'X'": the password alone after "with".
			re: lazy.RE(`(?i)(\b(?:log(?:ged|ging)?[ -]?(?:in|on)|sign(?:ed|ing)?[ -]?in|connect(?:ed|ing)?|authenticat(?:e|ed|ing)|ssh|melde|anmelden|connecte[rz]?|conéctate|conecta|accedi|inicia sesión)\b` +
				`(?:[^\n]{0,80}?[ \t](?:as|als|en tant que|como|come)[ \t]+\S+)?[ \t]+(?:with|using|mit|avec|con|com)[ \t]+(?:(?:the[ \t]+)?password[ \t]+|(?:dem[ \t]+)?passwort[ \t]+|(?:le[ \t]+)?mot de passe[ \t]+)?)` +
				`("[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s"'\x60]+)`),
			repl: proseMask,
			keep: func(m []string) bool { return !strong(m[2]) },
		},
	}...)
	rules = append(rules, proseShapes()...)
	rules = append(rules, literalRules()...)
	rules = append(rules, carryRules()...)
	rules = append(rules, cliRules()...)
	rules = append(rules, proseCarryRules()...)
	rules = append(rules, namedRules()...)
	rules = append(rules, spokenRules()...)
	rules = append(rules, olderRules()...)
	rules = append(rules, layoutRules()...)
	rules = append(rules, tableRules()...)
	rules = append(rules, positionRules()...)
	rules = append(rules, labelRules()...)
	rules = append(rules, nestedRules()...)
	rules = append(rules, apartRules()...)
	rules = append(rules, carriedRules()...)
	rules = append(rules, filledRules()...)
	rules = append(rules, encodedRules()...)
	rules = append(rules, enclosedRules()...)
	return &Redactor{rules: append(rules, shapeRules()...)}
}

// capsChosen reports a password chosen of capitals, digits and a symbol
// with no small letter (TWC!4CK0*21): eight characters or more, two
// digits or more, a symbol people put in passwords.
func capsChosen(v string) bool {
	if len(v) < 8 || strings.ContainsAny(v, lower) || !strings.ContainsAny(v, upper) || !strings.ContainsAny(v, "!@#$%^&*+=~?") {
		return false
	}
	n := 0
	for _, r := range v {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n >= 2
}

// pwWords name a password in about forty languages, for the prose rules
// that read any words between the word and its value; pwHints are their
// lower-case starts.
const pwWords = `pass(?:word|wd|phrase)|passwort|kennwort|mot de passe|mdp|contrase[ñn]a|contrasenya|senha|wachtwoord|hasło|hasła|heslo|hesla|` +
	`пароль|пароля|парола(?:та)?|şifre(?:si)?|şifrə(?:si)?|lösenord(?:et)?|passord(?:et)?|adgangskode(?:n)?|kodeord(?:et)?|koden|salasana(?:n)?|jelszó|jelszava|jelszót|lozinka|lozinku|šifra|geslo|parola|parolă|parool(?:i)?|parole|slaptažodis|slaptažodžio|lykilorð(?:ið)?|fjalëkalimi|pasahitz(?:a)?|cyfrinair|focal faire|facal-faire|wagwoord|лозинк(?:а|у)|contrasinal|pasfhocal|zaporka|zaporku|passwuert|pasvorto|parol(?:i|ingiz)?|нууц үг|암호|` +
	`પાસવર્ડ|ਪਾਸਵਰਡ|ಪಾಸ್\x{200c}?ವರ್ಡ್|പാസ്\x{200c}?വേഡ്|මුරපදය|የይለፍ ቃል|kalmar sirri|iphasiwedi|furaha sirta|` +
	`mật khẩu|kata sandi|kata laluan|nenosiri|κωδικός|συνθηματικό|clave|codice di accesso|parola chiave|palavra-passe|رمز عبور|رمز|گذرواژه|کلمه عبور|و?كلمة المرور|و?كلمة السر|و?كلمة سر|پاس ورڈ|[הובלש]?סיסמ(?:[הא]|ת[ \t]+[^\s:]+)|` +
	`पासवर्ड|পাসওয়ার্ড|கடவுச்சொல்|పాస్\x{200c}వర్డ్|รหัสผ่าน|ລະຫັດຜ່ານ|პაროლი|գաղտնաբառ(?:ը)?|құпия сөз(?:і)?`

// "pass" alone would open a window at every "passed" and "passing" of a
// test log; the words themselves are hinted.
var pwHints = []string{"password", "passwd", "passphrase", "passwort", "passord", "passwuert", "kennwort", "mot de passe", "mdp", "palavra-passe", "contrase", "senha", "wachtwoord", "parol", "парол", "hasło", "hasła", "heslo", "hesla", "şifre", "şifrə", "lösenord",
	"passord", "adgangskode", "kodeord", "koden", "salasana", "jelsz", "lozink", "šifra", "gesl", "parool", "parole", "slaptažod", "lykilorð", "fjalëkalim", "pasahitz", "cyfrinair", "focal faire", "facal-faire", "wagwoord", "лозинк", "contrasinal", "pasfhocal", "zaporka", "zaporku", "passwuert", "pasvorto", "нууц үг", "암호", "પાસવર્ડ", "ਪਾਸਵਰਡ", "ಪಾಸ್", "പാസ്", "මුරපදය", "የይለፍ ቃል", "kalmar sirri", "iphasiwedi", "furaha sirta", "mật khẩu", "συνθηματικ", "clave", "codice di accesso",
	"parola chiave", "kata sandi", "kata laluan", "nenosiri", "κωδικ", "رمز", "گذرواژه", "کلمه عبور", "كلمة", "پاس ورڈ", "סיסמ", "पासवर्ड", "পাসওয়ার্ড", "கடவுச்சொல்", "పాస్\u200cవర్డ్", "รหัสผ่าน", "ລະຫັດຜ່ານ", "პაროლი", "գաղտնաբառ", "құпия сөз"}

// proseRule masks a password told in prose: "the password is X", "my
// github token is X", netrc's "password X", in the words given (one
// instance per group of scripts, so text in one script does not pay for
// the keywords of the others). Only a value with a digit or symbol counts
// ("the password is stored in the vault" stays), unless quoted or made.
// nowWords: an adverb of time between the copula and the value ("is
// now X", "ist jetzt X", "es ahora X"), optional.
const nowWords = `(?:(?:now|still|currently|jetzt|nun|noch|ahora|todavía|agora|ainda|maintenant|toujours|ora|ancora|nu|teraz|nadal|sekarang|masih)[ \t]+)?`

func proseRule(words string, hints ...string) rule {
	return rule{
		name:   "secret-value",
		hints:  hints,
		window: true,
		re: lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + words + `)` +
			`(?:[ \t]+(?:(?:for|on|of|to|with|in|im|am|für|fürs|zum|zur|beim|vom|del|de|da|do|della|dello|degli|dei|di|per|pour|du|des|van|voor|för|till|dla|для|от|на|untuk|ke|za|fún|fun)[ \t]+|(?:dell|dall|all|sull|nell|d|l|de l|de la)')[^:\n]{1,40}?(?::[ \t]*|[ \t]+(?:(?:(?:was|is|has been)[ \t]+)?(?:reset|set|changed)[ \t]+to|is|was|are|=|ist|war|lautet|est|était|es|era|é|è|to|jest|är|er|это|adalah|ialah|هي|هو|היא|הוא|je|ni|—|-)[ \t]+` + nowWords + `(?::[ \t]*)?)|` +
			`:[ \t]*|[ \t]+(?:is|was|=|:|to|ist|war|lautet|est|es|é|è|era|adalah|ialah|هي|هو|היא|הוא|je|ni|wa)[ \t]+` + nowWords + `(?::[ \t]*)?|[ \t]+(?:(?:was|is|has been)[ \t]+)?(?:reset|set|changed)[ \t]+to[ \t]+|[ \t]+))` +
			`("[^"\n]{1,200}"|'[^'\n]{1,200}'|\x60[^\x60\n]{1,200}\x60|[«“„「][^»”“」\n]{1,200}[»”“」]|[^\s"'\x60«“„「]+)`),
		repl: proseMask,
		keep: func(m []string) bool {
			// /etc/passwd: the key word names a file; secret::Key: a
			// path's "::" assigns nothing.
			if strings.HasPrefix(m[1], "/") || strings.HasSuffix(m[1], ":") && strings.HasPrefix(m[2], ":") {
				return true
			}
			v := m[2]
			// What separates the key word from the value (-field=password
			// VALUE: the '=' before the word separates nothing).
			sep := m[1][max(0, strings.IndexFunc(m[1], unicode.IsLetter)):]
			if _, q, _, ok := quotes(v); ok {
				// "the k8s secret `redis-auth`": with no verb or colon
				// before it, a quoted word names the secret unless it
				// looks made.
				if !strings.ContainsAny(sep, ":=：") && !sepVerbRE.Get().MatchString(m[1]) && !made(q) && !wordsNumber(q) && !symbolMixed(q) {
					return true
				}
				return notAValue(q) || statement(q)
			}
			v = strings.TrimRight(v, sentenceEnd)
			if !strings.ContainsAny(sep, ":=：") && !sepVerbRE.Get().MatchString(m[1]) && !made(v) && !wordNumber(v) && !passphrase(v) && !wordsNumber(v) && !symbolMixed(v) && !scrambled(v) {
				return true // "kubectl get secret db-creds": a name
			}
			if strings.Count(v, "/") >= 2 && !strings.ContainsAny(v, upper) && !random(v) {
				return true // "-field=password secret/data/app/db": a path
			}
			if len(plainWords(v)) == 2 && !made(v) || participle(v) {
				return true // "the token is single-use", "base64-encoded": an adjective
			}
			if wordsNumber(v) || symbolMixed(v) {
				return sealed(v) || notAValue(v)
			}
			return sealed(v) || len(v) < 6 || !isAlnum(v[0]) || notAValue(v) || !mixedCase(v) && !strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) })
		},
	}
}

// statement reports a quoted span that is a command or a query naming
// the secret, not the secret: three words or more, one of them the
// secret's own word or the span ending as a statement does
// (`ALTER USER app WITH PASSWORD :'newpw';`). The rules that read
// commands judge the value inside it.
func statement(q string) bool {
	f := strings.Fields(q)
	if len(f) < 3 {
		return false
	}
	if strings.HasSuffix(q, ";") {
		return true
	}
	for _, w := range f {
		switch strings.ToLower(strings.Trim(w, `"'(),:=`)) {
		case "password", "passwd", "token", "secret", "identified", "--password", "-p":
			return true
		}
	}
	return false
}

// callLiterals masks the secrets among a credential call's literal
// arguments (args, each quoted and followed by ',' or ')'): a first
// argument only when long and random (a key alone), a later one when it
// looks made (an id's secret, a password), and a first one too in a
// call that takes the secret alone (sole). With mask false it returns
// args unchanged unless one would be masked.
// converted is a literal's conversion in place: Rust's .to_owned(),
// .to_string(), .into(), Java's .toCharArray(), .getBytes().
const converted = `(?:\.(?:to_owned|to_string|into|to_vec|as_bytes|toCharArray|getBytes|encode)\(\))?`

// soleAuth reports a call named auth alone (the name the rule reads
// opens after a method's dot or colon: Lua's red:auth("…"),
// redis.auth("…"), client.auth("…")): Redis's AUTH takes the password
// as its only argument.
func soleAuth(call string) bool {
	return strings.EqualFold(strings.TrimRight(call, " \t(="), "auth")
}

// transportFirst reports a client's call whose first argument is a
// variable (an HTTP client, a context) and whose one literal follows it
// (new ApiClient(http, "…")): the literal is the client's key, not an id
// before its secret.
func transportFirst(call, args string) bool {
	if !strings.HasSuffix(strings.TrimRight(call, " \t\r\n"), ",") || args == "" || args[0] != '"' && args[0] != '\'' {
		return false
	}
	end := strings.IndexByte(args[1:], args[0])
	return end >= 0 && strings.Trim(args[end+2:], " \t\r\n)") == ""
}

// dnFirst reports call arguments that open with an LDAP distinguished
// name ("cn=svc,ou=apps,dc=corp"): a bind's, not a socket's address.
func dnFirst(args string) bool {
	a := strings.ToLower(args)
	return (strings.HasPrefix(a, `"`) || strings.HasPrefix(a, "'")) && (strings.HasPrefix(a[1:], "cn=") || strings.HasPrefix(a[1:], "uid=")) && strings.Contains(a, "dc=")
}

func callLiterals(args string, mask, sole bool) string {
	var b strings.Builder
	first := !sole
	for rest := args; rest != ""; {
		q := rest[0]
		if q != '"' && q != '\'' {
			// A port or a symbol between the literals is kept as it is.
			end := strings.IndexAny(rest, ",)")
			if end < 0 {
				b.WriteString(rest)
				break
			}
			end += len(rest[end:]) - len(strings.TrimLeft(rest[end:], " \t\r\n,)"))
			b.WriteString(rest[:end])
			rest = rest[end:]
			continue
		}
		end := strings.IndexByte(rest[1:], q) + 1
		v := rest[1:end]
		// A first argument of hex after a two-letter type (Twilio's
		// AC… account SID) or a UUID is an id.
		// A data source name ('DBI:Pg:dbname=ops;host=…', 'mysql:host=…')
		// names where to connect: '=' inside it, or a scheme.
		dsn := strings.Contains(strings.TrimRight(v, "="), "=") || strings.Contains(v, "://")
		secret := !redacted(v) && (first && len(v) >= 30 && random(v) && !dsn && !hexOnly(strings.ReplaceAll(v[2:], "-", "")) || !first && len(v) >= 6 && !notAValue(v) && (made(v) || mixedCase(v) || longPhrase(v) || hexKey(v)))
		if secret {
			if !mask {
				return ""
			}
			v = Mask
		}
		b.WriteString(rest[:1] + v + rest[end:end+1])
		rest = rest[end+1:]
		sep := len(rest) - len(strings.TrimLeft(rest, " \t\r\n,)"))
		b.WriteString(rest[:sep])
		rest = rest[sep:]
		first = false
	}
	return b.String()
}

// proseMask masks a value told in prose (m[2]) after its key part (m[1]),
// keeping its quotes and the punctuation that ends the sentence.
func proseMask(m []string) string {
	if open, _, close, ok := quotes(m[2]); ok {
		return m[1] + open + Mask + close
	}
	t := strings.TrimRight(m[2], sentenceEnd)
	return m[1] + Mask + m[2][len(t):]
}

// flagRule masks the value of a password flag of the named tools
// ("redis-cli -a X", "sqlcmd -P X", "docker login -p X"). Several flags of
// one command are masked one after another (Redact repeats the rule).
func flagRule(tools, flags string) rule {
	var hints []string
	for _, t := range strings.Split(tools, "|") {
		// "oc[ \t]+login" hints "oc login": a bare "oc" is in most words.
		t = strings.ReplaceAll(t, `[ \t]+`, " ")
		hints = append(hints, strings.ToLower(strings.TrimRight(t[:strings.IndexFunc(t+"[", func(r rune) bool { return r == '[' || r == '\\' })], "*")))
	}
	return rule{
		name:   "password-flag",
		hints:  hints,
		repeat: true,
		re: lazy.RE(`(?i)(\b(?:` + tools + `)\b[^\n|;&]*?[ \t](?-i:` + flags + `))` +
			`([ \t]+|=|:)?('[^'\[\n][^'\n]*'|"[^"\[\n][^"\n]*"|[^\s'"\[][^\s'"]*)`),
		repl: func(m []string) string { return m[1] + m[2] + quoteMask(m[3]) },
		keep: func(m []string) bool {
			v := strings.Trim(m[3], `'"`)
			// "-p" glued to a value only where the tool takes it so (mongosh -pX is rare).
			// After a password flag a leading '+' is part of the value.
			// keytool's -storepass:env NAME and :file PATH name where it is.
			// Sybase's and SQL Server's -P is documented glued (-Ppassword)
			// too: a made value there is one.
			return notAValue(strings.TrimPrefix(v, "+")) || redacted(v) || strings.HasPrefix(v, "-") || m[2] == "" && !strings.HasSuffix(m[1], ":") && !(strings.HasSuffix(m[1], "-P") && made(v)) ||
				m[2] == ":" && (v == "env" || v == "file")
		},
	}
}

// cookieMask masks every cookie value in a Cookie or Set-Cookie header,
// keeping names and attributes.
func cookieMask(v string) string {
	parts := strings.Split(v, ";")
	for i, p := range parts {
		name, val, ok := strings.Cut(p, "=")
		n := strings.ToLower(strings.TrimSpace(name))
		if !ok || val == "" || redacted(val) || n == "path" || n == "domain" || n == "expires" || n == "max-age" || n == "samesite" {
			continue
		}
		// theme=dark, tz=Europe%2FBerlin: a preference, not a session.
		plain := strings.TrimSpace(val)
		if u, err := url.QueryUnescape(plain); err == nil {
			plain = u
		}
		// session=<omitted>: a stand-in shown where the value was.
		if !sessionCookie(n) && (!random(plain) || trackerCookie(n)) || notAValue(plain) {
			continue
		}
		parts[i] = name + "=" + Mask
	}
	return strings.Join(parts, ";")
}

// mixedCase reports a value of letters whose case flips the way generated
// strings do ("tzYaeamlkekpxSTeXTMCkGvv") and words, even CamelCase ones
// ("ProductionDatabase"), do not.
func mixedCase(v string) bool {
	if len(v) < 10 || !strings.ContainsAny(v, upper) || !strings.ContainsAny(v, lower) {
		return false
	}
	flips := 0
	for i := 1; i < len(v); i++ {
		if unicode.IsUpper(rune(v[i])) != unicode.IsUpper(rune(v[i-1])) {
			flips++
		}
	}
	return flips*3 >= len(v) && entropy(v) >= 3.3
}

// sentenceEnd is the punctuation that may close a sentence after a value.
const sentenceEnd = ".,;:)?!"

// quotes splits a quoted value into its quotes and what they hold ("x",
// 'x', `x`, « x », “x”, „x“, 「x」).
func quotes(v string) (open, inner, close string, ok bool) {
	// TOML's and Python's triple-quoted strings ("""x""") first.
	for _, q := range [][2]string{{`"""`, `"""`}, {"'''", "'''"}, {`"`, `"`}, {"'", "'"}, {"`", "`"}, {"«", "»"}, {"“", "”"}, {"„", "“"}, {"„", "”"}, {"「", "」"}} {
		if len(v) > len(q[0])+len(q[1]) && strings.HasPrefix(v, q[0]) && strings.HasSuffix(v, q[1]) {
			inner = v[len(q[0]) : len(v)-len(q[1])]
			t := strings.TrimSpace(strings.Trim(inner, "\u00a0\u202f"))
			i := strings.Index(inner, t)
			return v[:len(q[0])+i], t, v[len(q[0])+i+len(t):], true
		}
	}
	return "", "", "", false
}

// sepVerbRE ends a prose rule's key part with the verb that gives the value
// (compiled on first use: every hook process links this package).
var sepVerbRE = lazy.RE(`(?i)\s(?:is|was|are|ist|war|lautet|est|es|é|è|era|to|jest|är|er|adalah|ialah|هي|هو|היא|הוא|je|ni|wa)\s*$`)

// made reports a value that looks generated or chosen as a password: random,
// digits mixed with symbols other than a name's '-' and '_', or capitals,
// small letters and digits together.
func made(v string) bool {
	return random(v) || strings.ContainsAny(v, digits) && (strings.ContainsFunc(v, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_'
	}) || strings.ContainsAny(v, upper) && strings.ContainsAny(v, lower))
}

// strong reports a value told in prose that looks chosen as a password:
// capitals, small letters and digits together, or random; never a path,
// a URL or a stand-in.
func strong(v string) bool {
	orig := v
	if _, q, _, ok := quotes(v); ok {
		v = q
	} else {
		v = strings.TrimRight(v, sentenceEnd)
	}
	// "Welkom1?": a closing '?' or '!' may be the password's own.
	short := len(v) < 8 && !(len(v) == 7 && strings.HasSuffix(strings.TrimRight(orig, ".,;:)"), "?") || len(v) == 7 && strings.HasSuffix(strings.TrimRight(orig, ".,;:)"), "!"))
	if short || redacted(v) || notAValue(v) || strings.Contains(v, "://") || pathLike(v) || sealed(v) {
		return false
	}
	return random(v) || strings.ContainsAny(v, upper) && strings.ContainsAny(v, lower) && strings.ContainsAny(v, digits)
}

// digestLabel reports a label that ends in a hash algorithm's name ("key
// fingerprint is SHA256:"): what follows is a digest.
func digestLabel(label string) bool {
	l := strings.ToLower(strings.TrimRight(label, ": \t"))
	for _, a := range []string{"sha1", "sha256", "sha384", "sha512", "md5"} {
		if strings.HasSuffix(l, a) {
			return true
		}
	}
	return false
}

// dottedToken reports two dots seven bytes apart with six token bytes
// between them, 24 or more before the first and 27 or more after the
// second: the only texts the Discord bot token's rule reads.
func dottedToken(s string) bool {
	tok := func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }
	for i := strings.IndexByte(s, '.'); i >= 0 && i+35 <= len(s); {
		if s[i+7] == '.' && i >= 24 {
			ok := true
			for k := i + 1; k < i+7 && ok; k++ {
				ok = tok(s[k])
			}
			for k := i - 24; k < i && ok; k++ {
				ok = tok(s[k])
			}
			for k := i + 8; k < i+35 && ok; k++ {
				ok = tok(s[k])
			}
			if ok {
				return true
			}
		}
		j := strings.IndexByte(s[i+1:], '.')
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return false
}

// awsExample reports one of the keys AWS's documentation publishes as
// examples: they end in EXAMPLE (AKIAIOSFODNN7EXAMPLE, …EXAMPLEKEY).
func awsExample(v string) bool {
	return strings.HasSuffix(v, "EXAMPLE") || strings.HasSuffix(v, "EXAMPLEKEY")
}

// envPrefix reports a shell's NAME=VALUE before a command whose value
// starts with '=' (PGPASSWORD==x… psql): upper-case name, a lone '=' and
// the value glued to it, where "token == x" compares.
func envPrefix(name, sep, v string) bool {
	return sep == "=" && len(v) > 1 && v[1] != '=' && v[1] != ' ' && strings.ToUpper(name) == name
}

// chosen reports a password a person picked rather than generated: ten
// characters or more of words and a few digits ("maple-falcon-ember-harbor6",
// "rivercedar72$"); never a path, a URL or a stand-in.
func chosen(v string) bool {
	if _, q, _, ok := quotes(v); ok {
		v = q
	} else {
		v = strings.TrimRight(v, sentenceEnd)
	}
	if len(v) < 10 || redacted(v) || notAValue(v) || strings.ContainsAny(v, "/\\") || participle(v) {
		return false
	}
	letters, digs, run, longest := 0, 0, 0, 0
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letters++
			run++
			longest = max(longest, run)
		case unicode.IsDigit(r):
			digs++
			run = 0
		default:
			run = 0
		}
	}
	return digs > 0 && digs <= 6 && letters >= 6 && longest >= 4
}

// participle reports a compound adjective ending in a participle
// ("base64-encoded", "sha256-signed"): it says how a value is kept.
func participle(v string) bool {
	last := v[strings.LastIndexByte(v, '-')+1:]
	return strings.Contains(v, "-") && len(last) >= 4 && strings.HasSuffix(last, "ed") && strings.Trim(last, lower) == ""
}

// wordNumber reports a word and a number run together, the commonest
// password people pick ("violetzephyr85"), or two words joined by a
// hyphen and then the number ("mango-walrus44"), told with no verb
// before it.
func wordNumber(v string) bool {
	w := strings.TrimRight(v, digits)
	n := len(v) - len(w)
	if n < 2 || n > 4 || len(w) < 6 {
		return false
	}
	if a, b, ok := strings.Cut(w, "-"); ok {
		if utf8.RuneCountInString(a) < 3 || utf8.RuneCountInString(b) < 3 || strings.Contains(b, "-") {
			return false
		}
		w = a + b
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// wordsNumber reports two or three words joined by one separator ('-',
// '_' or '.') and a number of two or three digits after them
// ("krokus-quokka-98", "walnuss-gletscher-47"): the password people make
// of words. A host's or a file's numbering (web-ftp-01, notes-2024) is
// none: no leading zero, no year.
func wordsNumber(v string) bool {
	for _, sep := range []string{"-", "_", "."} {
		parts := strings.Split(v, sep)
		if len(parts) < 3 || len(parts) > 4 {
			continue
		}
		num := parts[len(parts)-1]
		if len(num) < 2 || len(num) > 3 || num[0] == '0' || strings.Trim(num, digits) != "" {
			continue
		}
		ok := true
		for _, p := range parts[:len(parts)-1] {
			if n := utf8.RuneCountInString(p); n < 3 || n > 12 || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsLower(r) }) >= 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// symbolMixed reports capitals, small letters and a symbol together in
// eight to sixty-four characters ("NUXKLz$ShCQO", "yNmvad~wfxkb"): chosen as a
// password though it holds no digit. An identifier's '.', '-', '_' and
// '/' are no symbol here.
func symbolMixed(v string) bool {
	return len(v) >= 8 && len(v) <= 64 && strings.ContainsAny(v, upper) && strings.ContainsAny(v, lower) && strings.ContainsAny(v, "~!@#$%^&*+=?")
}

// placeholderToken reports a token-shaped stand-in: ghp_XXXX…, xoxb-your-token.
func placeholderToken(s string) bool {
	l := strings.ToLower(s)
	if strings.Contains(l, "your") || strings.Contains(l, "changeme") {
		return true
	}
	body := l[strings.LastIndexAny(l, "_-")+1:]
	return len(body) >= 3 && strings.Trim(body, "x*.") == ""
}

// pathLike reports an object path or file name (uploads/2024/06/<uuid>.png),
// which a generated key's base64 never ends in.
func pathLike(v string) bool {
	// /bin/systemctl, ./db-password.txt, ~/keys/app: a file's path, in
	// the small letters, digits and punctuation of file names.
	if (strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "~/")) &&
		len(v) > 3 && !strings.Contains(v, "//") && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz0123456789._-/~") == "" {
		return true
	}
	if strings.Count(v, "/") >= 2 && strings.Contains(v[strings.LastIndex(v, "/"):], ".") {
		return true
	}
	// backups/2026-11-25.sql.gz: a directory and a file name whose
	// extension is a short word.
	i := strings.LastIndexByte(v, '.')
	if !strings.Contains(v, "/") || i < strings.LastIndexByte(v, '/') || len(v)-i-1 < 1 || len(v)-i-1 > 4 {
		return false
	}
	for _, c := range v[i+1:] {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// workDir reports a shell's working directory (PWD=/home/dev, OLDPWD=~):
// the key pwd names a directory when its value is a path.
func workDir(name, v string) bool {
	parts := nameParts(name)
	last := strings.ToLower(parts[len(parts)-1])
	return (last == "pwd" || last == "oldpwd" || last == "cwd") && (strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") ||
		len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/'))
}

// sealed reports a Bitnami SealedSecret's ciphertext: long base64 that opens
// with its version byte ("Ag…"), made to be committed.
func sealed(v string) bool { return len(v) >= 200 && strings.HasPrefix(v, "Ag") }

// trackerCookie reports an analytics or advertising cookie (Google's _ga,
// _gid, _gcl_au, Meta's _fbp, Matomo's _pk_id, Segment's ajs_*,
// Amplitude's amp_*, Mixpanel's mp_*): it counts a browser, it signs no
// one in.
func trackerCookie(name string) bool {
	for _, p := range []string{"_ga", "_gid", "_gcl_", "_fbp", "_fbc", "_pk_", "ajs_", "amp_", "mp_", "_uet", "_clck", "_clsk"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// sessionCookie reports a cookie name that carries a session or a credential.
func sessionCookie(name string) bool {
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return !isAlnum(byte(r)) }) {
		if part == "sid" || strings.HasSuffix(part, "sid") && len(part) <= 6 || strings.HasSuffix(part, "key") {
			return true
		}
		for _, w := range []string{"sess", "auth", "token", "jwt", "remember", "login", "csrf", "xsrf"} {
			if strings.Contains(part, w) {
				return true
			}
		}
	}
	return false
}

// count reports a short number ("512", "4096"): a size or a count after a
// key word, not a secret.
func count(v string) bool {
	if len(v) == 0 || len(v) > 6 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

func hexOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
)

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func redacted(v string) bool { return strings.HasPrefix(v, "[REDACTED") }

// quoteMask masks a value, keeping the quotes around it.
func quoteMask(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		// A triple-quoted string keeps its three quotes.
		if q := v[:min(3, len(v)/2)]; len(q) == 3 && strings.Trim(q, q[:1]) == "" && strings.HasSuffix(v, q) {
			return q + Mask + q
		}
		return v[:1] + Mask + v[:1]
	}
	return Mask
}

// objectIDs are the prefixes of API object ids (chatcmpl-…, msg_…, cus_…):
// names of requests, messages and records, not credentials.
var objectIDs = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"chatcmpl": true, "cmpl": true, "msg": true, "toolu": true, "req": true, "run": true,
		"thread": true, "asst": true, "file": true, "batch": true, "ftjob": true, "cus": true, "evt": true, "ch": true,
		"pi": true, "pm": true, "in": true, "sub": true, "prod": true, "price": true, "txn": true, "acct": true, "resp": true,
		// Vercel's deployments, projects and teams.
		"dpl": true, "prj": true, "team": true}
}}

// schemes are Authorization schemes, named in prose without a credential.
var schemes = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"bearer": true, "basic": true, "token": true, "digest": true, "negotiate": true, "ntlm": true, "hoba": true, "mutual": true, "aws4-hmac-sha256": true}
}}

// references are the starts of values that name where a secret comes from
// rather than holding it: process.env.X, ${VAR}, {{ .Values.x }}, {% … %}, <your-key>.
var references = []string{"$", "{{", "{%", "<", "enc[", "vault:", "ref+", "op://", "process.env", "os.environ", "os.getenv", "import.meta.env",
	"env.", "env[", "env(", "env:", "file:", "secrets.", "vars.", "system.getenv", "getenv(", "config.", "settings.", "await ", "[redacted",
	// Terraform's references (var.db_password, local.x, data.…, module.…)
	// and a digest named by its algorithm (an SSH key's SHA256:… fingerprint).
	"var.", "local.", "data.", "module.", "sha256:", "sha1:", "sha512:", "md5:"}

// placeholders are values that are types, flags or stand-ins, not secrets.
var placeholders = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"true": true, "false": true, "null": true, "none": true, "nil": true,
		"undefined": true, "required": true, "optional": true, "string": true, "str": true, "bool": true,
		"int": true, "number": true, "any": true, "bytes": true, "[]byte": true, "secret": true, "password": true,
		"token": true, "redacted": true, "await": true, "range": true, "new": true, "make": true, "func": true,
		"function": true, "lambda": true, "include": true, "omit": true, "same-origin": true, "self": true, "this": true,
		"input": true, "prompt": true, "stdin": true, "...": true, "***": true,
		// Prose after a flag that takes a value ("redis-cli -a is deprecated").
		"is": true, "are": true, "was": true, "the": true, "to": true, "and": true, "or": true, "of": true,
		"flag": true, "option": true, "argument": true, "without": true, "with": true,
		// A flag documented rather than given: the verb that says what it does
		// ("sqlcmd -P specifies the password", "-p takes the password").
		"specifies": true, "sets": true, "takes": true, "expects": true, "accepts": true, "reads": true,
		"passes": true, "prompts": true, "means": true, "enables": true, "requires": true, "supplies": true,
		"provides": true, "gives": true, "shows": true, "leaks": true, "exposes": true, "puts": true, "sends": true,
		"must": true, "should": true, "can": true, "will": true, "only": true, "also": true,
		// A value still to be filled in ("api_key: TODO"), or a framework's
		// development stand-in (Flask's documented SECRET_KEY = "dev").
		"dev": true, "todo": true, "tbd": true, "tba": true, "fixme": true,
		// nsswitch.conf's sources of the passwd database ("passwd: files systemd").
		"files": true, "compat": true,
		// YAML's block indicators: the value is on the lines below.
		"|-": true, "|+": true, ">-": true, ">+": true,
		"passwd": true, "pass": true, "pwd": true, "passphrase": true, "binddn": true,
		// A permission level (GitHub Actions' id-token: write).
		"read": true, "write": true, "read-all": true, "write-all": true}
}}

// placeholderWords mark a value written to be replaced: your-api-key-here,
// changeme, <token>, REPLACE_ME.
// vaultNames are password managers and secret stores: "the password is in
// 1Password" names where it is kept.
var vaultNames = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"1password": true, "bitwarden": true, "lastpass": true, "keepass": true, "keepassxc": true, "dashlane": true, "keychain": true, "vault": true, "hashicorp": true}
}}

var placeholderWords = []string{"your", "changeme", "change-me", "change_me", "placeholder", "replace_me", "replace-me", "xxxx", "dummy"}

// stateThen is a word in lower case and a date or a word saying when
// after it ("rotated 2024-05-01", "geändert am 3.5.2024", "changed
// yesterday", "reset every quarter"): a sentence telling what became of
// the secret, not its value. The key-value rule reads it whole as one
// alternative of its value, so its keep sees the word with what follows.
const stateThen = `[a-zß-öø-ÿа-яё]{3,}[ \t]+(?:(?:on|am|le|el|il|em|op|w|в|на)[ \t]+)?(?:\d{1,4}[-./]\d{1,2}[-./]\d{1,4}|(?:yesterday|today|tonight|last|every|weekly|monthly|daily|nightly|quarterly|annually|since|after|before)\b)`

var stateThenRE = lazy.RE(`^` + stateThen)

// notAValue reports whether v names, types or stands in for a secret
// instead of being one: empty, a reference, a placeholder, a call.
var (
	placeholderWordRE = lazy.RE(`^word\d{1,2}$`)
	credFileRE        = lazy.RE(`^[a-z0-9_.-]+:/[\w./%-]+$`)
)

// docValue reports a flag's "value" that is the prose documenting it: a
// help line's description ("-W, --password   force password prompt"), a
// verb ("--password makes mongosh prompt"), or a sentence in a language
// written without spaces ("--password オプションに値を指定しない場合、…").
func docValue(v string) bool {
	if docWords.Get()[v] {
		return true
	}
	return strings.ContainsAny(v, "、。，") && !strings.ContainsAny(v, "0123456789")
}

// docWords are the words that open a flag's description in a help text.
var docWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"force": true, "forces": true, "makes": true, "make": true, "prompts": true, "prompt": true, "specifies": true, "specify": true, "sets": true, "is": true, "are": true,
		"the": true, "to": true, "for": true, "of": true, "option": true, "flag": true, "and": true, "or": true, "will": true, "must": true, "should": true, "can": true, "may": true, "only": true,
		"when": true, "if": true, "takes": true, "reads": true, "enables": true, "disables": true, "uses": true, "causes": true, "tells": true, "lets": true, "asks": true, "omitted": true,
		"required": true, "optional": true, "argument": true, "without": true, "with": true, "instead": true, "alone": true, "needs": true, "expects": true, "accepts": true,
		// A preposition after the flag tells how it is given ("--password via
		// the CLI", "--token on the command line").
		"via": true, "through": true, "using": true, "by": true, "on": true, "in": true, "from": true, "as": true, "like": true, "at": true}
}}

func notAValue(v string) bool {
	v = strings.TrimSpace(v)
	l := strings.ToLower(strings.TrimRight(v, "()[]{};,.`"))
	// One character is no secret; a leading '+' before a name is string concatenation;
	// an ellipsis marks an elided example ("sk-...", "?token=...").
	// [u8; 16], []byte: a type annotation before the value.
	// "word1 … word12" stands for a seed phrase's words; "dbpass:/etc/…"
	// names a credential and the file it is loaded from (systemd's
	// LoadCredential=ID:PATH).
	if placeholderWordRE.Get().MatchString(l) || credFileRE.Get().MatchString(l) {
		return true
	}
	// The secret's own word as its value, alone or closing a placeholder
	// ("<user:password>", "-psecret" in a manual, API_KEY = "api_key" in
	// an enum of names): it names what goes there.
	if secretWordValue.Get()[strings.Trim(l, "<>{}[]\"'")] {
		return true
	}
	// A generated value of 32 or more may open with '(' among its
	// symbols (WordPress's salts), where a call's or a group's would not.
	if len(l) < 2 || l[0] == '[' && identPath(strings.TrimLeft(l[1:], "]")) || l[0] == '+' && (len(l) == 1 || l[1] == ' ' || unicode.IsLetter(rune(l[1])) && !made(v[1:])) || l[0] == '(' && !(len(v) >= 32 && random(v)) ||
		bracketed(l) || masked(l) || awsDocumented.Get()[v] || yamlTag(v) || vaultNames.Get()[l] || placeholderToken(l) || strings.Contains(v, "...") || strings.Contains(v, "…") || placeholders.Get()[l] || strings.Trim(l, "x*.") == "" {
		return true
	}
	// %NAME% is a Windows variable and %q a format verb; a value that
	// merely starts with % is neither.
	if l[0] == '%' && (len(l) > 2 && l[len(l)-1] == '%' && identPath(l[1:len(l)-1]) || len(strings.TrimLeft(l[1:], "-+# 0123456789.*")) == 1) {
		return true
	}
	for _, w := range placeholderWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	// BASE32SECRET, MY_TOKEN: capitals that name what they stand for.
	if v == strings.ToUpper(v) && anyOf(l, "secret", "token", "password", "passwd") {
		return true
	}
	if stubbed(plainWords(l)) || attrRef(v) || minisignPublic(v) || typeName(l) || secretSpec(v) || goTestName(v) || regexTail(v) {
		return true
	}
	for _, p := range references {
		if strings.HasPrefix(l, p) {
			// "<dDAKoTKZt2kf-gtAtyJ": a token that opens with '<' and
			// closes no placeholder.
			if p == "<" && len(l) >= 16 && isAlnum(l[1]) && !strings.Contains(l, ">") && random(v) {
				continue
			}
			// A dotted reference names an identifier (var.db_password,
			// local.x); a name never opens with a digit, so
			// local.8DkdQsyw is the value itself.
			if strings.HasSuffix(p, ".") && len(l) > len(p) && l[len(p)] >= '0' && l[len(p)] <= '9' {
				continue
			}
			return true
		}
	}
	// [Text.Encoding]::Unicode.GetString(…), [Environment]::GetEnvironmentVariable(…):
	// PowerShell calls a type's member to compute the value.
	if t, _, ok := strings.Cut(l, "]::"); ok && l[0] == '[' && identPath(t[1:]) {
		return true
	}
	// getpass(), getAccessToken(client): a call computes the value;
	// cfg['auth']: an index looks it up.
	if i := strings.IndexAny(v, "(["); i > 0 && identPath(strings.ReplaceAll(v[:i], "::", ".")) {
		return true
	}
	// %(password)s and {password}: a format's field, filled in later.
	if f, ok := strings.CutPrefix(l, "%("); ok && strings.HasSuffix(f, "s") && identPath(strings.TrimSuffix(f, ")s")) ||
		v[0] == '{' && v[len(v)-1] == '}' && identPath(v[1:len(v)-1]) {
		return true
	}
	return false
}

// boundVariable reports a value that a client fills in from a variable:
// psql's :'name', :"name" and :name, and a query's bind parameter, the
// colon glued to the name and set apart from the key by a space
// (ALTER USER app WITH PASSWORD :'newpw'). op is what the pair rule read
// between key and value; v the value, unquoted.
func boundVariable(op, v string) bool {
	if !strings.HasSuffix(op, ":") || strings.TrimLeft(op, " \t") == op || v == "" {
		return false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// typeName reports a type where a value would go: a parameter or field
// annotated with its type (password: str), as Python, TypeScript, Rust,
// Kotlin, Swift and Scala write one, the annotation running on into the
// signature's punctuation (str):, String,, &'a str, string;). l is lower
// case.
func typeName(l string) bool {
	l = strings.TrimRight(l, "):,;={?! ")
	l = strings.TrimPrefix(strings.TrimPrefix(l, "&"), "mut ")
	if strings.HasPrefix(l, "'") {
		return true // a Rust lifetime (&'a str, cut at its space)
	}
	// Secret<String>, Option<SecretString>, Box<str>: a wrapper's type
	// around a type.
	if i := strings.IndexByte(l, '<'); i > 0 && strings.HasSuffix(l, ">") {
		return wrapperTypes.Get()[l[:i]] && typeName(l[i+1:len(l)-1])
	}
	return typeNames.Get()[l]
}

// wrapperTypes hold a value of the type between their angle brackets:
// the secrecy crate's Secret and SecretBox, and the standard library's.
var wrapperTypes = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"secret": true, "secretbox": true, "option": true, "box": true, "arc": true, "rc": true, "vec": true, "zeroizing": true, "sensitive": true}
}}

// typeNames are the types a secret is declared as, in the languages that
// annotate a name with its type after a colon.
var typeNames = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"str": true, "string": true, "bytes": true, "bytearray": true, "int": true, "integer": true, "bool": true, "boolean": true,
		"char": true, "secretstr": true, "secretbytes": true, "securestring": true, "any": true, "unknown": true, "object": true, "text": true, "number": true,
		"chararray": true, "bytearrayview": true, "u8": true, "uuid": true, "nsstring": true, "[]byte": true, "&str": true, "zeroizing": true,
		"secretstring": true, "secretvec": true, "secretslice": true}
}}

// openPlaceholder reports a match that ends inside an angle-bracketed
// placeholder whose words run past it (X-Signature: sha256=<hex digest>,
// Bearer <your token here>): the value stopped at the placeholder's
// space, and the line closes the bracket a few words on.
func openPlaceholder(s string, end int, cut string) bool {
	i := strings.LastIndexByte(cut, '<')
	if i < 0 || strings.IndexByte(cut[i:], '>') >= 0 {
		return false
	}
	rest := s[end:]
	if len(rest) > 48 {
		rest = rest[:48]
	}
	j := strings.IndexByte(rest, '>')
	if j < 0 {
		return false
	}
	for _, c := range rest[:j] {
		if !(unicode.IsLetter(c) || c == ' ' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// attrRef reports a reference to another object's attribute, as
// Terraform writes one unquoted: TYPE.NAME.ATTR, whose type is a
// provider's and has an underscore (random_password.db.result,
// aws_secretsmanager_secret_version.db.secret_string). A passphrase joins
// its words with one separator, not both.
func attrRef(v string) bool {
	typ, rest, ok := strings.Cut(v, ".")
	return ok && strings.Count(rest, ".") >= 1 && strings.Contains(typ, "_") && identPath(v) && v == strings.ToLower(v) &&
		!strings.Contains(v, "..") && !strings.HasSuffix(v, ".")
}

// minisignPublic reports a minisign public key (given with -P to verify):
// base64 of "Ed", an 8-byte key id and a 32-byte Ed25519 key. The secret
// key file's line is longer and says so in its comment.
func minisignPublic(v string) bool {
	if len(v) != 56 || !strings.HasPrefix(v, "RW") {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(v)
	return err == nil && len(b) == 42 && string(b[:2]) == "Ed"
}

// masked reports a value shown with its characters masked (sk_live_••••3f9a,
// "***"): a run of three mask characters.
func masked(l string) bool {
	run := 0
	for _, r := range l {
		if r == '*' || r == '•' || r == '●' || r == '·' || r == '∙' {
			if run++; run == 3 {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}

// identPath says whether s is a dotted identifier (^[A-Za-z_][A-Za-z0-9_.]*$),
// without a regexp compiled when every command starts.
func identPath(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// publicPrefixes open keys made to be published: Stripe's and its
// imitators' publishable keys (pk_live_…, pk_test_…).
var publicPrefixes = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"pk": true}
}}

// publishable reports a value that opens with a public prefix and its
// mode (Stripe's and Clerk's pk_live_…, pk_test_…), or with pk. and a
// base64 JSON header (Mapbox's public tokens; the secret twin opens with
// sk.): whatever name holds it, a key made to ship in a page is no secret.
func publishable(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	if strings.HasPrefix(v, "pk.eyJ") && strings.Count(v, ".") == 2 {
		return true
	}
	p, rest, ok := strings.Cut(v, "_")
	if !ok || !publicPrefixes.Get()[p] {
		return false
	}
	mode, _, ok := strings.Cut(rest, "_")
	return ok && (mode == "live" || mode == "test")
}

// base32Key reports a key written in base32's small letters and digits
// 2-7 (Azure DevOps' 52-character PATs, TOTP seeds): too few capitals
// and digits for random, as random as any key.
func base32Key(v string) bool {
	if len(v) < 32 {
		return false
	}
	d := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '2' && c <= '7':
			d++
		case c < 'a' || c > 'z':
			return false
		}
	}
	return d >= 4 && entropy(v) >= 4
}

// jwtShape reports a JWT's three parts: a header and a claims set that
// open "eyJ", a signature.
func jwtShape(v string) bool {
	p := strings.Split(v, ".")
	return len(p) == 3 && strings.HasPrefix(p[0], "eyJ") && strings.HasPrefix(p[1], "eyJ") && len(p[1]) >= 8 && len(p[2]) >= 16
}

// namedDigest reports a lookup key built from words and a digest
// (node-cache-Linux-x64-npm-<sha256 of the lockfile>, a CI cache's
// key template): two or more words, then a hex digest of 32, 40 or 64
// digits. A generated secret is one run, not named parts.
func namedDigest(v string) bool {
	parts := strings.Split(v, "-")
	h := parts[len(parts)-1]
	if len(parts) < 3 || !(len(h) == 32 || len(h) == 40 || len(h) == 64) || !hexOnly(h) {
		return false
	}
	for _, w := range parts[:len(parts)-1] {
		if w == "" || len(w) > 16 || !(w[0] >= 'a' && w[0] <= 'z' || w[0] >= 'A' && w[0] <= 'Z') {
			return false
		}
		for i := 0; i < len(w); i++ {
			if !isAlnum(w[i]) {
				return false
			}
		}
	}
	return true
}

// A key name refers to a secret or names a public identifier, rather than
// holding a secret, when its last part says so (secretName, secretKeyRef,
// passwordFile, tokenPath), its first part does (existingSecret,
// publicKey), or it is a database or request key (sort_key,
// Idempotency-Key), or names a version, a URL or a host (apiVersion,
// token_url: what the key gives is no secret; a URL's own password is the
// url-password rule's), or says its value is the secret hashed
// (detect-secrets' hashed_secret). A part elsewhere decides nothing:
// REDIS_CACHE_PASSWORD and PRIMARY_DB_PASSWORD hold passwords.

var (
	refLast = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return map[string]bool{"name": true, "ref": true, "file": true, "path": true, "version": true, "url": true, "uri": true, "host": true, "endpoint": true}
	}}
	refFirst = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return map[string]bool{"existing": true, "public": true, "publishable": true, "hashed": true}
	}}
	dbKey = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return map[string]bool{"cache": true, "partition": true, "sort": true, "primary": true, "foreign": true, "dedup": true, "idempotency": true}
	}}
)

// refName reports a key name that refers to a secret or names a public
// identifier (see refLast).
func refName(name string) bool {
	parts := nameParts(name)
	if len(parts) < 2 {
		return false
	}
	first, last := strings.ToLower(parts[0]), strings.ToLower(parts[len(parts)-1])
	// hs_ed25519_public_key, signingPublicKey: the public half of a pair.
	return refLast.Get()[last] || refFirst.Get()[first] || len(parts) == 2 && dbKey.Get()[first] && last == "key" || strings.EqualFold(parts[len(parts)-2], "public")
}

// paramName reports an authorization's value that is a parameter's name
// after its scheme (Rails' Token token="…": a few small letters and '=';
// a credential in base64 of small letters alone is rare).
func paramName(scheme, v string) bool {
	p, ok := strings.CutSuffix(v, "=")
	return ok && scheme != "" && p != "" && len(p) <= 16 && strings.Trim(p, lower+"_") == ""
}

// objectName reports a bare "secret" key given the name of a stored
// object (a Kubernetes Secret's, a Helm value's "secret: app-tls"): two
// small words of letters joined by a hyphen, no digit, no capital; a
// chosen password carries a digit, a capital or a symbol, and a phrase of
// words is longer (the passphrase rules judge three words and more).
func objectName(name, v string) bool {
	if !strings.EqualFold(name, "secret") || len(v) > 40 || strings.Trim(v, lower+"-") != "" {
		return false
	}
	a, b, ok := strings.Cut(v, "-")
	return ok && a != "" && b != "" && !strings.Contains(b, "-")
}

// nameWords end the name of a stored secret (prod-db-password).
var nameWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"password": true, "passwd": true, "token": true, "secret": true, "key": true, "credentials": true, "creds": true, "apikey": true}
}}

// stubWords mark a value written for a test: "test-csrf-token".
var stubWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"test": true, "fake": true, "mock": true, "dummy": true, "example": true, "sample": true, "stub": true, "demo": true}
}}

// userRepeated reports a URL's password that repeats its user name
// (amqp://guest:guest@, postgres://postgres:postgres@): a service's
// default login for a local container, written in its documentation, as
// a value that repeats its key is a stub. head is the URL, or the user,
// up to the password's colon.
func userRepeated(head, pw string) bool {
	user := strings.TrimSuffix(head, ":")
	if _, u, ok := strings.Cut(user, "://"); ok {
		user = u
	}
	return user != "" && user == pw
}

// selfNamed reports a value made of plain words (letters joined by '-' or
// '_') that repeats its key's own name or says it is a stand-in:
// csrf_token = "test-csrf-token", api_key: "fake-api-key".
func selfNamed(name, v string) bool {
	// api_key=api_key), token: token: a variable named like its key.
	if strings.EqualFold(strings.TrimRight(v, ")]};,"), name) {
		return true
	}
	words := plainWords(v)
	if stubbed(words) {
		return true
	}
	// --secret=quotes-db-password, secretRef: api-token: plain words that
	// end in a secret's kind name a secret kept elsewhere.
	if len(words) > 0 && nameWords.Get()[words[len(words)-1]] {
		return true
	}
	for _, p := range nameParts(name) {
		p = strings.ToLower(p)
		if len(p) > 2 && slices.Contains(words, p) && secretWords.Get()[p] {
			return true
		}
	}
	return false
}

// plainWords splits a value made only of two or more lower-case words
// joined by '-' or '_' ("test-csrf-token"); any other value gives nil.
func plainWords(v string) []string {
	words := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == '-' || r == '_' })
	if len(words) < 2 {
		return nil
	}
	for _, w := range words {
		for _, r := range w {
			if r < 'a' || r > 'z' {
				return nil
			}
		}
	}
	return words
}

// stubbed reports plain words one of which says the value is a stand-in.
func stubbed(words []string) bool {
	for _, w := range words {
		if stubWords.Get()[w] {
			return true
		}
	}
	return false
}

// secretWords are the name parts that make an assignment a candidate.
var secretWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"encrypt": true, "encryption": true, "hmac": true, "jwt": true, "pat": true, "otp": true, "totp": true, "seed": true, "cookie": true, "dsn": true, "license": true, "licence": true, "access": true, "auth": true, "api": true, "apikey": true, "credential": true,
		"credentials": true, "creds": true, "cred": true, "key": true, "password": true, "passwd": true, "pass": true, "pwd": true,
		"passphrase": true, "secret": true, "token": true, "signing": true, "salt": true, "private": true}
}}

// secretName splits an identifier at '_', '-', '.' and camelCase humps and
// reports whether one part is a secret word ("author" and "monkey" are not).
func secretName(name string) bool {
	for _, p := range nameParts(name) {
		if secretWords.Get()[strings.ToLower(p)] {
			return true
		}
	}
	return false
}

// strongName reports a name that says it holds a secret (a password, a
// token), unlike one that merely ends in "key", which may be a lookup key.
func strongName(name string) bool {
	l := strings.ToLower(name)
	for _, w := range []string{"pass", "pwd", "secret", "token", "psk", "apikey", "api_key", "privatekey", "accesskey"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// nameParts splits an identifier at '_', '-', '.' and camelCase humps.
func nameParts(name string) []string {
	var parts []string
	start := 0
	for i, r := range name {
		if r == '_' || r == '-' || r == '.' {
			parts = append(parts, name[start:i])
			start = i + 1
			continue
		}
		if i > start && unicode.IsUpper(r) && unicode.IsLower(rune(name[i-1])) {
			parts = append(parts, name[start:i])
			start = i
		}
	}
	return append(parts, name[start:])
}

// random reports whether v looks generated rather than written: long enough,
// high Shannon entropy, and digits or capitals mixed in the way words and
// paths ("networking.k8s.io/v1beta1", "node-modules-linux") do not.
func random(v string) bool {
	if len(v) < 12 {
		return false
	}
	var mixed, dig int
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			mixed++
			dig++
		case r >= 'A' && r <= 'Z':
			mixed++
		}
	}
	return dig > 0 && float64(mixed)/float64(len(v)) >= 0.25 && entropy(v) >= 3.5
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// String returns s with every secret the rules recognise replaced.
func (r *Redactor) String(s string) string {
	out, _ := r.Redact(s)
	return out
}

// Redact returns s with every secret the rules recognise replaced, and the
// kinds of secret it replaced (sorted, each once) so a caller can say what
// it removed without quoting it.
func (r *Redactor) Redact(s string) (string, []string) {
	var kinds []string
	// A BIP39 mnemonic is found by its checksum, named or not, in any
	// layout (pkg/mnemonic); its words go before any rule reads them.
	if spans := mnemonic.Find(s); len(spans) > 0 {
		var b strings.Builder
		last := 0
		for _, sp := range spans {
			b.WriteString(s[last:sp[0]])
			b.WriteString("[REDACTED:mnemonic]")
			last = sp[1]
		}
		b.WriteString(s[last:])
		s = b.String()
		kinds = append(kinds, "mnemonic")
	}
	lower := strings.ToLower(s)
	var ps *pairs.Set
	// Rules that share one long hint list (the prose rules' pwHints) ask
	// once while the text is unchanged.
	var shared [2]*string
	var sharedAny [2]bool
	var spans [][]int
	spansStale := true
	for i := 0; i < len(r.rules); i++ {
		ru := &r.rules[i]
		if ps == nil && len(lower) >= minPairText {
			ps = pairs.Of(lower)
		}
		if len(ru.hints) > 8 {
			k := 0
			for k < len(shared) && shared[k] != nil && shared[k] != &ru.hints[0] {
				k++
			}
			if k == len(shared) {
				k, shared = 0, [2]*string{}
			}
			if shared[k] == nil {
				shared[k], sharedAny[k] = &ru.hints[0], anyHint(ps, lower, ru.hints)
			}
			if !sharedAny[k] {
				continue
			}
		} else if !anyHint(ps, lower, ru.hints) {
			continue
		}
		if ru.pre != nil && !ru.pre(lower) {
			continue
		}
		var locs [][]int
		if ru.window && len(lower) == len(s) {
			locs = windowed(ru, s, lower)
		} else {
			locs = ru.re.Get().FindAllStringSubmatchIndex(s, -1)
		}
		if locs == nil {
			continue
		}
		// The protected spans are searched once for each state of the
		// text, not again for every rule that matches it.
		if spansStale {
			spans, spansStale = protected(s, lower), false
		}
		var b strings.Builder
		b.Grow(len(s))
		last := 0
		m := make([]string, ru.re.Get().NumSubexp()+1)
		for _, loc := range locs {
			for g := range m {
				if loc[2*g] >= 0 {
					m[g] = s[loc[2*g]:loc[2*g+1]]
				} else {
					m[g] = ""
				}
			}
			if ru.keep != nil && ru.keep(m) || ru.repl == nil && placeholderToken(m[0]) || inside(spans, loc[0], loc[1]) {
				continue
			}
			rep := "[REDACTED:" + ru.name + "]"
			if ru.repl != nil {
				rep = ru.repl(m)
			}
			// What the replacement removes (the match less what it
			// keeps at either end) may be fake by its structure, or
			// public by its prefix.
			if cut := removedBy(m[0], rep); fakeSpan(cut) || publishable(cut) || shownMasked(s, loc[1], cut) || openPlaceholder(s, loc[1], cut) || pastSpan(s, loc[0], m[0], cut) {
				continue
			}
			b.WriteString(s[last:loc[0]])
			b.WriteString(rep)
			last = loc[1]
			if !slices.Contains(kinds, ru.name) {
				kinds = append(kinds, ru.name)
			}
		}
		if last == 0 {
			continue
		}
		b.WriteString(s[last:])
		s = b.String()
		lower = strings.ToLower(s)
		ps, shared = nil, [2]*string{}
		spansStale = true
		if ru.repeat {
			i-- // again, on what it left, until it changes nothing
		}
	}
	// Last, a token shaped as a password that no rule named (a value
	// told in a language whose words the rules lack, a chat line).
	if spans := looseSpans(s); len(spans) > 0 {
		var b strings.Builder
		last := 0
		for _, sp := range spans {
			b.WriteString(s[last:sp[0]])
			b.WriteString(Mask)
			last = sp[1]
		}
		b.WriteString(s[last:])
		s = b.String()
		if !slices.Contains(kinds, "password-shape") {
			kinds = append(kinds, "password-shape")
		}
	}
	slices.Sort(kinds)
	return s, kinds
}

// arnRE matches an Amazon Resource Name: its resource part names a role,
// a bucket or a secret (…:secret:prod/db-AbCdEf), it never holds one.
var arnRE = lazy.RE(`\barn:aws[a-z-]*:[a-z0-9-]+:[a-z0-9-]*:[0-9]{12}:[A-Za-z0-9_+.@/:*-]+`)

// protected returns the spans of s no rule may match wholly inside. An ARN
// ends at the first character no ARN holds (';', ',', '=', '&', a quote,
// space): what follows is text of its own.
func protected(s, lower string) [][]int {
	var spans [][]int
	if strings.Contains(lower, "arn:aws") {
		spans = arnRE.Get().FindAllStringIndex(s, -1)
	}
	// "cache key: go-build-…", "sort key: …": a lookup key named in prose
	// (the key rules see only the word "key").
	for w := range dbKey.Get() {
		if strings.Contains(lower, w+" key") {
			spans = append(spans, lookupKeyRE.Get().FindAllStringIndex(s, -1)...)
			break
		}
	}
	// A JWK's public members (the modulus n, the exponent e, the curve
	// point x, y) are published by design; its private ones (d, p, q…)
	// are the private-key rule's.
	if strings.Contains(lower, `"kty"`) {
		spans = append(spans, jwkPublicRE.Get().FindAllStringIndex(s, -1)...)
	}
	// An element's key attribute (React's and Vue's key="…", :key="…")
	// tells siblings apart; the value of a configuration's <add key=…
	// value=…> lies outside it.
	if strings.Contains(lower, "key=") && strings.IndexByte(s, '<') >= 0 {
		spans = append(spans, elementKeyRE.Get().FindAllStringIndex(s, -1)...)
	}
	// A comment in which a key word is followed by a word and more prose
	// ("# no client secret: federated credentials via OIDC") tells how a
	// secret is given; a value written in a comment has a digit or a
	// symbol, or stands alone.
	if strings.Contains(s, "# ") || strings.Contains(s, "// ") {
		spans = append(spans, commentProseRE.Get().FindAllStringIndex(s, -1)...)
	}
	// "public key: …" (wg show, ssh-keygen, age-keygen): the public half
	// of a pair, named public by a word of its own before "key".
	if strings.Contains(lower, "public key") {
		spans = append(spans, publicKeyRE.Get().FindAllStringIndex(s, -1)...)
	}
	return spans
}

var publicKeyRE = lazy.RE(`(?i)\bpublic[ \t]+key[ \t]*[:=][ \t]*[A-Za-z0-9+/=_-]+`)

var elementKeyRE = lazy.RE(`<[A-Za-z][A-Za-z0-9_.:-]*[ \t][^<>\n]*?:?\bkey=(?:"[^"\n]*"|'[^'\n]*')`)

var commentProseRE = lazy.RE(`(?m)^[ \t]*(?:#|//)[ \t][^\n:=]*:[ \t]+[a-z]{3,}(?:[ \t]+[A-Za-z(][A-Za-z0-9_.()-]*){2,}[ \t]*$`)

var lookupKeyRE = lazy.RE(`(?i)\b(?:cache|partition|sort|primary|foreign|dedup|idempotency)[ \t]+key\b[ \t]*[:=][ \t]*\S+`)

var jwkPublicRE = lazy.RE(`"(?:n|e|x|y|kid|x5t|x5t#S256)"[ \t]*:[ \t]*"[A-Za-z0-9_+/=-]*"|"x5c"[ \t]*:[ \t]*\[[^\]]*\]`)

func inside(spans [][]int, start, end int) bool {
	for _, sp := range spans {
		if start >= sp[0] && end <= sp[1] {
			return true
		}
	}
	return false
}

// minPairText is the shortest text worth a pair set (pkg/pairs: a hint
// with a pair the text lacks cannot be in it, so most hints are ruled out
// without a search of the whole text); shorter ones are searched directly.
const minPairText = 512

// anyHint reports whether a rule may match: it has no hints, or lower
// holds one (p, when not nil, holds lower's pairs).
func anyHint(p *pairs.Set, lower string, hints []string) bool {
	return len(hints) == 0 || pairs.Any(p, lower, hints)
}

// std is the shared Redactor, compiled on first use, not at init: a
// process that links this package pays for its regexps only when it
// redacts (docs/performance.md). It is immutable once built, so sharing it
// is not mutable global state.
var std = &lazy.Value[*Redactor]{Build: New}

// String redacts s with the default rules.
func String(s string) string { return std.Get().String(s) }

// Redact redacts s with the default rules and names the kinds it removed.
func Redact(s string) (string, []string) { return std.Get().Redact(s) }

// hexKey reports a long hex value with digits and letters: a key written
// in hex (Flask's SECRET_KEY, a LoRaWAN AppKey), whose 16 symbols give a
// lower entropy than random's threshold.
func hexKey(v string) bool {
	return len(v) >= 32 && hexOnly(v) && strings.ContainsAny(v, digits) && strings.ContainsAny(strings.ToLower(v), "abcdef")
}

// yamlTag reports a YAML tag standing for the value (db_password: !vault |,
// !Ref DbPassword, !secret db_pw): the value is encrypted or looked up.
func yamlTag(v string) bool {
	if len(v) < 3 || len(v) > 24 || v[0] != '!' {
		return false
	}
	for _, c := range v[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// subcommands follow a namespace and a bare colon in a command
// (rails credentials:edit, heroku config:set, artisan key:generate): a
// verb, not a value.
var subcommands = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"edit": true, "show": true, "set": true, "get": true, "unset": true, "list": true, "add": true, "remove": true,
		"rotate": true, "clear": true, "diff": true, "create": true, "delete": true, "encrypt": true, "decrypt": true, "generate": true, "setup": true,
		"init": true, "push": true, "pull": true, "fetch": true, "cache": true, "refresh": true, "revoke": true, "reset": true}
}}

// awsDocumented are the key pair AWS's documentation publishes: they
// open no account, and people paste them as examples.
var awsDocumented = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"AKIAIOSFODNN7EXAMPLE": true, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": true}
}}

// generated reports a value a generator made: random, or a long hex key
// (a short hex value is an id: a GPG key's, a commit's prefix).
func generated(v string) bool {
	return random(v) && !(hexOnly(v) && len(v) < 32) || hexKey(v)
}

// madePhrase reports a value made by a person or a generator where a
// secret is named: made, or words joined as a passphrase generator joins
// them ("airport-disorder-begin-hood", "exhibit.desert.film.rule").
func madePhrase(v string) bool { return made(v) || passphrase(v) }

// longPhrase reports a passphrase of four words or more: where a secret is
// not named, three words joined are as often an identifier.
func longPhrase(v string) bool {
	return passphrase(v) && max(strings.Count(v, "-"), strings.Count(v, "_"), strings.Count(v, ".")) >= 3
}

// passphrase reports words joined by one separator ('-', '_' or '.'):
// three or more of three to nine small letters, the last maybe followed
// by digits or a symbol ("cactus.battery.fjord.mosaic!"); a host name or
// a package path (its first or last label a top-level domain) is none.
func passphrase(v string) bool {
	quoted := false
	if _, q, _, ok := quotes(v); ok {
		v, quoted = q, true
	}
	core := strings.TrimRight(strings.TrimRight(v, ".,;:)"), digits+"!@#$%^&*?")
	for _, sep := range []string{"-", "_", ".", " "} {
		// Words between spaces are a passphrase only quoted, and four of
		// them at least ("the password is "maple staple orbit mosaic"").
		if sep == " " && !quoted {
			continue
		}
		parts := strings.Split(core, sep)
		if len(parts) < 3 || sep == " " && len(parts) < 4 {
			continue
		}
		ok := true
		for _, p := range parts {
			if len(p) < 3 || len(p) > 9 || strings.Trim(p, lower) != "" {
				ok = false
				break
			}
		}
		if ok && !(sep == "." && (topLevel.Get()[parts[0]] || topLevel.Get()[parts[len(parts)-1]])) {
			return true
		}
	}
	return false
}

// topLevel are top-level domains and the labels that open a package path.
var topLevel = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"com": true, "net": true, "org": true, "io": true, "dev": true, "app": true, "cloud": true, "local": true, "internal": true, "lan": true, "corp": true,
		"www": true, "edu": true, "gov": true, "info": true, "biz": true, "tech": true, "site": true, "online": true, "svc": true, "cluster": true, "localhost": true, "example": true, "test": true, "invalid": true, "java": true, "javax": true}
}}

// secretWordValue are the words that name a secret, given as a value.
var secretWordValue = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"password": true, "passwd": true, "pass": true, "secret": true, "token": true, "apikey": true, "api_key": true, "api-key": true, "passphrase": true, "pwd": true,
		"access_token": true, "auth_token": true, "secret_key": true, "private_key": true, "client_secret": true}
}}

// generatedLetters reports a value a generator made of letters and
// symbols with no digit ("taEbzXkDS--DSsJsFkbT"): capitals and small
// letters flipping as a generator flips them (mixedCase), and a symbol.
func generatedLetters(v string) bool {
	v = strings.Trim(strings.TrimRight(v, sentenceEnd), `"'`)
	return mixedCase(v) && !strings.ContainsAny(v, digits) && strings.ContainsAny(v, "-_!@#$%^&*+=~.") && !strings.Contains(v, "://") && !sealed(v)
}

// numberParam reports a value that is itself a parameter given a number
// (Stripe-Signature: t=1775359330,v1=…): a timestamp or a count named
// inside the value, no secret.
func numberParam(v string) bool {
	k, n, ok := strings.Cut(v, "=")
	if !ok || k == "" || len(k) > 8 || n == "" || strings.Trim(n, digits) != "" {
		return false
	}
	return strings.Trim(strings.ToLower(k), lower+digits+"_") == ""
}

// chainSignature reports a bare "signature" given 64 bytes in base58 (a
// Solana transaction's signature, printed by its CLI and shown by every
// explorer): public on its chain. A keypair's secret in base58 is named
// for a key.
func chainSignature(name, v string) bool {
	if !strings.EqualFold(name, "signature") || len(v) < 86 || len(v) > 88 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isAlnum(v[i]) || strings.IndexByte("0OIl", v[i]) >= 0 {
			return false
		}
	}
	return true
}
