package transcript

import (
	"bytes"
	"encoding/binary"
	"strconv"
)

// Most of a transcript's bytes are values Parse never reads: tool result
// bodies, file contents in tool inputs, attachments, API request blobs.
// encoding/json still scans each of them several times (once to validate the
// line, once more for every nested decode). skim walks a line once with a
// byte scanner, validates every value it would drop, and returns the line
// with those values replaced by null (a field Parse does not read) or by a
// placeholder (a tool result's output, read only when the command failed).
// Decoding the shrunken line yields what decoding the whole line would: only
// values no field of rawLine or block reads are dropped, each dropped value is
// checked to be valid JSON first, and anything the scanner is unsure of (a
// key with an escape or a non-ASCII byte, deep nesting, a malformed line)
// makes skim give up so the whole line is decoded as before.

// elideMin is the shortest value worth dropping; shorter lines and values
// are decoded as they are.
const elideMin = 256

// placeholder marks a dropped tool result output; the number after it is the
// index in skimmed.results.
const placeholder = `"\u0000anamnesis-elided:`

// Where a value sits, for deciding which of its fields Parse reads.
const (
	inNone    = iota // read whole: validate, drop nothing
	inTop            // the line's object (rawLine)
	inMessage        // message
	inContent        // message.content
	inBlock          // a block of message.content
	inInput          // a tool_use block's input
	inOther          // message of a line that is not a message: unread
)

// fields read at each place; a key equal to one of them ignoring ASCII case
// is kept (encoding/json matches names that way).
var readFields = map[int][]string{
	inTop:     {"type", "isMeta", "isCompactSummary", "isSidechain", "isApiErrorMessage", "sessionId", "cwd", "gitBranch", "timestamp", "origin", "message"},
	inMessage: {"model", "content"},
	inOther:   {"model"},
	inBlock:   {"type", "text", "name", "id", "input", "tool_use_id", "is_error", "content"},
	inInput:   {"file_path", "notebook_path", "command"},
}

type skimmed struct {
	line    []byte   // the shrunken line, or nil when nothing was dropped
	results [][]byte // dropped tool result outputs, raw JSON
}

type skimmer struct {
	src   []byte
	i     int
	out   []byte
	last  int // src offset copied to out so far
	res   [][]byte
	depth int
	// typ is the raw value of the line's "type" while only one was seen;
	// types counts them.
	typ   []byte
	types int
}

// skim returns the line with unread values dropped; ok is false when the
// line must be decoded whole.
func skim(line []byte) (s skimmed, ok bool) {
	if len(line) < elideMin || bytes.Contains(line, []byte(`\u0000anamnesis-elided:`)) {
		return s, false
	}
	k := &skimmer{src: line}
	k.ws()
	if !k.value(inTop) {
		return s, false
	}
	k.ws()
	if k.i != len(line) {
		return s, false
	}
	if k.out == nil {
		return s, true
	}
	k.out = append(k.out, line[k.last:]...)
	return skimmed{line: k.out, results: k.res}, true
}

func (k *skimmer) ws() {
	for k.i < len(k.src) {
		switch k.src[k.i] {
		case ' ', '\t', '\n', '\r':
			k.i++
		default:
			return
		}
	}
}

// value scans one value at k.i (after whitespace).
func (k *skimmer) value(where int) bool {
	if k.i >= len(k.src) {
		return false
	}
	switch c := k.src[k.i]; {
	case c == '{':
		return k.object(where)
	case c == '[':
		return k.array(where)
	case c == '"':
		_, ok := k.str()
		return ok
	case c == '-' || (c >= '0' && c <= '9'):
		return k.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(k.src[k.i:], []byte(lit)) {
				k.i += len(lit)
				return true
			}
		}
		return false
	}
}

func (k *skimmer) object(where int) bool {
	if k.depth++; k.depth > 200 {
		return false
	}
	defer func() { k.depth-- }()
	k.i++ // {
	k.ws()
	if k.i < len(k.src) && k.src[k.i] == '}' {
		k.i++
		return true
	}
	for {
		if k.i >= len(k.src) || k.src[k.i] != '"' {
			return false
		}
		key, ok := k.str()
		if !ok {
			return false
		}
		k.ws()
		if k.i >= len(k.src) || k.src[k.i] != ':' {
			return false
		}
		k.i++
		k.ws()
		if !k.field(where, key) {
			return false
		}
		if more, ok := k.next('}'); !more {
			return ok
		}
	}
}

