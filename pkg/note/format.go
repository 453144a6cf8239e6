package note

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

const delim = "---\n"

// Limits on what Parse accepts, so a hostile file cannot exhaust memory.
const (
	MaxFile        = 4 << 20
	MaxFrontMatter = 64 << 10
)

// ErrNoFrontMatter is returned for a file that does not start with "---".
var ErrNoFrontMatter = errors.New("memory file missing YAML front-matter")

// ErrTooLarge is returned for files or front-matter over the limits.
var ErrTooLarge = errors.New("too large")

type extraKey struct {
	key   string
	value *yaml.Node
}

// Parse reads a note file. It accepts what the reference reader accepts plus
// CRLF line endings, a UTF-8 BOM, a list-valued supersedes and unknown keys.
func Parse(data []byte) (*Note, error) {
	if len(data) > MaxFile {
		return nil, fmt.Errorf("file is %d bytes, over the %d-byte limit: %w", len(data), MaxFile, ErrTooLarge)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, errors.New("file is not valid UTF-8")
	}
	text := string(data)
	if strings.HasPrefix(text, "---\r\n") {
		// A file saved with CRLF line endings throughout (an editor on
		// Windows). A CR inside the body of an LF file is the body's own
		// text: the reference writes it as given, so it is kept.
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	if !strings.HasPrefix(text, delim) {
		return nil, ErrNoFrontMatter
	}
	rest := text[len(delim):]
	var front, body string
	if strings.HasPrefix(rest, delim) { // empty front-matter
		body = rest[len(delim):]
	} else if i := strings.Index(rest, "\n"+delim); i >= 0 {
		front, body = rest[:i+1], rest[i+1+len(delim):]
	} else if strings.HasSuffix(rest, "\n---") {
		front = rest[:len(rest)-3]
	} else {
		return nil, errors.New("front-matter has no closing ---")
	}
	if len(front) > MaxFrontMatter {
		return nil, fmt.Errorf("front-matter is %d bytes, over the %d-byte limit: %w", len(front), MaxFrontMatter, ErrTooLarge)
	}
	body = strings.TrimSuffix(body, "\n")
	n, ok := parseSimple(front)
	if !ok {
		var err error
		if n, err = parseYAML(front); err != nil {
			return nil, err
		}
	}
	n.Body = body
	if n.ID == "" {
		return nil, errors.New("front-matter has no id")
	}
	if n.Type == "" {
		return nil, errors.New("front-matter has no type")
	}
	// Tags are kept as written (" dup " stays, as the reference keeps it);
	// only exact repeats go, which the reference's index cannot hold.
	n.Tags = UniqueTags(n.Tags)
	return n, nil
}

func defaults() *Note {
	return &Note{Project: Global, MachineID: "unknown", Scope: Portable, ProvSource: ProvHuman,
		Confidence: 1.0, Tags: []string{}, Supersedes: []string{}}
}

// set assigns one known key from its string value(s); it reports false for unknown keys.
func (n *Note) set(key, val string) (bool, error) {
	switch key {
	case "id":
		n.ID = val
	case "type":
		n.Type = val
	case "title":
		n.Title = val
	case "project":
		n.Project = orDefault(val, Global)
	case "machine_id":
		n.MachineID = orDefault(val, "unknown")
	case "scope":
		n.Scope = orDefault(val, Portable)
	case "prov_source":
		n.ProvSource = orDefault(val, ProvHuman)
	case "prov_model":
		n.ProvModel = val
	case "prov_session":
		n.ProvSession = val
	case "author":
		n.Author = val
	case "created_at":
		n.CreatedAt = val
	case "updated_at":
		n.UpdatedAt = val
	case "confidence":
		if val == "" {
			n.Confidence = 1.0
			break
		}
		f, err := yamlNumber(val)
		if err != nil {
			return true, fmt.Errorf("confidence %q is not a number", val)
		}
		n.Confidence = f
	default:
		return false, nil
	}
	return true, nil
}

// yamlNumber reads a confidence as the reference does, float() of what
// PyYAML loads: YAML 1.1's integers (binary, octal as a leading 0, hex,
// base 60, underscores anywhere), then any decimal. Infinities and NaN stay
// refused: no JSON result can carry them, and SQLite stores NaN as NULL.
func yamlNumber(val string) (float64, error) {
	s := strings.ReplaceAll(val, "_", "")
	sign := 1.0
	switch {
	case s == "":
		return 0, strconv.ErrSyntax
	case s[0] == '-':
		sign, s = -1, s[1:]
	case s[0] == '+':
		s = s[1:]
	}
	switch lower := strings.ToLower(s); {
	case strings.HasPrefix(lower, "0b") || strings.HasPrefix(lower, "0x"):
		base := 2
		if lower[1] == 'x' {
			base = 16
		}
		if i, err := strconv.ParseUint(s[2:], base, 64); err == nil && s[1] == lower[1] {
			return sign * float64(i), nil
		}
	case len(s) > 1 && s[0] == '0' && strings.Trim(s, "01234567") == "":
		if i, err := strconv.ParseUint(s[1:], 8, 64); err == nil {
			return sign * float64(i), nil
		}
	case strings.Contains(s, ":") && !strings.Contains(s, "."):
		total := 0.0
		for i, part := range strings.Split(s, ":") {
			d, err := strconv.ParseUint(part, 10, 64)
			if err != nil || part == "" || i > 0 && d > 59 {
				return 0, strconv.ErrSyntax
			}
			total = total*60 + float64(d)
		}
		return sign * total, nil
	}
	f, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, strconv.ErrSyntax
	}
	return f, nil
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// simpleLine splits a "key: value" or "key:" line (key of [a-z_]+), as
// ^([a-z_]+):(?: (.*))?$ would, without a regexp: it runs on every line of
// every note a reindex reads.
func simpleLine(line string) (key, raw string, ok bool) {
	i := 0
	for i < len(line) && (line[i] >= 'a' && line[i] <= 'z' || line[i] == '_') {
		i++
	}
	if i == 0 || i == len(line) || line[i] != ':' {
		return "", "", false
	}
	rest := line[i+1:]
	switch {
	case rest == "":
		return line[:i], "", true
	case rest[0] != ' ' || strings.IndexByte(rest, '\n') >= 0:
		return "", "", false
	}
	return line[:i], rest[1:], true
}

// parseSimple reads the front-matter our writer and the reference writer
// produce without a YAML parser (most files; it makes reindex several times
// faster). Anything it is not sure of is left to parseYAML.
func parseSimple(front string) (*Note, bool) {
	n := defaults()
	var list string // key whose "- item" lines follow
	seen := map[string]bool{}
	for line := range strings.Lines(front) {
		line = strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(line, "- ") && list != "" {
			v, ok := simpleScalar(line[2:])
			if !ok {
				return nil, false
			}
			if list == "tags" {
				n.Tags = append(n.Tags, v)
			} else {
				n.Supersedes = append(n.Supersedes, v)
			}
			continue
		}
		key, raw, ok := simpleLine(line)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		list = ""
		if key == "tags" || key == "supersedes" {
			switch raw {
			case "[]":
			case "":
				list = key
				if key == "supersedes" {
					n.supersedesList = true
				}
			default:
				v, ok := simpleScalar(raw)
				if !ok || key == "tags" {
					return nil, false
				}
				n.Supersedes = []string{v}
			}
			continue
		}
		var v string
		if key == "confidence" {
			v = raw
		} else {
			var ok bool
			if v, ok = simpleScalar(raw); !ok {
				return nil, false
			}
		}
		known, err := n.set(key, v)
		if !known || err != nil {
			return nil, false
		}
	}
	return n, true
}

// simpleScalar decodes a plain or single-quoted scalar that our emitter would
// write back identically; anything else reports false.
func simpleScalar(raw string) (string, bool) {
	if len(raw) >= 2 && raw[0] == '\'' && raw[len(raw)-1] == '\'' {
		inner := raw[1 : len(raw)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", false
		}
		v := strings.ReplaceAll(inner, "''", "'")
		return v, scalar(v) == raw || legacyCR(v, raw)
	}
	return raw, raw != "" && (scalar(raw) == raw || legacyCR(raw, raw))
}

// legacyCR reports whether raw is v as our writer spelled it before it
// escaped carriage returns.
func legacyCR(v, raw string) bool {
	return strings.IndexByte(v, '\r') >= 0 && legacyScalar(v) == raw
}

func parseYAML(front string) (*Note, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		return nil, fmt.Errorf("front-matter is not valid YAML: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("front-matter is not a YAML mapping")
	}
	m := doc.Content[0]
	n := defaults()
	// Nodes of known keys that carry an anchor: known keys are written back
	// without anchors, so an unknown key's alias to one is replaced by a copy.
	anchored := map[*yaml.Node]*yaml.Node{}
	keep := func(k string, v *yaml.Node) {
		n.extra = append(n.extra, extraKey{k, detach(v, anchored)})
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if known, _ := defaults().set(k.Value, ""); known || k.Value == "tags" || k.Value == "supersedes" {
			markAnchors(m.Content[i+1], anchored)
		}
		switch k.Value {
		case "tags", "supersedes":
			items, isList, err := stringList(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", k.Value, err)
			}
			if k.Value == "tags" {
				n.Tags = items
			} else {
				n.Supersedes, n.supersedesList = items, isList
			}
			continue
		}
		// An unknown key keeps its own node: an alias stays an alias (its
		// anchor is written once, where the file had it; following the
		// alias here would write the anchor a second time, and a YAML
		// document with a duplicate anchor does not load in the reference).
		if v.Kind != yaml.ScalarNode {
			if known, _ := n.set(k.Value, ""); known {
				return nil, fmt.Errorf("%s must be a single value", k.Value)
			}
			keep(k.Value, m.Content[i+1])
			continue
		}
		known, err := n.set(k.Value, scalarValue(v))
		if err != nil {
			return nil, err
		}
		if !known {
			keep(k.Value, m.Content[i+1])
		}
	}
	return n, nil
}

// markAnchors records v and its descendants that carry an anchor. Aliases
// are not followed, so the walk is bounded by the front-matter's size.
func markAnchors(v *yaml.Node, into map[*yaml.Node]*yaml.Node) {
	if v.Anchor != "" {
		into[v] = nil
	}
	for _, c := range v.Content {
		markAnchors(c, into)
	}
}

// detach returns v with every alias to an anchored node of a known key
// replaced: the first by an anchored copy of that node, later ones by
// aliases to that copy (extras are written in their original order), so
// nothing is expanded and the output stays as small as the input. v itself
// is not changed.
func detach(v *yaml.Node, anchored map[*yaml.Node]*yaml.Node) *yaml.Node {
	if _, ok := anchored[v]; ok {
		return stand(v, anchored)
	}
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		if _, ok := anchored[v.Alias]; ok {
			return stand(v.Alias, anchored)
		}
	}
	var out *yaml.Node
	for i, c := range v.Content {
		if d := detach(c, anchored); d != c {
			if out == nil {
				cp := *v
				cp.Content = append([]*yaml.Node(nil), v.Content...)
				out = &cp
			}
			out.Content[i] = d
		}
	}
	if out == nil {
		return v
	}
	return out
}

