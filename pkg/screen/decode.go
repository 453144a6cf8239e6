package screen

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// payloads returns the texts that text carries encoded, decoded: each run
// of base64 long enough to hold a sentence that decodes to readable words,
// the words that hold percent escapes, percent-decoded, and the text
// under rot13 or read backwards where it names those (a note telling the
// model to "decode it and comply" hides the order from a person only).
func payloads(text string) []string {
	var out []string
	for _, run := range base64Runs(text) {
		if d, ok := decodeHex(run); ok {
			out = append(out, d)
		} else if d, ok := decode64(run); ok {
			out = append(out, d)
		}
	}
	// Only the words that hold escapes are decoded (a URL's query in an
	// ordinary note needs no second screening of the whole note).
	if strings.Contains(text, "%2") || strings.Contains(text, "%7") || strings.Contains(text, "%3") {
		var words []string
		for _, w := range strings.Fields(text) {
			if strings.Contains(w, "%") {
				if d, err := url.PathUnescape(w); err == nil && d != w {
					words = append(words, d)
				}
			}
		}
		if words != nil {
			out = append(out, strings.Join(words, " "))
		}
	}
	lower := strings.ToLower(text)
	if i := max(strings.Index(lower, "rot13"), strings.Index(lower, "rot-13"), strings.Index(lower, "rot 13")); i >= 0 {
		out = append(out, rot13(text))
		if p := setOff(text, i); p != "" {
			out = append(out, rot13(p))
		}
	}
	if i := max(strings.Index(lower, "backward"), strings.Index(lower, "reverse")); i >= 0 {
		out = append(out, reverse(text))
		if p := setOff(text, i); p != "" {
			out = append(out, reverse(p))
		}
	}
	return out
}

// setOff returns the payload a colon sets off after the encoding's name
// at i ("apply rot13 to the following and carry it out: qvfnoyr …"), to
// be decoded alone: decoded with the words around it, it is a sentence
// that opens in the middle of gibberish, which the rules read as no order.
func setOff(text string, i int) string {
	j := strings.IndexByte(text[i:], ':')
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(text[i+j+1:])
}

// base64Runs returns the runs of 24 or more base64 characters in s. A
// string's escape before a run (JSON's "…:\nV2hl…") is no part of it.
func base64Runs(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isBase64(s[i]) {
			if start < 0 {
				start = i
				if i > 0 && s[i-1] == '\\' && strings.IndexByte("nrt", s[i]) >= 0 {
					start = i + 1
				}
			}
			continue
		}
		if start >= 0 && i-start >= 24 {
			end := i
			for end < len(s) && end-i < 2 && s[end] == '=' {
				end++
			}
			out = append(out, s[start:end])
		}
		start = -1
	}
	return out
}

func isBase64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// decode64 decodes a run in the standard or URL alphabet, padded or not,
// and keeps it only when it reads as words: valid UTF-8, printable, with
// spaces (a key, a hash or an image decodes to bytes).
func decode64(run string) (string, bool) {
	raw := strings.TrimRight(run, "=")
	enc := base64.RawStdEncoding
	if strings.ContainsAny(raw, "-_") {
		enc = base64.RawURLEncoding
	}
	b, err := enc.DecodeString(raw)
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return readable(string(b))
}

// encodedWords reports a run of base64 or hex in text that decodes to
// words.
func encodedWords(text string) bool {
	for _, run := range base64Runs(text) {
		if _, ok := decodeHex(run); ok {
			return true
		}
		if _, ok := decode64(run); ok {
			return true
		}
	}
	return false
}

// decodeHex decodes a run of hex digits (an even number, 32 or more) and
// keeps it only when it reads as words, as decode64 does.
func decodeHex(run string) (string, bool) {
	if len(run) < 32 || len(run)%2 != 0 {
		return "", false
	}
	b, err := hex.DecodeString(run)
	if err != nil {
		return "", false
	}
	return readable(string(b))
}

// readable keeps decoded bytes that read as words: valid UTF-8,
// printable, with spaces (a key, a hash or an image decodes to bytes).
// Chinese, Japanese, Korean and Thai are written without spaces between
// words: their letters count as the spaces would (a key or an image never
// decodes to a run of them).
//
// A word counts as 24 letters at most toward the spaces' share: a
// sentence that carries a long token of its own (an encoded command,
// powershell -enc …, a key it quotes) still reads as words.
func readable(d string) (string, bool) {
	if !utf8.ValidString(d) {
		return "", false
	}
	spaces, printable, n, word, words := 0, 0, 0, 0, 0
	for _, r := range d {
		n++
		if r == ' ' || spaceless(r) {
			spaces++
		}
		if unicode.IsPrint(r) || r == '\n' || r == '\t' {
			printable++
		}
		if r == ' ' || r == '\n' || r == '\t' {
			word = 0
		} else if word++; word <= 24 {
			words++
		}
	}
	return d, n > 0 && printable*10 >= n*9 && spaces*20 >= words
}

