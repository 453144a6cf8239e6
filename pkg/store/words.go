package store

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Coding vocabulary (SPEC 15, "recall and search that understand coding
// vocabulary"): general rules, applied by our ranking and by per-prompt
// recall, never by the reference-compatible ranking (its tokens stay the
// seed's):
//   - a version or dotted number ("16.4", "v5.7.1", "3.12") is one word,
//     looked for as the phrase of its parts, not as loose numbers;
//   - an identifier is split into its words: snake_case and SCREAMING_CASE
//     at the underscores, camelCase and PascalCase at each capital after a
//     lower-case letter (the identifier itself is kept too: a note may
//     hold it whole); paths such as x/time/rate split at the slashes as
//     every word does;
//   - a long word no note holds is matched to the words of the store that
//     extend it or that it extends ("postgres" and "postgresql"): see
//     resolve.

// version matches a version or dotted number. Compiled on first use: its
// Unicode classes make it a regexp every hook process would otherwise
// build at start, for the few prompts that hold a number.
var version = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\p{L}\p{N}_.])([vV]?\p{N}+(?:\.\p{N}+)+)`)
})

// Words splits a query into the words our ranking and recall look for:
// Tokens, with the rules above.
func Words(q string) []string {
	var out []string
	// Versions first, blanked out of the text so Tokens does not split them.
	var found [][]int
	if strings.IndexFunc(q, unicode.IsNumber) >= 0 {
		found = version().FindAllStringSubmatchIndex(q, -1)
	}
	for _, m := range found {
		out = append(out, q[m[2]:m[3]])
	}
	if len(out) > 0 {
		b := []byte(q)
		for _, m := range found {
			for i := m[2]; i < m[3]; i++ {
				b[i] = ' '
			}
		}
		q = string(b)
	}
	for _, t := range Tokens(q) {
		parts := identifierParts(t)
		if len(parts) == 0 {
			out = append(out, t)
			continue
		}
		if !strings.Contains(t, "_") {
			out = append(out, t) // camelCase: the index holds it as one word
		}
		out = append(out, parts...)
	}
	return dedupe(out)
}

// identifierParts splits an identifier into its words; nil when t is one
// word.
func identifierParts(t string) []string {
	var parts []string
	r := []rune(t)
	start := 0
	for i := 0; i < len(r); i++ {
		switch {
		case r[i] == '_':
			if i > start {
				parts = append(parts, string(r[start:i]))
			}
			start = i + 1
		case i > start && unicode.IsUpper(r[i]) && (unicode.IsLower(r[i-1]) ||
			// The last capital of an acronym starts the next word: HTTPServer.
			(unicode.IsUpper(r[i-1]) && i+1 < len(r) && unicode.IsLower(r[i+1]))):
			parts = append(parts, string(r[start:i]))
			start = i
		}
	}
	if len(parts) == 0 {
		return nil
	}
	if start < len(r) {
		parts = append(parts, string(r[start:]))
	}
	return parts
}

// minPrefix is the shortest word prefix matching may use: shorter shared
// beginnings ("post", "data") say little.
const minPrefix = 6

// resolve replaces each long word of words that no note holds with the
// stored words it is a prefix of ("postgres" finds "postgresql") or, when
// there is none, the longest stored word of at least minPrefix letters that
// is a prefix of it ("postgresql" finds "postgres"). also gives, for a word
// that is one of the words of an identifier the notes hold, that
// identifier, when the query holds two or more of its words ("retry
// policy" finds retryPolicy: see identifiersOf). absent reports the words
// that stay unknown (held by no note, in prose or in an identifier, and
// matched to nothing), which tell nothing about any note.
func (s *Store) resolve(ctx context.Context, words []string) (out []string, absent map[string]bool, also map[string][]string, err error) {
	absent = map[string]bool{}
	terms := make([][]string, len(words))
	var all []string
	for i, w := range words {
		terms[i] = ftsTerms(w)
		all = append(all, terms[i]...)
	}
	known, err := s.vocab(ctx, all)
	if err != nil {
		return nil, nil, nil, err
	}
	if also, err = s.identifiersOf(ctx, words, terms); err != nil {
		return nil, nil, nil, err
	}
	for i, w := range words {
		held := true
		for _, t := range terms[i] {
			held = held && known[t]
		}
		if held || len(also[w]) > 0 {
			out = append(out, w)
			continue
		}
		if len(terms[i]) != 1 || utf8.RuneCountInString(terms[i][0]) < minPrefix || !isLetters(terms[i][0]) {
			absent[w] = true
			out = append(out, w)
			continue
		}
		found, err := s.prefixed(ctx, terms[i][0])
		if err != nil {
			return nil, nil, nil, err
		}
		if len(found) == 0 {
			absent[w] = true
			out = append(out, w)
			continue
		}
		out = append(out, found...)
	}
	return dedupe(out), absent, also, nil
}

// maxIdentifiers bounds the identifiers one query is extended with.
const maxIdentifiers = 16

// identifiersOf returns, by word of words, the identifiers of the notes
// (term_parts) that have that word and at least one other word of the
// query among their words: "retry policy" gives retry and policy the
// identifier retrypolicy. Function words do not count (getUser is not
// "the user"). terms are the words' index terms.
func (s *Store) identifiersOf(ctx context.Context, words []string, terms [][]string) (map[string][]string, error) {
	byPart := map[string][]string{}
	for i, w := range words {
		if len(terms[i]) == 1 && !stopWords[strings.ToLower(w)] {
			byPart[terms[i][0]] = append(byPart[terms[i][0]], w)
		}
	}
	if len(byPart) < 2 {
		return nil, nil
	}
	parts := make([]string, 0, len(byPart))
	for p := range byPart {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	found, ok := s.known.identsOf(parts)
	if !ok {
		var err error
		if found, err = s.identRows(ctx, parts); err != nil {
			return nil, err
		}
		if s.known != nil {
			s.known.idents = append(s.known.idents, identAnswer{parts, found})
		}
	}
	out := map[string][]string{}
	for _, r := range found {
		for _, p := range r.parts {
			for _, w := range byPart[p] {
				out[w] = append(out[w], r.word)
			}
		}
	}
	return out, nil
}

// identRow is an identifier of term_parts with those of a query's parts it
// has.
type identRow struct {
	word  string
	parts []string
}

// identAnswer is identRows' answer for parts (sorted).
type identAnswer struct {
	parts []string
	rows  []identRow
}

// identRows returns the identifiers having at least two of parts among
// their words, those with the most first, then by identifier: at most
// maxIdentifiers.
func (s *Store) identRows(ctx context.Context, parts []string) ([]identRow, error) {
	args := make([]any, len(parts))
	for i, p := range parts {
		args[i] = p
	}
	rows, err := s.db.QueryContext(ctx, `SELECT word, group_concat(part, ' ') FROM term_parts WHERE part IN (?`+strings.Repeat(",?", len(args)-1)+`)
		GROUP BY word HAVING count(*) >= 2 ORDER BY count(*) DESC, word`+limitClause(maxIdentifiers), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []identRow
	for rows.Next() {
		var ident, held string
		if err := rows.Scan(&ident, &held); err != nil {
			return nil, err
		}
		out = append(out, identRow{ident, strings.Fields(held)})
	}
	return out, rows.Err()
}

// identsOf answers identRows for parts from an earlier answer (a reader's
// search after the prompt's own lookup, whose words are a subset of the
// prompt's): the answer for the same parts, or one for more parts that
// maxIdentifiers did not cut, which holds every identifier having two of
// these.
func (k *pruneFigures) identsOf(parts []string) ([]identRow, bool) {
	if k == nil {
		return nil, false
	}
	for _, a := range k.idents {
		if slices.Equal(a.parts, parts) {
			return a.rows, true
		}
	}
	for _, a := range k.idents {
		if len(a.rows) == maxIdentifiers || !subset(parts, a.parts) {
			continue
		}
		var out []identRow
		for _, r := range a.rows {
			var held []string
			for _, p := range r.parts {
				if slices.Contains(parts, p) {
					held = append(held, p)
				}
			}
			if len(held) >= 2 {
				out = append(out, identRow{r.word, held})
			}
		}
		slices.SortStableFunc(out, func(x, y identRow) int {
			if d := len(y.parts) - len(x.parts); d != 0 {
				return d
			}
			return strings.Compare(x.word, y.word)
		})
		return out, true
	}
	return nil, false
}

// subset reports whether every one of xs is in ys.
func subset(xs, ys []string) bool {
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			return false
		}
	}
	return true
}

func isLetters(t string) bool {
	for _, r := range t {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// vocab returns which of terms are in the index's vocabulary: term_df
// first (one B-tree probe a term), then FTS5's vocabulary table for the
// terms term_df lacks (new since its figures were computed, or absent).
// The vocabulary table counts a term's every posting to answer, so asking
// it for a common word costs a pass over that word's whole posting list.
// A reader keeps both answers (term_df's figures serve pruning too), so a
// search after the prompt's own lookup (recall) asks neither again.
func (s *Store) vocab(ctx context.Context, terms []string) (map[string]bool, error) {
	out := map[string]bool{}
	var rest []string
	for _, t := range terms {
		if s.known == nil {
			rest = append(rest, t)
		} else if n, ok := s.known.df[t]; ok && n > 0 {
			out[t] = true
		} else if in, ok := s.known.vocab[t]; ok {
			out[t] = in
		} else {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	df, err := s.lookup(ctx, "SELECT term, df FROM term_df WHERE term IN ", rest)
	if err != nil {
		return nil, err
	}
	var absent []string
	for _, t := range rest {
		n, ok := df[t]
		if s.known != nil {
			if !ok {
				n = -1
			}
			s.known.df[t] = n
		}
		if n > 0 {
			out[t] = true
		} else {
			absent = append(absent, t)
		}
	}
	if len(absent) == 0 {
		return out, nil
	}
	found, err := s.lookup(ctx, "SELECT term, 1 FROM memories_vocab WHERE term IN ", absent)
	if err != nil {
		return nil, err
	}
	for _, t := range absent {
		_, in := found[t]
		out[t] = in
		if s.known != nil {
			if s.known.vocab == nil {
				s.known.vocab = map[string]bool{}
			}
			s.known.vocab[t] = in
		}
	}
	return out, nil
}

// lookup runs q, which selects a term and a number, for terms (the IN
// list's parentheses appended), and returns the numbers by term.
func (s *Store) lookup(ctx context.Context, q string, terms []string) (map[string]int, error) {
	args := make([]any, len(terms))
	for i, t := range terms {
		args[i] = t
	}
	return s.counts(ctx, q+"(?"+strings.Repeat(",?", len(args)-1)+")", args...)
}

// counts runs q, which selects a text and a number, and returns the
// numbers by text.
func (s *Store) counts(ctx context.Context, q string, args ...any) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, err
		}
		out[t] = n
	}
	return out, rows.Err()
}

// maxExtensions bounds the stored words one unknown word may stand for.
const maxExtensions = 3

// prefixed returns the stored words term is a prefix of (the most frequent
// maxExtensions), else the longest stored word of at least minPrefix
// letters that is a prefix of term. A stored word is returned only when it
// is its own stem, so searching for it finds exactly it.
func (s *Store) prefixed(ctx context.Context, term string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT term FROM memories_vocab WHERE term > ? AND term < ? ORDER BY doc DESC"+limitClause(4*maxExtensions), term, term+"\U0010FFFF")
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return nil, err
		}
		if len(out) < maxExtensions && strings.HasPrefix(t, term) && porterStem(t) == t {
			out = append(out, t)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(out) > 0 {
		return out, err
	}
	r := []rune(term)
	var prefixes []string
	for n := len(r) - 1; n >= minPrefix; n-- {
		if p := string(r[:n]); porterStem(p) == p {
			prefixes = append(prefixes, p)
		}
	}
	known, err := s.vocab(ctx, prefixes)
	if err != nil {
		return nil, err
	}
	for _, p := range prefixes { // longest first
		if known[p] {
			return []string{p}, nil
		}
	}
	return nil, nil
}

// identifiers calls fn with each word of text that the index holds whole
// and identifierParts may split: a run of ASCII letters and digits with a
// capital after its first letter (retryPolicy, HTTPServer; also DB, which
// identifierParts leaves whole), as unicode61 cuts it (a word with a
// non-ASCII letter is left alone). The words of an identifier go to
// term_parts, so a prose query ("retry policy") finds a note that holds
// only the identifier.
func identifiers(text string, fn func(word string)) {
	// Capitals inside a word are rare in prose: look for those first, a
	// byte compare per byte, and only then for the word around one.
	for i := 1; i < len(text); i++ {
		if c := text[i]; c < 'A' || c > 'Z' || !asciiWord(text[i-1]) {
			continue
		}
		start, end := i-1, i+1
		for start > 0 && asciiWord(text[start-1]) {
			start--
		}
		for end < len(text) && asciiWord(text[end]) {
			end++
		}
		i = end
		if start > 0 && text[start-1] >= utf8.RuneSelf {
			if r, _ := utf8.DecodeLastRuneInString(text[:start]); wordRune(r) {
				continue
			}
		}
		if end < len(text) && text[end] >= utf8.RuneSelf {
			if r, _ := utf8.DecodeRuneInString(text[end:]); wordRune(r) {
				continue
			}
		}
		fn(text[start:end])
	}
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// wordRune reports a character unicode61 keeps in a word.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Co, r)
}