// stand is what an extra holds in place of known node t.
func stand(t *yaml.Node, anchored map[*yaml.Node]*yaml.Node) *yaml.Node {
	if r := anchored[t]; r != nil {
		return &yaml.Node{Kind: yaml.AliasNode, Value: r.Anchor, Alias: r}
	}
	r := plainCopy(t)
	r.Anchor = t.Anchor
	anchored[t] = r
	return r
}

// plainCopy copies a known key's node (a scalar or a list of scalars)
// without anchors.
func plainCopy(v *yaml.Node) *yaml.Node {
	cp := *v
	cp.Anchor = ""
	cp.Content = make([]*yaml.Node, len(v.Content))
	for i, c := range v.Content {
		cp.Content[i] = plainCopy(c)
	}
	return &cp
}

func scalarValue(v *yaml.Node) string {
	if v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

func stringList(v *yaml.Node) ([]string, bool, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if s := scalarValue(v); s != "" {
			return []string{s}, false, nil
		}
		return []string{}, false, nil
	case yaml.SequenceNode:
		out := []string{}
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, true, errors.New("list items must be plain values")
			}
			if s := scalarValue(c); s != "" {
				out = append(out, s)
			}
		}
		return out, true, nil
	}
	return nil, false, errors.New("must be a value or a list")
}