// field scans the value of key (its raw bytes, quotes included) in an
// object at where, dropping it when Parse does not read it.
func (k *skimmer) field(where int, key []byte) bool {
	fields, known := readFields[where]
	if !known {
		return k.value(inNone)
	}
	name := key[1 : len(key)-1]
	for _, c := range name {
		if c == '\\' || c >= 0x80 {
			return false // leave escaped and non-ASCII names to encoding/json
		}
	}
	read := ""
	for _, f := range fields {
		if bytes.EqualFold(name, []byte(f)) {
			read = f
			break
		}
	}
	next := inNone
	if where == inTop && read == "type" {
		if k.types++; k.types > 1 {
			return false // a repeated type: leave it to encoding/json
		}
		start := k.i
		if !k.value(inNone) {
			return false
		}
		k.typ = k.src[start:k.i]
		return true
	}
	switch {
	case where == inTop && read == "message" && k.types == 1 && notMessage(k.typ):
		// Parse reads only a user or assistant line's message; the
		// content of any other line's is dropped whole.
		next = inOther
	case where == inTop && read == "message":
		next = inMessage
	case where == inMessage && read == "content":
		next = inContent
	case where == inBlock && read == "input":
		next = inInput
	case where == inBlock && read == "content", read == "":
		start := k.i
		if !k.value(inNone) {
			return false
		}
		if k.i-start >= elideMin {
			k.out = append(k.out, k.src[k.last:start]...)
			if read == "" {
				k.out = append(k.out, "null"...)
			} else {
				k.out = append(k.out, placeholder...)
				k.out = strconv.AppendInt(k.out, int64(len(k.res)), 10)
				k.out = append(k.out, '"')
				k.res = append(k.res, k.src[start:k.i])
			}
			k.last = k.i
		}
		return true
	}
	return k.value(next)
}

func (k *skimmer) array(where int) bool {
	if k.depth++; k.depth > 200 {
		return false
	}
	defer func() { k.depth-- }()
	elem := inNone
	if where == inContent {
		elem = inBlock
	}
	k.i++ // [
	k.ws()
	if k.i < len(k.src) && k.src[k.i] == ']' {
		k.i++
		return true
	}
	for {
		if !k.value(elem) {
			return false
		}
		if more, ok := k.next(']'); !more {
			return ok
		}
	}
}

// next reads what follows a member or an element: a comma (more follow)
// or close, which ends the object or array (ok: neither is malformed).
func (k *skimmer) next(close byte) (more, ok bool) {
	k.ws()
	if k.i >= len(k.src) {
		return false, false
	}
	switch k.src[k.i] {
	case ',':
		k.i++
		k.ws()
		return true, true
	case close:
		k.i++
		return false, true
	}
	return false, false
}

// str scans a string and returns its raw bytes, quotes included. It accepts
// what encoding/json accepts: no raw control bytes, only JSON escapes
// (invalid UTF-8 is allowed; the decoder replaces it).
func (k *skimmer) str() ([]byte, bool) {
	start := k.i
	k.i++
	for k.i < len(k.src) {
		for k.i+8 <= len(k.src) && plainWord(binary.LittleEndian.Uint64(k.src[k.i:])) {
			k.i += 8
		}
		if k.i >= len(k.src) {
			break
		}
		c := k.src[k.i]
		if plain[c] {
			k.i++
			continue
		}
		switch {
		case c == '"':
			k.i++
			return k.src[start:k.i], true
		case c == '\\':
			if k.i+1 >= len(k.src) {
				return nil, false
			}
			switch k.src[k.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				k.i += 2
			case 'u':
				if k.i+6 > len(k.src) {
					return nil, false
				}
				for _, h := range k.src[k.i+2 : k.i+6] {
					if !isHex(h) {
						return nil, false
					}
				}
				k.i += 6
			default:
				return nil, false
			}
		case c < 0x20:
			return nil, false
		default:
			k.i++
		}
	}
	return nil, false
}

// plain marks the bytes a JSON string holds as they are: not a quote, a
// backslash or a control byte (a table lookup per byte instead of str's
// comparisons: most of a transcript's bytes are inside strings).
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// plainWord reports whether all eight bytes of x are plain (see plain),
// with the bit tricks that test every byte of a word at once: most of a
// transcript's bytes are inside long strings.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	zero := func(v uint64) uint64 { return (v - ones) &^ v }
	return (zero(quote)|zero(backslash)|(x-ones*0x20)&^x)&highs == 0
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number scans a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (k *skimmer) number() bool {
	s, i := k.src, k.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	k.i = i
	return true
}

// notMessage reports a raw type value that is plainly neither "user" nor
// "assistant".
func notMessage(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return false
	}
	t := string(raw[1 : len(raw)-1])
	return t != "user" && t != "assistant"
}

// result returns the raw output a placeholder stands for, or raw itself.
func (s *skimmed) result(raw []byte) []byte {
	if !bytes.HasPrefix(raw, []byte(placeholder)) || len(raw) < len(placeholder)+2 {
		return raw
	}
	n, err := strconv.Atoi(string(raw[len(placeholder) : len(raw)-1]))
	if err != nil || n < 0 || n >= len(s.results) {
		return raw
	}
	return s.results[n]
}
