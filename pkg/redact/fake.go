package redact

import (
	"encoding/base64"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// fakeSpan reports that the text a rule is about to replace is, by its
// structure, no secret a reader could use: a run a reader sees is made up
// (ABCDEF…, 0123456789…, aaaa…, a known prefix then zeros or Xs), an
// OpenSSH hashed host name (|1|salt|hash), a PEM block whose body is
// elided or prose, a template type (sk_${string}), or a Basic header of
// the literal "user:pass". It is asked once per match, after the rule
// chose it, so it costs nothing on text no rule matched.
func fakeSpan(v string) bool {
	v = strings.Trim(v, " \t\r\n\"'`")
	if len(v) < 3 {
		return false
	}
	if instruction(v) || standIn(v) {
		return true
	}
	if strings.HasPrefix(v, "|1|") || templated(v) || reference(v) {
		return true
	}
	if strings.HasPrefix(v, "-----BEGIN ") {
		return pemElided(v)
	}
	if basicPlaceholder(v) {
		return true
	}
	return madeUpRun(v)
}

// templated reports a value made of template references (${NAME},
// ${spring.datasource.password}, ${'live' | 'test'}) and at most eight
// letters or digits besides: a template type or a configuration's
// reference, no secret. A generated password that happens to hold "${"
// has symbols inside the braces, or more of itself outside them.
func templated(v string) bool {
	found, rest := false, 0
	for i := 0; i < len(v); i++ {
		if !strings.HasPrefix(v[i:], "${") {
			if isAlnum(v[i]) {
				rest++
			}
			continue
		}
		end := strings.IndexByte(v[i+2:], '}')
		if end < 1 {
			return false
		}
		for _, c := range []byte(v[i+2 : i+2+end]) {
			if !isAlnum(c) && strings.IndexByte("_.:'\"| -", c) < 0 {
				return false
			}
		}
		found = true
		i += 2 + end
	}
	return found && rest <= 8
}

// madeUpRun reports a value whose material (its alphanumeric runs that
// hold a digit or a capital, or are twelve long) is all made up, at least
// sixteen characters of it: every such run, after a prefix of up to four
// letters (T, B, AIza), is one repeated character, the zeros and Xs of a
// placeholder, or a sequence (ABC…Z012…, 0123456789abcdef0123…). Short
// lower-case words (https, hooks, live) and runs of up to four letters
// set apart (SendGrid's SG.) are the shape's fixed parts.
func madeUpRun(v string) bool {
	total := 0
	for i := 0; i < len(v); {
		if !isAlnum(v[i]) {
			i++
			continue
		}
		j := i
		for j < len(v) && isAlnum(v[j]) {
			j++
		}
		run := v[i:j]
		i = j
		if len(run) < 12 && !strings.ContainsAny(run, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") || len(run) <= 4 && letters(run) {
			continue
		}
		body, ok := degenerate(run, run == v)
		if !ok {
			return false
		}
		total += len(body)
	}
	return total >= 16
}

// degenerate strips up to four leading letters from run and reports the
// rest when it is made up (see madeUpRun) and at least six long. A
// sequence counts only for a value alone (a vendor's prefix is followed by
// its own alphabet in fixtures a test must still catch) of sixteen or
// more.
func degenerate(run string, alone bool) (string, bool) {
	for k := 0; k <= 4 && k < len(run); k++ {
		if k > 0 && !(run[k-1] >= 'a' && run[k-1] <= 'z' || run[k-1] >= 'A' && run[k-1] <= 'Z') {
			break
		}
		body := run[k:]
		if len(body) < 6 {
			break
		}
		if oneChar(body) || strings.Trim(body, "0xX") == "" || alone && k == 0 && len(body) >= 16 && sweep(body) {
			return body, true
		}
	}
	return "", false
}

// longOption reports a command's long option (--with-decryption): two
// dashes, then lower-case words joined by dashes.
func longOption(s string) bool {
	return len(s) > 3 && strings.HasPrefix(s, "--") && s[2] != '-' && strings.Trim(s[2:], lower+"-") == ""
}

// secretSpec reports a build tool's secret mount given as its fields
// (docker build --secret id=npmrc,src=$HOME/.npmrc, env=NPM_TOKEN): the
// value says where the secret is read from, never what it is.
func secretSpec(v string) bool {
	for _, f := range strings.Split(v, ",") {
		k, _, ok := strings.Cut(f, "=")
		switch k {
		case "id", "src", "source", "env", "type", "target", "dst", "required", "mode", "uid", "gid":
		default:
			return false
		}
		if !ok {
			return false
		}
	}
	return strings.Contains(v, "id=")
}

// wordPath reports a path of small words (secret/ci/sentry, kv/data/prod):
// a secret store's path after "-field=token", where a token's generated
// body would hold a digit or a capital.
func wordPath(v string) bool {
	parts := strings.Split(v, "/")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) < 2 || strings.Trim(p, lower+"-_") != "" {
			return false
		}
	}
	return true
}