// Marshal renders the note in the reference writer's format.
func (n *Note) Marshal() []byte {
	var b strings.Builder
	b.WriteString(delim)
	kv := func(k, v string) { b.WriteString(k + ": " + v + "\n") }
	kv("id", scalar(n.ID))
	kv("type", scalar(n.Type))
	kv("title", scalar(n.Title))
	kv("project", scalar(n.Project))
	kv("machine_id", scalar(n.MachineID))
	kv("scope", scalar(n.Scope))
	// The newest reference writes its tenant keys here; kept where it puts
	// them, a note it wrote is rewritten byte for byte.
	for _, k := range tenantKeys {
		if e, ok := n.extraKey(k); ok {
			writeExtra(&b, e)
		}
	}
	kv("prov_source", scalar(n.ProvSource))
	kv("confidence", formatFloat(n.Confidence))
	if n.ProvModel != "" {
		kv("prov_model", scalar(n.ProvModel))
	}
	if n.ProvSession != "" {
		kv("prov_session", scalar(n.ProvSession))
	}
	switch {
	case len(n.Supersedes) == 1 && !n.supersedesList:
		kv("supersedes", scalar(n.Supersedes[0]))
	case len(n.Supersedes) > 0:
		writeList(&b, "supersedes", n.Supersedes)
	}
	kv("created_at", scalar(n.CreatedAt))
	kv("updated_at", scalar(n.UpdatedAt))
	writeList(&b, "tags", n.Tags)
	if n.Author != "" {
		kv("author", scalar(n.Author))
	}
	for _, e := range n.extra {
		if !slices.Contains(tenantKeys, e.key) {
			writeExtra(&b, e)
		}
	}
	b.WriteString(delim)
	b.WriteString(n.Body)
	b.WriteString("\n")
	return []byte(b.String())
}

