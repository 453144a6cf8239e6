// Package mnemonic finds BIP39 mnemonics (wallet seed phrases) in text by
// their checksum, with no naming word needed: 12, 15, 18, 21 or 24 words of
// one BIP39 wordlist whose last word carries the first n/3 bits of the
// SHA-256 of the entropy the words encode.
//
// The wordlists (words/*.txt, from the bip39 npm package 3.1.0, ISC; see
// third_party/bip39) are embedded and read only when a text holds a run of
// twelve or more tokens that could be words of one list, so a text without
// such a run costs one pass over its bytes and nothing else.
//
// Prose stays intact by structure: every token of the run must be a word of
// the list (BIP39's Latin lists have no word under three letters, so "a",
// "to", "of", "is" end a run of prose), no token may be glued to a digit
// ("word1 word2 … word12" is a placeholder), and the checksum must pass. A
// run of list words passes the checksum by chance with probability 2^-(n/3)
// for each order tried (1 in 16 for twelve words, 1 in 256 for twenty-four).
package mnemonic

import (
	"crypto/sha256"
	"embed"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:embed words/*.txt
var files embed.FS

// script is the writing system of a token, which decides the lists that
// may hold it.
type script uint8

const (
	none script = iota
	latin
	han
	kana
	hangul
)

// lists names the wordlists of each script, in words/NAME.txt.
var lists = map[script][]string{
	latin:  {"english", "french", "italian", "spanish", "portuguese", "czech"},
	han:    {"chinese_simplified", "chinese_traditional"},
	kana:   {"japanese"},
	hangul: {"korean"},
}

// fold returns a word as the lists are keyed: French and Spanish accents
// dropped (each list stays unique without them, and notes write them
// composed, decomposed or not at all), and Japanese voicing marks and
// Korean letters written apart (NFD) composed.
func fold(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return w
	}
	out := make([]rune, 0, len(w))
	for _, r := range w {
		n := len(out)
		switch {
		case r >= 0x300 && r <= 0x36f:
			continue // a Latin accent, decomposed
		case (r == 0x3099 || r == 0x309a) && n > 0:
			out[n-1] += r - 0x3098 // a voicing mark: が is か+1, ぱ is は+2
			continue
		case r >= 0x1161 && r <= 0x1175 && n > 0 && out[n-1] >= 0x1100 && out[n-1] <= 0x1112:
			out[n-1] = 0xac00 + ((out[n-1]-0x1100)*21+r-0x1161)*28 // a syllable's vowel
			continue
		case r >= 0x11a8 && r <= 0x11c2 && n > 0 && out[n-1] >= 0xac00 && out[n-1] <= 0xd7a3 && (out[n-1]-0xac00)%28 == 0:
			out[n-1] += r - 0x11a7 // its final consonant
			continue
		}
		if i := strings.IndexRune(accented, r); i >= 0 {
			r = rune(plain[utf8.RuneCountInString(accented[:i])])
		}
		out = append(out, r)
	}
	return string(out)
}

// latin1 is the letter of each of Latin-1's small letters from à (0xe0)
// to ü (0xfc) that fold drops the accent of ('-': none of them), for
// latinKey.
const latin1 = "aaaaa---eeeeiiii-nooooo--uuuu"

// accented and plain pair the accented letters of the Latin lists with
// their letters.
const (
	accented = "àáâãäèéêëìíîïñòóôõöùúûü"
	plain    = "aaaaaeeeeiiiinooooouuuu"
)

// wordlist maps each word of one list (NFC, lower case) to its index.
type wordlist map[string]uint16

// loaded holds each list, read from the embedded file on its first use.
// It is built once per process and never changed after, so sharing it is
// not mutable global state.
var loaded = sync.OnceValue(func() map[string]func() wordlist {
	m := map[string]func() wordlist{}
	for _, names := range lists {
		for _, name := range names {
			m[name] = sync.OnceValue(func() wordlist { return load(name) })
		}
	}
	return m
})

// latinWords holds each word of the Latin lists once, by latinKey, with a
// bit for each list that holds it (bit i: lists[latin][i]) in its low
// byte, sorted (latinBits looks a word up). A run of candidate tokens in
// Latin script is read against it once, so that only stretches of twelve
// or more words of one list are read again and checked list by list:
// English prose has many runs of twelve words of three to nine letters and
// few of list words. A sorted slice, where a map took a millisecond or two
// of the first process-wide use to build.
var latinWords = sync.OnceValue(latinWordsBuild)

func latinWordsBuild() []uint64 {
	var out []uint64
	for i, name := range lists[latin] {
		list := make([]uint64, 0, 2048)
		for line := range strings.Lines(wordFile(name)) {
			if k, ok := latinKey(strings.TrimSpace(line)); ok {
				list = append(list, k<<8|1<<i)
			}
		}
		slices.Sort(list) // each list is in its language's order, nearly this one
		out = merge(out, list)
	}
	return out
}

// merge merges two sorted runs of latinWords' entries, a word in both
// with the bits of both.
func merge(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch x, y := a[0]>>8, b[0]>>8; {
		case x < y:
			out, a = append(out, a[0]), a[1:]
		case x > y:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]|b[0]), a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// latinBits returns the lists (bits as in latinWords) that hold the word
// keyed k.
func latinBits(words []uint64, k uint64) uint8 {
	i, _ := slices.BinarySearch(words, k<<8)
	if i < len(words) && words[i]>>8 == k {
		return uint8(words[i])
	}
	return 0
}

// latinKey packs a word of the Latin lists, folded as fold does and in
// lower case, into a number: five bits a letter, the first letter highest,
// so that keys sort as their words do. Every word of those lists is at
// most nine letters of a-z once folded; ok is false for anything else,
// which no list holds.
func latinKey(w string) (k uint64, ok bool) {
	n := 0
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		case r >= 0x300 && r <= 0x36f:
			continue // a Latin accent, decomposed
		case r >= 0xc0 && r <= 0xdc && r != 0xd7:
			r += 0x20 // upper case, in Latin-1
			fallthrough
		case r >= 0xe0 && r <= 0xfc:
			if r = rune(latin1[r-0xe0]); r == '-' {
				return 0, false
			}
		default:
			return 0, false
		}
		if n == 9 {
			return 0, false
		}
		k |= uint64(r-'a'+1) << (5 * (8 - n))
		n++
	}
	return k, n > 0
}

// wordFile is a list's file: its words in order, one a line.
func wordFile(name string) string {
	b, err := files.ReadFile("words/" + name + ".txt")
	if err != nil {
		panic("mnemonic: missing wordlist " + name) // embedded: cannot happen
	}
	return string(b)
}

// words is a list's words, in order.
func words(name string) []string {
	return strings.Split(strings.TrimSpace(wordFile(name)), "\n")
}

func load(name string) wordlist {
	ws := words(name)
	w := make(wordlist, len(ws))
	for i, x := range ws {
		w[fold(x)] = uint16(i)
	}
	return w
}

// token is one run of letters in the text.
type token struct {
	start, end int    // byte span in the text
	word       string // lower-cased
	script     script // none: not a candidate word
	line       int    // line number, for grids
	num        int    // the number written just before it ("7. word"), or 0
}

// reach is how many more list words than a mnemonic's a run may hold.
const reach = 3

// sizes are the mnemonic lengths BIP39 defines, longest first.
var sizes = []int{24, 21, 18, 15, 12}

// Find returns the byte spans of the mnemonics in s, each from its first
// word's start to its last word's end, in order.
func Find(s string) [][2]int {
	var out [][2]int
	runs(s, func(run []token) {
		for i := range run {
			run[i].word = fold(strings.ToLower(s[run[i].start:run[i].end]))
		}
		named := seedNamed(s, run)
		for _, sp := range inRun(run, run[0].script, named) {
			if !longerList(s, run, sp) {
				out = append(out, sp)
			}
		}
	})
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

// longerList reports a span of comma-separated words that goes on, before
// or after, with one more item of the same list: a list of words (a word
// cloud's top terms) whose first twelve passed the checksum by chance,
// not a mnemonic, which is written whole.
func longerList(s string, run []token, sp [2]int) bool {
	first := slices.IndexFunc(run, func(t token) bool { return t.start == sp[0] })
	if first < 0 || first+1 >= len(run) || !strings.Contains(s[run[first].end:run[first+1].start], ",") {
		return false
	}
	for i, t := range run {
		if t.end == sp[1] && i+1 < len(run) && strings.TrimSpace(s[t.end:run[i+1].start]) == "," {
			return true
		}
	}
	return first > 0 && strings.TrimSpace(s[run[first-1].end:sp[0]]) == ","
}

// inRun finds mnemonics in a run of candidate tokens of one script: each
// list's sub-runs of its own words, tried at the run's ends.
func inRun(run []token, c script, named bool) [][2]int {
	var out [][2]int
	for _, name := range lists[c] {
		wl := loaded()[name]()
		for i := 0; i < len(run); {
			j := i
			for j < len(run) {
				if _, ok := wl[run[j].word]; !ok {
					break
				}
				j++
			}
			out = append(out, inWords(run[i:j], wl, named)...)
			i = j + 1
		}
		if len(out) > 0 {
			return out
		}
	}
	return out
}

// inWords finds a mnemonic in a run of words all in wl: of the longest
// length the run holds, at most reach words shorter than the run (a few
// list words may stand next to a phrase: "seed", "wallet", "end"), each
// window of that length. Only one length is tried, and only near the run's
// ends, since each window tried is one more chance for a run of list words
// to pass the checksum by chance.
//
// A run the text names as a seed phrase (named: "recovery words are …",
// « phrase de récupération », ethers' fromPhrase("…")) is one whatever
// its checksum, as a numbered backup layout is: a phrase copied with a
// slip, or made by a wallet that is not BIP39's, is still one. The whole
// run is taken, since the words the name stands beside may include a few
// of the list's ("please keep") and the phrase is somewhere among them;
// the name's own words that are the list's ("seed phrase:") are not.
func inWords(run []token, wl wordlist, named bool) [][2]int {
	for _, n := range sizes {
		if n > len(run) {
			continue
		}
		if len(run)-n > reach {
			return nil
		}
		for at := 0; at <= len(run)-n; at++ {
			if w := run[at : at+n]; valid(w, wl) {
				return [][2]int{{w[0].start, w[n-1].end}}
			}
		}
		if named {
			k := 0
			for k < len(run) && labelWords[run[k].word] {
				k++
			}
			if len(run)-k >= sizes[len(sizes)-1] {
				return [][2]int{{run[k].start, run[len(run)-1].end}}
			}
		}
		return nil
	}
	return nil
}

// seedNames are the words, in the languages of BIP39's lists and a few
// more, that name a seed phrase (matched lower-cased within the text
// before a run, on its line). Each names the phrase itself, not a word
// list: "words" alone, "list" or "lyrics" is none.
var seedNames = []string{
	"seed", "mnemonic", "recovery phrase", "recovery words", "recovery key", "backup phrase",
	"backup words", "secret phrase", "secret recovery", "passphrase", "wallet words", "wallet phrase",
	"frombip39", "fromphrase", "frommnemonic", "mnemonictoseed", "mnemonictoentropy",
	// A command or a call that derives a wallet's keys from the phrase
	// given to it (cast wallet derive-private-key "…", deriveKey,
	// solana-keygen recover) names it by what it makes.
	"derive", "private-key", "private key", "privatekey", "privkey", "keygen recover", "wallet import", "wallet recover", "wallet restore",
	"récupération", "mnémonique", "phrase secrète", "phrase de passe", // French
	"frase semilla", "frase de recuperación", "frase de recuperação", "frase secreta", "semente", // Spanish, Portuguese
	"frase di recupero", "frase segreta", "parole di recupero", // Italian
	"wiederherstellung", "seed-phrase", "geheimphrase", // German
	"herstelzin", "herstelwoorden", // Dutch
	"fráze pro obnovení", "obnovovací fráze", "fraza odzyskiwania", "słowa odzyskiwania", // Czech, Polish
	"сид-фраз", "сид фраз", "мнемоническ", "фраза восстановления", "фраза відновлення", // Russian, Ukrainian
	"kurtarma ifadesi", "kurtarma kelime", "cụm từ khôi phục", "frasa pemulihan", // Turkish, Vietnamese, Indonesian
	"助记词", "助記詞", "恢复短语", "恢復短語", "シードフレーズ", "ニーモニック", "リカバリーフレーズ", "復元フレーズ",
	"시드 구문", "시드", "복구 구문", "니모닉",
}

// labelWords are the words a name for a seed phrase is made of, most of
// them the list's ("derive-private-key" before the phrase it is given).
var labelWords = map[string]bool{"seed": true, "phrase": true, "secret": true, "wallet": true, "recovery": true, "backup": true, "key": true, "word": true, "derive": true, "private": true}

// notSeed are the words that call a phrase a test's or a document's: a
// phrase named invalid, bad or fake is a fixture a wallet must reject.
var notSeed = []string{"invalid", "bad", "wrong", "fake", "negative", "mismatch", "not a", "example", "dummy", "sample", "test", "placeholder"}

// walletTest takes out the "test" that qualifies a wallet or a network.
var walletTest = strings.NewReplacer("test wallet", "wallet", "testnet", "network", "test account", "account")

// seedNamed reports whether the text before run's first word, on its
// line and a little before, or its first words (the list's own "seed
// phrase:"), name a seed phrase, and none of it calls the phrase a
// fixture.
func seedNamed(s string, run []token) bool {
	k := 0
	for k < len(run)-1 && labelWords[run[k].word] {
		k++
	}
	to := run[k].start
	from := max(strings.LastIndexByte(s[:run[0].start], '\n')+1, run[0].start-96)
	for from < to && !utf8.RuneStart(s[from]) {
		from++
	}
	// A test wallet or a testnet's is a wallet all the same: its phrase
	// holds what was sent to it ("the test wallet seed is …").
	head := walletTest.Replace(strings.ToLower(s[from:to]))
	for _, w := range notSeed {
		if strings.Contains(head, w) {
			return false
		}
	}
	for _, w := range seedNames {
		if strings.Contains(head, w) {
			return true
		}
	}
	return false
}

// valid reports whether the words check out in one of the orders they may
// be written in: as read, by the numbers written before them, or down the
// columns of a grid of equal rows.
func valid(w []token, wl wordlist) bool {
	idx := make([]uint16, len(w))
	for i, t := range w {
		idx[i] = wl[t.word]
	}
	if checksum(idx) {
		return true
	}
	if ord, ok := numbered(w); ok {
		for i, k := range ord {
			idx[i] = wl[w[k].word]
		}
		if checksum(idx) {
			return true
		}
	}
	if rows, cols := grid(w); rows > 1 && cols > 1 {
		k := 0
		for c := range cols {
			for r := range rows {
				idx[k] = wl[w[r*cols+c].word]
				k++
			}
		}
		if checksum(idx) {
			return true
		}
	}
	return backupLayout(w)
}

// backupLayout reports words of one list laid out as a wallet shows a
// phrase to back up: numbered 1..n in order, of any BIP39 length, one to
// a line or on one line ("1) cannon 2) old … 18) hand"), or twelve or
// twenty-four in a grid of three or more lines of equal length. The
// layout itself says seed phrase, so its checksum is not asked: a phrase
// copied with a slip, or a wallet's that is not BIP39's, is still one.
// Prose and word lists are neither numbered 1..n nor a grid of list words
// only.
func backupLayout(w []token) bool {
	inOrder := true
	for i, t := range w {
		if t.num != i+1 {
			inOrder = false
			break
		}
	}
	if inOrder {
		return true
	}
	if n := len(w); n != 12 && n != 24 {
		return false
	}
	rows, cols := grid(w)
	return rows >= 3 && cols >= 3
}

// numbered returns the order the numbers before the words give, when they
// number them 1..n.
func numbered(w []token) ([]int, bool) {
	ord := make([]int, len(w))
	seen := make([]bool, len(w))
	for i, t := range w {
		if t.num < 1 || t.num > len(w) || seen[t.num-1] {
			return nil, false
		}
		seen[t.num-1] = true
		ord[t.num-1] = i
	}
	return ord, true
}

// grid returns the rows and columns of words laid out on lines of equal
// length, or 0, 0.
func grid(w []token) (int, int) {
	cols := 0
	for i := 0; i < len(w) && w[i].line == w[0].line; i++ {
		cols++
	}
	if cols == 0 || len(w)%cols != 0 {
		return 0, 0
	}
	rows := len(w) / cols
	for r := range rows {
		for c := range cols {
			if w[r*cols+c].line != w[r*cols].line || r > 0 && w[r*cols].line == w[(r-1)*cols].line {
				return 0, 0
			}
		}
	}
	return rows, cols
}

// checksum reports whether the 11-bit indices carry their entropy's
// SHA-256 checksum in their last n/3 bits.
func checksum(idx []uint16) bool {
	n := len(idx)
	bits := n * 11
	cs := n / 3
	ent := bits - cs
	buf := make([]byte, (bits+7)/8)
	for i, v := range idx {
		for b := range 11 {
			if v&(1<<(10-b)) != 0 {
				p := i*11 + b
				buf[p/8] |= 0x80 >> (p % 8)
			}
		}
	}
	// Entropy of one byte repeated is BIP39's published test vectors
	// ("abandon … about", "legal winner … yellow", "zoo … wrong"),
	// quoted in documentation; no wallet was made from it.
	e := buf[:ent/8]
	if strings.Count(string(e), string(e[:1])) == len(e) {
		return false
	}
	sum := sha256.Sum256(e)
	// The checksum bits start at bit ent, a byte boundary; cs <= 8.
	got := buf[ent/8] >> (8 - cs)
	return got == sum[0]>>(8-cs)
}

// runs calls fn with each run of twelve or more tokens of s that may be
// words of one script's lists. A first pass only counts such tokens (most
// texts have no run of twelve, and it keeps nothing); a run it finds is
// read again for its tokens' lines and numbers.
func runs(s string, fn func([]token)) {
	reread := func(from, to int) {
		// Read again from a little before the first word, where its
		// number stands ("24. word"), within its line.
		lo := max(strings.LastIndexByte(s[:from], '\n')+1, from-16)
		for lo < from && !utf8.RuneStart(s[lo]) {
			lo++
		}
		var run []token
		scan(s, lo, to, nil, &run)
		for len(run) > 0 && run[0].start < from {
			run = run[1:]
		}
		if len(run) >= 12 {
			fn(run)
		}
	}
	scan(s, 0, len(s), func(from, to int, sc script) {
		if sc == latin {
			listed(s, from, to, reread)
			return
		}
		reread(from, to)
	}, nil)
}

// listed calls fn with each stretch of s[from:to] (a run of Latin
// candidate tokens) holding twelve or more consecutive words of one list,
// stretches that overlap merged: the words inRun reads there are the
// same as in the whole run, since a mnemonic lies within twelve or more
// consecutive words of its list.
func listed(s string, from, to int, fn func(from, to int)) {
	m := latinWords()
	var count [8]int // consecutive tokens so far in each list
	var start [8]int // where each list's stretch began
	lo, hi := -1, -1 // the stretch to report, merged
	for i := from; i < to; {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if !letter(r) {
			i += size
			continue
		}
		j := i
		for j < to {
			c := rune(s[j])
			n := 1
			if c >= utf8.RuneSelf {
				c, n = utf8.DecodeRuneInString(s[j:])
			}
			if !letter(c) {
				break
			}
			j += n
		}
		var bits uint8
		if k, ok := latinKey(s[i:j]); ok {
			bits = latinBits(m, k)
		}
		for l := range count {
			if bits&(1<<l) == 0 {
				count[l] = 0
				continue
			}
			if count[l] == 0 {
				start[l] = i
			}
			if count[l]++; count[l] >= 12 {
				if lo >= 0 && start[l] > hi {
					fn(lo, hi)
					lo = -1
				}
				if lo < 0 || start[l] < lo {
					lo = start[l]
				}
				hi = max(hi, j)
			}
		}
		i = j
	}
	if lo >= 0 {
		fn(lo, hi)
	}
}

// scan reads s[i:end]'s tokens. With found set, it calls found with the
// span of each run of twelve or more candidate tokens of one script; with
// out set, it appends every candidate token it reads.
func scan(s string, i, end int, found func(from, to int, sc script), out *[]token) {
	count, from, to := 0, 0, 0
	var script script
	line := 0
	num, numEnd := 0, -1 // the last number read and where it ended
	for i < end {
		c := s[i]
		if c < utf8.RuneSelf && !isASCIILetter(c) {
			switch {
			case c == '\n':
				line++
			case c >= '0' && c <= '9':
				j := i
				n := 0
				for j < end && s[j] >= '0' && s[j] <= '9' {
					if n < 1000 {
						n = n*10 + int(s[j]-'0')
					}
					j++
				}
				num, numEnd = n, j
				i = j
				continue
			}
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			if r, size := utf8.DecodeRuneInString(s[i:]); !letter(r) {
				if unicode.IsDigit(r) {
					num, numEnd = 0, -1
				}
				i += size
				continue
			}
		}
		// A run of letters: ASCII ones read byte by byte, the rest by rune.
		j := i
		for j < end && isASCIILetter(s[j]) {
			j++
		}
		runes := j - i
		sc := none
		if runes > 0 {
			sc = latin
		}
		mixed := false
		for wide := false; j < end && (wide || s[j] >= utf8.RuneSelf); wide = true {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !letter(r) {
				break
			}
			if k := scriptOf(r); k != none && !unicode.Is(unicode.Mn, r) {
				if sc == none {
					sc = k
				} else if sc != k {
					mixed = true
				}
			}
			if !unicode.Is(unicode.Mn, r) && (r < 0x1161 || r > 0x11ff) {
				runes++ // a letter, not its accent or a syllable's vowel
			}
			j += size
		}
		ok := numEnd != i && (j == len(s) || s[j] < '0' || s[j] > '9') && !mixed && fits(sc, runes)
		if !ok || count > 0 && script != sc {
			if count >= 12 && found != nil {
				found(from, to, script)
			}
			count = 0
		}
		if ok {
			if count == 0 {
				from, script = i, sc
			}
			count++
			to = j
			if out != nil {
				t := token{start: i, end: j, line: line, script: sc}
				if numEnd >= 0 && numbering(s[numEnd:i]) {
					t.num = num
				}
				*out = append(*out, t)
			}
		}
		num, numEnd = 0, -1
		i = j
	}
	if count >= 12 && found != nil {
		found(from, to, script)
	}
}

// numbering reports whether what lies between a number and a word makes
// the number the word's ("7. word", "7) word", "7: word", "7 word").
func numbering(sep string) bool {
	sep = strings.TrimLeft(sep, ".):-")
	return strings.Trim(sep, " \t") == ""
}

// fits reports whether a token of this script and length may be a word of
// one of its lists (Latin lists: 3-9 letters; Chinese: one character;
// Japanese: 3-7 kana; Korean: 2-4 syllables).
func fits(sc script, runes int) bool {
	switch sc {
	case latin:
		return runes >= 3 && runes <= 9
	case han:
		return runes == 1
	case kana:
		return runes >= 3 && runes <= 7
	case hangul:
		return runes >= 2 && runes <= 4
	}
	return false
}

func isASCIILetter(c byte) bool { return (c|0x20)-'a' < 26 }

// letter reports whether r is part of a word: a letter, a combining mark,
// or the Japanese prolonged-sound mark.
func letter(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r)
}

func scriptOf(r rune) script {
	switch {
	case r < utf8.RuneSelf:
		return latin
	case unicode.Is(unicode.Latin, r):
		return latin
	case unicode.Is(unicode.Han, r):
		return han
	case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r), r == 'ー':
		return kana
	case unicode.Is(unicode.Hangul, r):
		return hangul
	}
	return none
}