// goTestName reports a Go test's, benchmark's or example's name, with its
// subtests or words joined by '_' ("--- PASS: TestRedact/ghp_prefix_in_url"):
// go test's status word is no password's key.
func goTestName(v string) bool {
	for _, p := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if rest, ok := strings.CutPrefix(v, p); ok && rest != "" && (rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] == '_') {
			return strings.ContainsAny(rest, "/_") && strings.Trim(rest, upper+lower+digits+"_/.-") == ""
		}
	}
	return false
}

// nameFlag reports a command's flag that takes a name or an identifier
// (--username, -u, --tenant, --client-id, --subscription): its value is
// who or what, not a credential.
func nameFlag(f string) bool {
	if !strings.HasPrefix(f, "-") {
		return false
	}
	f = strings.ToLower(strings.TrimLeft(f, "-"))
	if f == "u" {
		return true
	}
	switch f[strings.LastIndexByte(f, '-')+1:] {
	case "user", "username", "name", "id", "tenant", "email", "account", "org", "subscription", "project", "region", "server", "host", "registry":
		return true
	}
	return false
}

// keywordArg reports an unquoted argument given by its keyword
// (raising=False, timeout=30): an identifier, '=' and a value, where a
// base64 body has '=' only at its end.
func keywordArg(v string) bool {
	k, rest, ok := strings.Cut(v, "=")
	return ok && rest != "" && rest[0] != '=' && identPath(k) && !strings.Contains(k, ".")
}

// letters reports s made of ASCII letters alone.
func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func oneChar(s string) bool { return strings.Count(s, s[:1]) == len(s) }

// sweep reports a sequence (see sequence) typed whole: it never comes back
// to its first character, or it ends where a full round of it ends
// (0123456789abcdef twice, 1234567890 four times), not part-way through
// one.
func sweep(s string) bool {
	if !sequence(s) {
		return false
	}
	p := strings.IndexByte(s[1:], s[0]) + 1
	return p == 0 || len(s)%p == 0
}

// sequence reports that each character of s follows the one before in the
// order a keyboard run is typed: 0-9, a-z or A-Z ascending, wrapping
// after 9, f, z or Z to 0, a or A.
func sequence(s string) bool {
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		if b == a+1 && a != '9' && a != 'z' && a != 'Z' {
			continue
		}
		switch a {
		case '9', 'f', 'F', 'z', 'Z':
			if b == '0' || b == 'a' || b == 'A' {
				continue
			}
		}
		return false
	}
	return true
}

// pemElided reports a PEM marker with no key after it: the body up to
// the END marker is only dots and space ("...", "…"), or the marker sits
// inside a line of prose (a backquote, words) with no run of sixteen
// base64 characters after it. A pasted key, however short, starts on the
// next line (or after a string's escaped "\n").
func pemElided(v string) bool {
	i := strings.Index(v[11:], "-----")
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(v[11+i:], "-")
	if end := strings.Index(rest, "-----END"); end >= 0 && strings.Trim(strings.ReplaceAll(rest[:end], `\n`, ""), " \t\r\n.…") == "" {
		return true
	}
	line, _, _ := strings.Cut(rest, "\n")
	if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, `\n`) {
		return false
	}
	n := 0
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		if isAlnum(c) || c == '+' || c == '/' || c == '=' {
			if n++; n >= 16 {
				return false
			}
			continue
		}
		n = 0
	}
	return true
}

// basicPlaceholder reports base64 (after "Basic ") that decodes to a
// user and a password that are the words naming them ("user:pass",
// "username:password").
func basicPlaceholder(v string) bool {
	if i := strings.LastIndexByte(v, ' '); i >= 0 {
		v = v[i+1:]
	}
	if len(v) < 8 || len(v) > 40 {
		return false
	}
	d, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return false
	}
	u, p, ok := strings.Cut(string(d), ":")
	return ok && userWords.Get()[strings.ToLower(u)] && secretWordValue.Get()[strings.ToLower(p)]
}

// userWords are the words that name a user, given as one.
var userWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"user": true, "username": true, "login": true, "admin": true, "name": true}
}}

// instruction reports a value that says how to make the secret instead of
// being one: small words joined by '-' or '_' whose first is an order
// (generate-with-openssl-rand-hex-32, replace_with_your_own).
func instruction(v string) bool {
	words := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' })
	if len(words) < 3 || !orderWords.Get()[words[0]] {
		return false
	}
	for _, w := range words {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			return false
		}
	}
	return true
}

// orderWords open an instruction given in a value's place.
var orderWords = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"generate": true, "replace": true, "change": true, "set": true, "put": true, "paste": true, "insert": true, "fill": true, "enter": true, "use": true, "run": true, "create": true, "add": true}
}}