// tenantKeys are the newest reference's keys written right after scope.
var tenantKeys = []string{"user_id", "workspace_id"}

func (n *Note) extraKey(k string) (extraKey, bool) {
	for _, e := range n.extra {
		if e.key == k {
			return e, true
		}
	}
	return extraKey{}, false
}

func writeExtra(b *strings.Builder, e extraKey) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: e.key}, e.value}}
	if enc.Encode(m) == nil && enc.Close() == nil {
		b.Write(buf.Bytes())
	}
}

func writeList(b *strings.Builder, key string, items []string) {
	if len(items) == 0 {
		b.WriteString(key + ": []\n")
		return
	}
	b.WriteString(key + ":\n")
	for _, t := range items {
		b.WriteString("- " + scalar(t) + "\n")
	}
}

// formatFloat is Python's repr as PyYAML's represent_float writes it.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp >= -4 && exp < 16 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	return fmt.Sprintf("%se%s%02d", mant, sign, exp)
}

// Patterns of PyYAML's implicit resolvers: a plain scalar matching one of
// them would load as something other than a string, so it must be quoted.
// Compiled on first use: only writing needs it, and the hooks' start-up
// should not pay for it.
var implicitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:` +
		`yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF` +
		`|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` +
		`|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)` +
		`|~|null|Null|NULL` +
		`|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?` +
		`|<<|=` +
		`)$`)
})

// implicit reports whether a plain s would load as something other than a
// string. Every implicit pattern starts with one of a few bytes; most
// titles and ids do not, and skip the regexp (reindex parses every note).
func implicit(s string) bool {
	if c := s[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		// The only patterns that start with a letter are these words.
		return implicitWords[s]
	}
	if surelyImplicit(s) {
		return true
	}
	return strings.IndexByte("+-.0123456789~<=", s[0]) >= 0 && onlyImplicitBytes(s) && implicitRE().MatchString(s)
}

// implicitBytes holds every byte an implicit pattern can match: digits,
// signs and separators, the hex digits (with 0b and 0x prefixes), the
// exponents, .inf and .nan, and a timestamp's T, t and Z. A scalar with any
// other byte is a string and needs no regexp: a note's id is one (a ULID
// starts with a digit, and nearly always holds a letter such as J, K or Y).
const implicitBytes = "0123456789+-._:~<= \tabcdefxinABCDEFINTtZ"

func onlyImplicitBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(implicitBytes, s[i]) < 0 {
			return false
		}
	}
	return true
}

// implicitWords are the implicit scalars that start with a letter (PyYAML's
// bool and null resolvers).
var implicitWords = map[string]bool{
	"yes": true, "Yes": true, "YES": true, "no": true, "No": true, "NO": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"null": true, "Null": true, "NULL": true,
}

// surelyImplicit recognises, without the regexp, the implicit scalars every
// note holds: its timestamps (2026-01-02T03:04:05.123456+00:00, a date)
// and its confidence (0.85). Reading a note checks them, and a hook that
// reads one should not compile the regexp for that. Each shape it accepts
// is one the regexp matches (tested); anything else goes to the regexp.
func surelyImplicit(s string) bool {
	digits := func(i, n int) bool {
		if i+n > len(s) {
			return false
		}
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	// A decimal float: digits, '.', digits.
	if dot := strings.IndexByte(s, '.'); dot > 0 && digits(0, dot) && digits(dot+1, len(s)-dot-1) {
		return true
	}
	// A date, or a date and time with an optional fraction and offset.
	if len(s) < 10 || !digits(0, 4) || s[4] != '-' || !digits(5, 2) || s[7] != '-' || !digits(8, 2) {
		return false
	}
	if len(s) == 10 {
		return true
	}
	if len(s) < 19 || s[10] != 'T' || !digits(11, 2) || s[13] != ':' || !digits(14, 2) || s[16] != ':' || !digits(17, 2) {
		return false
	}
	i := 19
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	switch rest := s[i:]; {
	case rest == "" || rest == "Z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		return digits(i+1, 2) && digits(i+4, 2)
	}
	return false
}

// scalar renders s as PyYAML's safe_dump(allow_unicode=True) would on one line.
func scalar(s string) string { return emit(s, false) }

// legacyScalar is what our writer made of s before it escaped carriage
// returns: a CR written raw. Reading still takes that spelling (a file an
// earlier version wrote reads as it did); writing never makes it.
func legacyScalar(s string) string { return emit(s, true) }

func emit(s string, rawCR bool) string {
	if s == "" {
		return "''"
	}
	check := s
	if rawCR {
		check = strings.ReplaceAll(s, "\r", " ")
	}
	if !printable(check) || strings.ContainsAny(s, "\n\u0085\u2028\u2029") {
		return doubleQuoted(s)
	}
	if plainOK(s) && !implicit(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// printable is PyYAML's test for a scalar it may write without escapes. A
// carriage return is not one (PyYAML writes "\r"): the reference reads files
// in text mode, where a raw CR is a line break, so a value "x\r---" written
// plain would end the front-matter there.
func printable(s string) bool {
	for _, r := range s {
		switch {
		case r == '\n', r >= 0x20 && r <= 0x7e, r == 0x85,
			r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd && r != 0xfeff, r >= 0x10000 && r <= 0x10ffff:
		default:
			return false
		}
	}
	return true
}

func isSpaceOrEnd(s string, i int) bool {
	return i >= len(s) || strings.ContainsRune("\x00 \t\r\n", rune(s[i]))
}

// plainOK follows PyYAML's analyze_scalar for a block-context plain scalar.
func plainOK(s string) bool {
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || s[0] == '\t' || s[len(s)-1] == '\t' {
		return false
	}
	if strings.ContainsRune("#,[]{}&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	if (s[0] == '?' || s[0] == ':' || s[0] == '-') && isSpaceOrEnd(s, 1) {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ':':
			if isSpaceOrEnd(s, i+1) {
				return false
			}
		case '#':
			if s[i-1] == ' ' || s[i-1] == '\t' {
				return false
			}
		}
	}
	return true
}

func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		case 0xfeff:
			b.WriteString(`\uFEFF`)
		default:
			// U+FFFD is written as is, as PyYAML does ("\xFFFD" would read
			// back as "ÿFD"); so is an invalid byte, which ranging yields as it.
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				fmt.Fprintf(&b, `\x%02X`, r)
			} else if (r >= 0xd800 && r <= 0xdfff) || r == 0xfffe || r == 0xffff {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
