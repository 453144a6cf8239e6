package redact

import (
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// standIn reports a value whose words all name the field it fills or say
// it is not the secret: a template's "myPassword" beside "myUsername"
// (connectionstrings.com's Password=myPassword; yourPassword, mySecretKey,
// meinPasswort), or a test's deliberately wrong password ("wrong",
// "incorrect", "wrongpassword", "bad-pass", "falsch", "notthepassword").
// The words are read whole, split at '-', '_', '.', a case hump or, run
// together in one case, by the word list itself; a digit or a symbol
// makes the value a made one (a password "wrongPass1!" is removed).
// Either a word of wrongness or a possessive or article then a field's
// word must be there, so a value of field words alone ("passwordkey")
// is left to the rules.
func standIn(v string) bool {
	if len(v) < 3 || len(v) > 40 {
		return false
	}
	for _, r := range v {
		if !unicode.IsLetter(r) && r != '-' && r != '_' && r != '.' {
			return false
		}
	}
	var words []string
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		for _, hump := range humps(part) {
			seg, ok := segment(strings.ToLower(hump))
			if !ok {
				return false
			}
			words = append(words, seg...)
		}
	}
	for i, w := range words {
		if standInWords.Get()[w] == wrongWord || standInWords.Get()[w] == ownerWord && i+1 < len(words) && standInWords.Get()[words[i+1]] == fieldWord {
			return true
		}
	}
	return false
}

// humps splits a word at its case humps: myServerAddress -> my, Server,
// Address; a run of capitals stays one part (myAPIKey -> my, API, Key).
func humps(s string) []string {
	rs := []rune(s)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// segment splits a word written in one case into stand-in words, the
// longest first ("wrongpassword" -> wrong, password); ok is false when
// some part is no such word.
func segment(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	for n := min(len(s), 16); n > 0; n-- {
		if standInWords.Get()[s[:n]] == 0 {
			continue
		}
		if rest, ok := segment(s[n:]); ok {
			return append([]string{s[:n]}, rest...), true
		}
	}
	return nil, false
}

const (
	fieldWord = iota + 1
	ownerWord
	wrongWord
)

// standInWords: the words that name a field (a credential's, or one a
// template sets beside it), the possessives and articles a template puts
// before them, and the words that say a value is wrong, in the languages
// the rules read passwords in.
var standInWords = &lazy.Value[map[string]int]{Build: func() map[string]int {
	return map[string]int{
		"password": fieldWord, "passwd": fieldWord, "pass": fieldWord, "pwd": fieldWord, "pw": fieldWord, "secret": fieldWord, "key": fieldWord, "token": fieldWord,
		"api": fieldWord, "apikey": fieldWord, "access": fieldWord, "passphrase": fieldWord, "phrase": fieldWord, "pin": fieldWord, "credential": fieldWord, "credentials": fieldWord,
		"user": fieldWord, "username": fieldWord, "login": fieldWord, "name": fieldWord, "server": fieldWord, "address": fieldWord, "host": fieldWord, "database": fieldWord,
		"data": fieldWord, "base": fieldWord, "db": fieldWord, "account": fieldWord, "client": fieldWord, "id": fieldWord, "value": fieldWord, "auth": fieldWord,
		"passwort": fieldWord, "kennwort": fieldWord, "contrasena": fieldWord, "contraseña": fieldWord, "clave": fieldWord, "senha": fieldWord, "motdepasse": fieldWord,
		"wachtwoord": fieldWord, "losenord": fieldWord, "haslo": fieldWord, "hasło": fieldWord, "parola": fieldWord, "salasana": fieldWord, "geheim": fieldWord,
		"my": ownerWord, "your": ownerWord, "our": ownerWord, "the": ownerWord, "some": ownerWord, "a": ownerWord, "an": ownerWord, "mein": ownerWord, "meine": ownerWord,
		"dein": ownerWord, "ihr": ownerWord, "mon": ownerWord, "votre": ownerWord, "ton": ownerWord, "tu": ownerWord, "su": ownerWord, "mi": ownerWord, "sua": ownerWord, "minha": ownerWord,
		"wrong": wrongWord, "incorrect": wrongWord, "invalid": wrongWord, "bad": wrongWord, "bogus": wrongWord, "nope": wrongWord, "not": wrongWord, "mismatch": wrongWord,
		"expired": wrongWord, "revoked": wrongWord, "unknown": wrongWord, "falsch": wrongWord, "faux": wrongWord, "fausse": wrongWord, "mauvais": wrongWord,
		"incorrecto": wrongWord, "incorrecta": wrongWord, "errado": wrongWord, "errada": wrongWord, "errata": wrongWord, "sbagliato": wrongWord, "sbagliata": wrongWord,
		"fout": wrongWord, "onjuist": wrongWord, "fel": wrongWord, "zly": wrongWord, "złe": wrongWord, "neverny": wrongWord, "неверный": wrongWord, "неправильный": wrongWord,
		"yanlis": wrongWord, "yanlış": wrongWord, "väärä": wrongWord,
	}
}}

// pastSpan reports a match that begins inside an inline code span and
// whose removed value lies after the span's closing backtick: the command
// ended there, and the word after it is the prose's ("Run `vault login
// -method=oidc` first, then …"). A generated value after the span is
// still removed.
func pastSpan(s string, start int, match, cut string) bool {
	k := strings.Index(match, cut)
	if k <= 0 || strings.IndexByte(match[:k], '`') < 0 {
		return false
	}
	ls := strings.LastIndexByte(s[:start], '\n') + 1
	if strings.Count(s[ls:start], "`")%2 == 0 || strings.Count(match[:k], "`")%2 == 0 {
		return false
	}
	return !generated(strings.Trim(cut, ` \t"',;`))
}

// bracketed reports a value holding an angle-bracketed placeholder: a
// name or words between '<' and '>' (<password>, <your token here>,
// <user:pass>). A generated value may hold both brackets among its
// symbols (WordPress's salts: "…}<cNZv,n,Dw8r+|.z2>…"); what lies between
// them there is no name.
func bracketed(l string) bool {
	for {
		i := strings.IndexByte(l, '<')
		if i < 0 {
			return false
		}
		l = l[i+1:]
		j := strings.IndexByte(l, '>')
		if j < 0 {
			return false
		}
		// A name holds a letter: <4> among a token's symbols is none.
		if inner := l[:j]; inner != "" && strings.Trim(inner, "abcdefghijklmnopqrstuvwxyz0123456789 _-.:/@") == "" && strings.Trim(inner, "0123456789") != "" {
			return true
		}
	}
}

// regexTail reports a value that is the rest of a regular expression after
// the key it names: "(password=)[^&\s]+" gives ")[^&\s]+", a group's close
// then a class, a quantifier or an escape; a negated class ("[^&]+")
// anywhere. Neither is made: the pattern finds secrets, it holds none.
func regexTail(v string) bool {
	if strings.Contains(v, "[^") {
		return true
	}
	return len(v) >= 2 && v[0] == ')' && strings.IndexByte(`[(?*+{|\.`, v[1]) >= 0
}