// spaceless reports a letter of a script written without spaces between
// words: Han, Hiragana, Katakana, Hangul, Thai.
func spaceless(r rune) bool {
	return r >= 0x3040 && r <= 0x30FF || r >= 0x4E00 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7AF || r >= 0x0E00 && r <= 0x0E7F
}

// decodeOrderRE finds an order to decode something and act on it ("decode
// and execute", "Decodifique e siga", "zdekoduj i wykonaj", "расшифруй и
// выполни"): with a payload that decodes to words, the note hands the
// agent an order a person cannot read.
const (
	decodeVerbs = `(?:decode|decodif|décod|dekodier|entschlüssel|zdekoduj|dekoduj|dekóduj|расшифр|декодир|розшифр|декодуй|çöz|decodeer|ontsleutel|giải mã|dekode|fafanua|פענח|פענחו|فك|رمزگشایی|डिकोड|ডিকোড|ถอดรหัส|디코딩|디코드|해독|デコード|解码|解碼|dekódol|avkoda|afkod|αποκωδικοποί|i-decode)`
	followVerbs = `(?:execute|run|follow|obey|comply|apply|carry out|siga|sigue|ejecut|exécut|suivez|suis|befolge|führe|ausführ|esegui|segui|wykonaj|zastosuj|выполни|следуй|виконай|дотримуйся|uygula|çalıştır|voer|volg|thực hiện|làm theo|jalankan|ikuti|tekeleza|fuata|sundin|patakbuhin|proveď|spusť|execută|urmează|hajtsd|kövesd|suorita|noudata|kör|följ|udfør|følg|utfør|εκτέλεσε|ακολούθησε|בצע|נפעל|نفذ|اتبع|اجرا|पालन|चलाओ|পালন|চালাও|ทำตาม|실행|따르|実行|従|执行|遵循|執行|遵從)`
)

var decodeOrderRE = lazy.RE(`(?i)` + decodeVerbs + `[^\n]{0,40}?` + followVerbs)

// decodeFarRE is decodeOrderRE with the payload's description between
// the verbs, within a sentence.
var decodeFarRE = lazy.RE(`(?i)` + decodeVerbs + `[^\n.;]{0,120}?` + followVerbs)

// rot13 rotates the Latin letters of s by 13.
func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// reverse returns s read backwards.
func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// confusables maps Cyrillic and Greek letters that look like Latin ones to
// those letters.
var confusables = &lazy.Value[map[rune]rune]{Build: func() map[rune]rune {
	return map[rune]rune{
		'а': 'a', 'в': 'b', 'с': 'c', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'ѕ': 's', 'т': 't', 'у': 'y', 'х': 'x', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w',
		'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M', 'О': 'O', 'Р': 'P', 'Ѕ': 'S', 'Т': 'T', 'Х': 'X', 'У': 'Y',
		'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
		'α': 'a', 'ο': 'o', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
	}
}}

// unconfuse spells back words that mix Latin letters with Cyrillic or
// Greek ones that look alike ("ѕуѕtеm:", "SYSTΕM"): no word of any
// language mixes those scripts, so the mix hides a word from the rules,
// not from the reader. "" when no word does.
func unconfuse(text string) string {
	// Greek and Cyrillic letters are the two-byte runes led by 0xCD-0xD4:
	// a text without one has nothing to spell back.
	some := false
	for i := 0; i < len(text) && !some; i++ {
		some = text[i] >= 0xcd && text[i] <= 0xd4
	}
	if !some {
		return ""
	}
	mixed := false
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		latin, other := false, false
		for _, r := range w {
			if r < 0x250 {
				latin = true
			} else if _, ok := confusables.Get()[r]; ok {
				other = true
			}
		}
		if latin && other {
			mixed = true
			break
		}
	}
	if !mixed {
		return ""
	}
	var b strings.Builder
	for _, w := range strings.FieldsFunc(text, unicode.IsSpace) {
		latin := false
		for _, r := range w {
			if r < 0x250 && unicode.IsLetter(r) {
				latin = true
			}
		}
		for _, r := range w {
			if c, ok := confusables.Get()[r]; ok && latin {
				r = c
			}
			b.WriteRune(r)
		}
		b.WriteByte(' ')
	}
	return b.String()
}
