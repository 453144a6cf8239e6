package mnemonic

import (
	"slices"
	"strings"
	"testing"
)

// The mnemonics below were made outside this package (Python's hashlib
// from random entropy, and BIP39's own test vectors), so the checksum is
// checked against an implementation other than this one.
func TestFind(t *testing.T) {
	const (
		en12  = "during advice monkey wink humor thrive proud busy attract discover document size"
		en15  = "junk bicycle lady dragon humor drama talk fun video foil frown oppose idea mother effort"
		en18  = "joy super crawl tunnel very baby clinic raw bunker miss cash race half custom current ramp globe patient"
		en21  = "live reveal romance wreck pink broom wink average season physical screen tank angry puzzle bubble cause elevator borrow awkward abandon cave"
		en24  = "bring image unlock pudding submit current enable describe situate warfare time catch two jar monitor force february stable budget board price club black aim"
		en24b = "input unlock avoid service glance permit whale keen avocado garlic kick morning stomach grow retire auction appear educate device love portion blush loan piano"
		vec   = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
		vec2  = "legal winner thank year wave sausage worth useful legal winner thank yellow"
		fr    = "tortue visqueux armure ponctuel crevette vanille notoire fameux progrès persil valise murène"
		es    = "arar tajo rapto sección sábado renta duro dátil otoño cliente tregua cazo"
		it    = "tollerare maglia spegnere ruolo curatore palude orfano ingaggio codice ramo ritmico pilifero"
		pt    = "tucano diluente rigidez iogurte esbelto vinco caverna fuligem abalar enfeite furador neblina"
		cs    = "odplout posoudit usnadnit pilulka holinka popisek panika rosol bunkr velitel archa deficit"
		ja    = "きまる よごれる てぬぐい かがし さむけ こえる ねんし せんげん ぐたいてき きたえる とたん すいようび"
		ko    = "성별 녹화 예금 해안 아가씨 남편 할인 반응 임무 스스로 의문 열매"
		zh    = "拨 雪 休 描 汉 大 案 贯 宜 今 绅 冷"
		en12b = "clarify service duty above pyramid garlic method imitate whip company slot shadow"
		en12c = "stand tape topic reason toe allow yellow onion like biology face distance"
	)
	w := strings.Fields
	numberedLines := func(s string) string {
		var b strings.Builder
		for i, x := range w(s) {
			b.WriteString(strings.Repeat(" ", 0) + itoa(i+1) + ". " + x + "\n")
		}
		return b.String()
	}
	numberedInline := func(s, sep string) string {
		var parts []string
		for i, x := range w(s) {
			parts = append(parts, itoa(i+1)+sep+x)
		}
		return strings.Join(parts, " ")
	}
	// twoColumns writes 1..n/2 down the left and the rest down the right,
	// numbered, as a backup card prints them.
	twoColumns := func(s string) string {
		f := w(s)
		h := len(f) / 2
		var b strings.Builder
		for i := range h {
			b.WriteString(itoa(i+1) + ". " + f[i] + "\t\t" + itoa(h+i+1) + ". " + f[h+i] + "\n")
		}
		return b.String()
	}
	// columnsDown writes the words down the columns of a rows x cols grid,
	// unnumbered.
	columnsDown := func(s string, rows int) string {
		f := w(s)
		cols := len(f) / rows
		var b strings.Builder
		for r := range rows {
			for c := range cols {
				if c > 0 {
					b.WriteString("   ")
				}
				b.WriteString(f[c*rows+r])
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	table := func(s string, cols int) string {
		f := w(s)
		var b strings.Builder
		for i := 0; i < len(f); i += cols {
			b.WriteString("| " + strings.Join(f[i:i+cols], " | ") + " |\n")
		}
		return b.String()
	}
	found := []struct{ name, in, secret string }{
		{"chat", "restored from this, keep it offline: " + en12 + " - thanks!", en12},
		{"chat 15", "ok here goes " + en15 + " and that's all of it", en15},
		{"18 commas", strings.ReplaceAll(en18, " ", ", "), strings.ReplaceAll(en18, " ", ", ")},
		{"21 plain", en21, en21},
		{"24 one a line", strings.ReplaceAll(en24, " ", "\n"), strings.ReplaceAll(en24, " ", "\n")},
		{"24 numbered lines", "Backup card:\n" + numberedLines(en24b), "1. input\n2. unlock"},
		{"12 numbered inline", numberedInline(en12b, ". "), "1. clarify 2. service"},
		{"12 numbered parens", numberedInline(en12c, ") "), "1) stand 2) tape"},
		{"24 two numbered columns", twoColumns(en24), "1. bring"},
		{"12 grid down columns", "sheet:\n" + columnsDown(en12, 3), "during"},
		{"12 grid rows", "sheet:\n" + table(en12b, 4), "clarify"},
		{"24 grid pipes", table(en24b, 4), "input"},
		{"upper case", "SEED " + strings.ToUpper(en15) + " END", strings.ToUpper(en15)},
		{"title case", "Words: Stand Tape Topic Reason Toe Allow Yellow Onion Like Biology Face Distance", "Stand Tape Topic"},
		{"french decomposed", "phrase : " + norm.fr, norm.fr},
		{"spanish without accents", "frase: arar tajo rapto seccion sabado renta duro datil otoño cliente tregua cazo", "arar tajo"},
		{"japanese decomposed", norm.ja, norm.ja},
		{"korean decomposed", norm.ko, norm.ko},
		{"code literal", `const phrase = "` + en12 + `";`, en12},
		{"json array", `["` + strings.Join(w(en12b), `","`) + `"]`, "clarify"},
		{"french", "ma phrase: " + fr, fr},
		{"spanish", "frase: " + es, es},
		{"italian", "parole " + it, it},
		{"portuguese", "palavras: " + pt, pt},
		{"czech", "slova: " + cs, cs},
		{"japanese ideographic space", "復元フレーズ：" + strings.ReplaceAll(ja, " ", "\u3000"), strings.ReplaceAll(ja, " ", "\u3000")},
		{"korean", "복구 문구: " + ko, ko},
		{"chinese", "助记词 " + zh, zh},
		{"two in one text", en12 + "\nand the other wallet:\n" + en12b, en12b},
	}
	for _, tt := range found {
		spans := Find(tt.in)
		if len(spans) == 0 {
			t.Errorf("%s: no mnemonic found in %q", tt.name, tt.in)
			continue
		}
		out := mask(tt.in, spans)
		if strings.Contains(out, tt.secret) {
			t.Errorf("%s: %q still holds %q", tt.name, out, tt.secret)
		}
	}
	intact := []struct{ name, in string }{
		{"bad checksum 12", "feel repeat picnic turn upset push theme can saddle suit spoon unhappy"},
		{"bad checksum 24", "electric there decorate round swallow before surface case person ten alcohol bench ketchup two lyrics mango cabbage diary three rural okay picture dilemma fortune"},
		{"common words", "about above across act action actor actual adapt add address adjust admit"},
		{"wordlist head", "The list opens: abandon ability able about above absent absorb abstract absurd abuse access accident."},
		{"placeholders", "mnemonic: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12"},
		{"test vector", vec},
		{"test vector 2", "vector: " + vec2 + "."},
		{"test vector zoo", "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong"},
		{"eleven words", "during advice monkey wink humor thrive proud busy attract discover document"},
		{"prose", "Please review these final build notes about the deploy order before Monday morning; they cover every step of the rollout and the rollback."},
		{"prose of list words", "First check the cable, then open the door and turn the power switch off before you add more fuel to the engine."},
		{"glued numbers", "word1word2 abandon1 abandon2 abandon3 abandon4 abandon5 abandon6 abandon7 abandon8 abandon9 abandon10 abandon11 about12"},
		{"chinese prose", "我们今天在会议上讨论了新的部署计划和回滚步骤，大家都同意下周一上线。"},
	}
	for _, tt := range intact {
		if spans := Find(tt.in); len(spans) > 0 {
			t.Errorf("%s: found %v in %q", tt.name, spans, tt.in)
		}
	}
}

func mask(s string, spans [][2]int) string {
	for i := len(spans) - 1; i >= 0; i-- {
		s = s[:spans[i][0]] + "[REDACTED]" + s[spans[i][1]:]
	}
	return s
}

func itoa(i int) string {
	if i >= 10 {
		return string(rune('0'+i/10)) + string(rune('0'+i%10))
	}
	return string(rune('0' + i))
}

// TestChecksumRate measures the checksum's pass rate on runs of list words
// that are no mnemonic: 1 in 2^(n/3) is the design.
func TestChecksumRate(t *testing.T) {
	wl := load("english")
	words := make([]string, len(wl))
	for x, i := range wl {
		words[i] = x
	}
	for _, n := range []int{12, 24} {
		pass := 0
		const trials = 20000
		x := uint32(12345)
		idx := make([]uint16, n)
		for range trials {
			for i := range idx {
				x = x*1664525 + 1013904223
				idx[i] = uint16(x >> 21)
			}
			if checksum(idx) {
				pass++
			}
		}
		want := trials >> (n / 3)
		if pass < want/2 || pass > want*2 {
			t.Errorf("%d words: %d of %d random runs pass, want about %d", n, pass, trials, want)
		}
		t.Logf("%d words: %d of %d random runs pass the checksum (1 in %d)", n, pass, trials, trials/max(pass, 1))
	}
}

// norm holds mnemonics written decomposed (NFD), as macOS and some
// editors write them.
var norm = struct{ fr, ja, ko string }{
	fr: "tortue visqueux armure ponctuel crevette vanille notoire fameux progre\u0300s persil valise mure\u0300ne",
	ja: "きまる よこ\u3099れる てぬく\u3099い かか\u3099し さむけ こえる ねんし せんけ\u3099ん く\u3099たいてき きたえる とたん すいようひ\u3099",
	ko: "\u1109\u1165\u11bc\u1107\u1167\u11af \u1102\u1169\u11a8\u1112\u116a \u110b\u1168\u1100\u1173\u11b7 \u1112\u1162\u110b\u1161\u11ab \u110b\u1161\u1100\u1161\u110a\u1175 \u1102\u1161\u11b7\u1111\u1167\u11ab \u1112\u1161\u11af\u110b\u1175\u11ab \u1107\u1161\u11ab\u110b\u1173\u11bc \u110b\u1175\u11b7\u1106\u116e \u1109\u1173\u1109\u1173\u1105\u1169 \u110b\u1174\u1106\u116e\u11ab \u110b\u1167\u11af\u1106\u1162",
}

func BenchmarkFind(b *testing.B) {
	s := strings.Repeat("An ordinary sentence about refactoring the health endpoint in app.ts. ", 10)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Find(s)
	}
}

// latinKey, which reads runs of Latin tokens against every Latin list at
// once, keys each list word as fold does, in either case and with its
// accents composed or decomposed.
func TestLatinKeyFolds(t *testing.T) {
	all := latinWords()
	if !slices.IsSorted(all) || len(all) < 2048 {
		t.Fatalf("latinWords: %d entries, sorted %v", len(all), slices.IsSorted(all))
	}
	for i, name := range lists[latin] {
		for _, w := range words(name) {
			if k, _ := latinKey(w); latinBits(all, k)&(1<<i) == 0 {
				t.Errorf("%s: %q not found in its list", name, w)
			}
			k, ok := latinKey(w)
			f, ok2 := latinKey(fold(w))
			u, ok3 := latinKey(strings.ToUpper(w))
			if !ok || !ok2 || !ok3 || k != f || k != u {
				t.Errorf("%s: %q keyed %x %v, folded %x %v, upper case %x %v", name, w, k, ok, f, ok2, u, ok3)
			}
		}
	}
	if a, b := mustKey(t, "ábaco"), mustKey(t, "a\u0301baco"); a != b || a != mustKey(t, "ABACO") {
		t.Errorf("ábaco keyed %x, decomposed %x", a, b)
	}
	for _, w := range []string{"façade", "naïve1", "abcdefghij", "", "Ω"} {
		if k, ok := latinKey(w); ok {
			t.Errorf("%q keyed %x", w, k)
		}
	}
}

func mustKey(t *testing.T, w string) uint64 {
	t.Helper()
	k, ok := latinKey(w)
	if !ok {
		t.Fatalf("%q has no key", w)
	}
	return k
}

func BenchmarkLatinWords(b *testing.B) {
	for b.Loop() {
		latinWordsBuild()
	}
}