// removedBy returns the part of match that rep does not keep: match less
// the longest prefix and suffix the two share.
func removedBy(match, rep string) string {
	i := 0
	for i < len(match) && i < len(rep) && match[i] == rep[i] {
		i++
	}
	j := 0
	for j < len(match)-i && j < len(rep)-i && match[len(match)-1-j] == rep[len(rep)-1-j] {
		j++
	}
	return match[i : len(match)-j]
}

// shownMasked reports a value of four small letters or fewer whose line
// goes on to show a mask ("***"): a test asserting what the mask makes of
// a stand-in (mask('token=abc') == 'token=***'), not a credential.
func shownMasked(s string, end int, v string) bool {
	if len(v) == 0 || len(v) > 4 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	line, _, _ := strings.Cut(s[end:], "\n")
	return strings.Contains(line, "***")
}

// reference reports a value that says where the secret is kept or how it
// is read, not the secret: a Windows environment variable (%DB_PASS%),
// Python's %(NAME)s, a
// YAML tag that hands the value to a store or
// a resolver (!vault |, !secret db_pw, !Ref DbPassword, !env_var), an
// annotation or a call that reads it (@Value(, getpass.getpass(,
// os.environ.Get(), a PowerShell cmdlet that prompts or fetches
// (Read-Host, Get-Secret, ConvertTo-SecureString), or a manifest's
// reference by name (secretKeyRef, valueFrom, keyVaultReference). A
// generated password is none of these: it mixes cases, digits and
// symbols inside one run instead of naming something.
func reference(v string) bool {
	// A Windows environment variable (%DB_PASS%), braced or not.
	if w := strings.Trim(v, "{}"); len(w) > 2 && w[0] == '%' && w[len(w)-1] == '%' && envName(w[1:len(w)-1]) {
		return true
	}
	// Python's %-format and ConfigParser's interpolation (%(SECRET_KEY)s):
	// a name the value is filled in from.
	if name, ok := strings.CutPrefix(v, "%("); ok && len(name) > 3 && strings.HasSuffix(name, ")s") && (envName(name[:len(name)-2]) || word(name[:len(name)-2])) {
		return true
	}
	switch v[0] {
	case '!':
		return taggedRef(v)
	case '@':
		return callee(strings.TrimSuffix(v[1:], "("), true)
	}
	if strings.HasSuffix(v, "(") {
		return callee(v[:len(v)-1], false)
	}
	if verb, noun, ok := strings.Cut(v, "-"); ok && cmdletVerbs.Get()[verb] && word(noun) && noun[0] >= 'A' && noun[0] <= 'Z' {
		return true
	}
	return pointerName(v)
}

// taggedRef reports a YAML tag (see yamlTag) alone, before a block
// scalar's indicator (| or >: the value is on the lines below, vaulted),
// or before one name (!secret db_pw, !Ref DbPassword): the text after the
// tag names the value, it is not the value.
func taggedRef(v string) bool {
	name, rest, _ := strings.Cut(v, " ")
	if !yamlTag(name) {
		return false
	}
	rest = strings.TrimSpace(rest)
	return strings.Trim(rest, "|>-+") == "" || !strings.ContainsAny(rest, " \t")
}

// callee reports a name called where the value goes: an annotation
// (@Value), or a dotted, snake_case or camelCase name, or a lower-case
// word (getpass, input, prompt). A password ending in '(' is a run of
// mixed material, none of these.
func callee(name string, annotation bool) bool {
	if name == "" {
		return false
	}
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == '_' })
	for _, p := range parts {
		if !word(p) {
			return false
		}
	}
	if annotation || len(parts) > 1 {
		return true
	}
	lower := strings.ToLower(name) == name
	return lower && len(name) >= 4 || camel(name)
}

// pointerName reports a camelCase name ending in Ref, Reference, From or
// Name, or opening with from (fromSecret): a manifest's or a setting's
// pointer to the secret.
func pointerName(v string) bool {
	if !word(v) || !camel(v) {
		return false
	}
	if strings.HasPrefix(v, "from") && len(v) > 6 {
		return true // fromSecret, fromEnv: a provider's source by name
	}
	for _, suf := range []string{"Ref", "Reference", "From", "Name"} {
		if strings.HasSuffix(v, suf) && len(v) > len(suf)+2 {
			return true
		}
	}
	return false
}

// cmdletVerbs are PowerShell's approved verbs that read or convert a
// secret (Verb-Noun).
var cmdletVerbs = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"Read": true, "Get": true, "ConvertTo": true, "ConvertFrom": true, "Import": true, "Unprotect": true, "Invoke": true, "Resolve": true}
}}

// word reports ASCII letters only, at least one.
func word(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// camel reports a name in camelCase: lower-case first, then words each
// opened by one capital (secretKeyRef, getPassword), no two capitals in a
// row.
func camel(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	humps := 0
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			if s[i-1] >= 'A' && s[i-1] <= 'Z' || i == len(s)-1 {
				return false
			}
			humps++
		}
	}
	return humps > 0
}

// envName reports an environment variable's name: capitals, digits and
// '_', a capital or '_' first.
func envName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
