package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// codeRules find one-time codes a person keeps to get back into an
// account, and the seed of an authenticator typed by hand: whatever a
// service calls its recovery, backup, bypass, scratch or emergency codes
// (or keys), a 2FA/MFA/TOTP seed or secret, a setup key, a key to "enter
// manually". The codes follow their name on its line, in parentheses, after
// a colon or quote, or on the lines below it (a saved codes file). What
// makes them codes is their shape, not the service: one token of six or
// more letters and digits (grouped by hyphens or not) holding a digit, or a
// list of same-length groups some of which hold a digit. A name followed by
// prose, a count, a date, a ticket key or a hash's name is left alone.
func codeRules() []rule {
	return []rule{
		{
			name: "secret-value",
			hints: []string{"recovery", "backup", "bypass", "scratch", "emergency", "rescue", "revocation", "rcode",
				"2fa", "mfa", "totp", "otp", "two-factor", "two factor", "setup key", "manually", "manual entry", "key instead", "secret instead"},
			re: lazy.RE(`(?i)((?:\b|_)(?:(?:recovery|backup|bypass|scratch|emergency|rescue|revocation|one[ -]time|2fa|mfa|two[ -]factor|2-step|two-step)(?:[ _-](?:verification|login|access|recovery|backup))?[ _-]?(?:codes?|keys?)|rcodes?|(?:2fa|mfa|totp|otp|authenticator)[ _-]?(?:seeds?|secrets?|setup[ _-]keys?)|setup[ _-]keys?|enter (?:this|the) (?:key|code|secret) manually|manual[ -]?entry[ _-](?:key|code|secret)|(?:2fa|mfa|two[ -]factor|2-step|two-step)[ _-]+(?:recovery|backup)|enter (?:this|the) (?:setup )?(?:key|secret) instead)(?:\b|_))` +
				`([^\n]{0,160}(?:\n[ \t]*(?:(?:\d{1,2}[.)]|[-*•])[ \t]+)?(?:[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+[ \t]*|[A-Za-z0-9][A-Za-z0-9 ,\t-]*)?){0,24})`),
			repl: func(m []string) string {
				i, j := codesIn(m[2])
				return m[1] + m[2][:i] + Mask + m[2][j:]
			},
			keep: func(m []string) bool {
				i, j := codesIn(m[2])
				return i == j || redacted(m[2][i:])
			},
		},
		{
			// A password named at a line's end, its value alone on a line
			// below, past at most one blank line ("root password for the
			// new hypervisor:\n\n    HE1A0Bw6SfFNfQ"): a value that looks
			// chosen or generated, one token, nothing else on its line.
			name:   "secret-value",
			hints:  pwHints,
			window: true,
			span:   400,
			pre:    func(lower string) bool { return strings.Contains(lower, ":\n") || strings.Contains(lower, ":\r\n") },
			re:     lazy.RE(`(?i)((?:^|[^\p{L}\p{N}_])(?:` + pwWords + `)[^\n:]{0,60}:[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*)([^\s]{8,64})([ \t]*(?:\r?\n|$))`),
			repl:   func(m []string) string { return m[1] + Mask + m[3] },
			keep: func(m []string) bool {
				v := m[2]
				// "Password policy:", "password requirements:": a
				// description follows, not a value.
				if anyOf(strings.ToLower(m[1]), "polic", "require", "rule", "reset", "step", "file", "hash", "field", "format", "length", "strength", "manager", "prompt", "change", "expir", "rotat", "complex") {
					return true
				}
				return notAValue(v) || redacted(v) || pathLike(v) || strings.Contains(v, "://") || !strong(v) && !symbolMixed(v) && !generated(v)
			},
		},
	}
}

// codesIn finds the codes in what follows a codes' name: first a run on the
// name's own line (letters, digits, hyphens, spaces and commas between
// other punctuation) that is codes, or whose first token is one; then the
// lines below, past at most two blank ones, that hold codes and nothing
// else. It returns where they start and end in tail (i == j: none).
func codesIn(tail string) (int, int) {
	line, rest, _ := strings.Cut(tail, "\n")
	for i := 0; i < len(line); {
		if !runByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && runByte(line[j]) {
			j++
		}
		if a, b := codesAt(line, i, j); a < b {
			return a, b
		}
		i = j
	}
	// The lines below: past at most two blank lines, consecutive lines of
	// codes only.
	off := len(line) + 1
	if off > len(tail) {
		return 0, 0
	}
	blank := 0
	for rest != "" {
		l, r, _ := strings.Cut(rest, "\n")
		// The account the codes are for, on a line of its own between
		// the heading and the codes (a saved codes file).
		if t := strings.TrimSpace(l); t != "" && blank == 0 && emailLine(t) {
			off += len(l) + 1
			rest = r
			blank = 1
			continue
		}
		if strings.TrimSpace(l) != "" {
			break
		}
		if blank++; blank > 2 {
			return 0, 0
		}
		off += len(l) + 1
		rest = r
	}
	start, end := -1, -1
	var all []string
	pos := off
	for rest != "" {
		l, r, found := strings.Cut(rest, "\n")
		t := strings.TrimSpace(l)
		// A list's number or bullet before a code ("1. …", "- …").
		if m := listMarkRE.Get().FindString(t); m != "" && len(m) < len(t) {
			t = t[len(m):]
		}
		if t == "" || strings.IndexFunc(t, func(c rune) bool { return c > 0x7f || !runByte(byte(c)) }) >= 0 {
			break
		}
		all = append(all, t)
		if start < 0 {
			start = pos + strings.Index(l, t)
		}
		end = pos + strings.Index(l, t) + len(t)
		pos += len(l) + 1
		rest = r
		if !found {
			break
		}
	}
	if start < 0 || !codeList(strings.Join(all, " ")) {
		return 0, 0
	}
	return start, end
}

var listMarkRE = lazy.RE(`^(?:\d{1,2}[.)]|[-*•])[ \t]+`)

// emailLine reports a line that is one e-mail address.
func emailLine(t string) bool {
	at := strings.IndexByte(t, '@')
	return at > 0 && strings.IndexByte(t[at:], '.') > 0 && !strings.ContainsAny(t, " \t")
}

// runByte reports whether c may stand in a run of codes.
func runByte(c byte) bool {
	return isAlnum(c) || c == '-' || c == ' ' || c == ',' || c == '\t'
}

// codesAt finds codes in the run line[i:j]: from each of its tokens in
// turn, the tokens of that one's length that follow it, or that token
// alone (a code after words: "the seed is xk2q 9vmd pl4r 7wtz").
func codesAt(line string, i, j int) (int, int) {
	type tok struct{ a, b int }
	var toks []tok
	for k := i; k < j; {
		if strings.IndexByte(" ,\t", line[k]) >= 0 {
			k++
			continue
		}
		e := k
		for e < j && strings.IndexByte(" ,\t", line[e]) < 0 {
			e++
		}
		toks = append(toks, tok{k, e})
		k = e
	}
	for k, t := range toks {
		n := t.b - t.a
		e := k + 1
		for e < len(toks) && toks[e].b-toks[e].a == n {
			e++
		}
		if e-k > 1 && codeList(line[t.a:toks[e-1].b]) {
			return t.a, toks[e-1].b
		}
		if oneCode(line[t.a:t.b]) {
			return t.a, t.b
		}
	}
	return 0, 0
}

// codeList reports whether s, tokens apart by spaces or commas, is one
// code or a list of them: one token that is a code alone, or two or more
// of one length (hyphens included), at least four characters each, of one
// case, every one holding a digit if there are fewer than four and a
// quarter or more of them if more, and not a list of years.
func codeList(s string) bool {
	toks := strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == ',' || c == '\t' })
	switch len(toks) {
	case 0:
		return false
	case 1:
		return oneCode(toks[0])
	}
	n := len(toks[0])
	digits, years, alnum := 0, 0, 0
	for _, t := range toks {
		if len(t) != n || n < 4 || n > 40 || t[0] == '-' || t[len(t)-1] == '-' {
			return false
		}
		if strings.ContainsAny(t, "0123456789") {
			digits++
		}
		if n == 4 && (strings.HasPrefix(t, "19") || strings.HasPrefix(t, "20")) && count(t) {
			years++
		}
		alnum += len(strings.ReplaceAll(t, "-", ""))
	}
	up, low := strings.ToUpper(s) == s, strings.ToLower(s) == s
	if !up && !low || len(toks) < 4 && digits < len(toks) {
		return false
	}
	return alnum >= 8 && digits*4 >= len(toks) && years < len(toks)
}

// oneCode reports whether t is a code alone: six to sixty-four letters and
// digits holding a digit, in groups of one length (the last may be shorter)
// if hyphens part it, each group holding a digit unless there are three or
// more; not a date, a ticket key (OPS-4821) or a name with a number
// (sha256, rfc6238).
func oneCode(t string) bool {
	groups := strings.Split(t, "-")
	flat := strings.Join(groups, "")
	if len(flat) < 6 || len(flat) > 64 || !strings.ContainsAny(flat, "0123456789") {
		return false
	}
	if len(groups) > 1 {
		n := len(groups[0])
		for k, g := range groups {
			if g == "" || len(g) > n || k < len(groups)-1 && len(g) != n {
				return false
			}
			if len(groups) < 3 && !strings.ContainsAny(g, "0123456789") {
				return false
			}
		}
	}
	// Letters and digits: a code's alternate often (X72K9Q, fu52ka10) or
	// are a letter or two before a number (R68571); a name with a number
	// in it (sha256, argon2id, OPS-48213) alternates little or has a word
	// in it.
	flips, run, longest, lead := 0, 0, 0, -1
	for k := 0; k < len(flat); k++ {
		d := flat[k] >= '0' && flat[k] <= '9'
		if k > 0 && d != (flat[k-1] >= '0' && flat[k-1] <= '9') {
			flips++
			if lead < 0 {
				lead = k
			}
		}
		if d {
			run = 0
		} else if run++; run > longest {
			longest = run
		}
	}
	if longest > 0 && !(lead > 0 && lead <= 2 && flips == 1 && len(flat)-lead >= 5) &&
		!(flips >= 3 && (len(flat) >= 8 || longest <= 2)) {
		return false
	}
	return true
}
