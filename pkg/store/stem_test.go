package store

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ftsTerms must give exactly the terms FTS5's 'porter unicode61' tokenizer
// puts in the index for a query's words, or search would look up terms the
// index does not hold. The texts: every line of the LoCoMo notes and fixture
// files, every character of U+0020..U+036F and U+1E00..U+1EFF, and made-up words that reach each
// Porter rule, each first split into words by Tokens as a query is. (SQLite's
// Unicode tables are older than Go's: a symbol assigned since, such as a new
// emoji, is a word character to FTS5 and not to Tokens, so ours is the rule
// that applies to queries; a letter added since, such as U+037F or the
// Cherokee small letters, is not lower-cased by FTS5.)
func TestFTSTermsMatchFTS5(t *testing.T) {
	if testing.Short() {
		t.Skip("the tokenizer against FTS5 over every corpus line, platform-independent (-short: a minute under Wine)")
	}
	var texts []string
	for _, root := range []string{"../../testdata/eval/locomo-dev", "../../testdata/fixtures"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				for _, line := range strings.Split(string(data), "\n") {
					if strings.TrimSpace(line) != "" {
						texts = append(texts, line)
					}
				}
			}
			return nil
		})
	}
	if len(texts) < 10000 {
		t.Fatalf("only %d lines of text", len(texts))
	}
	var latin strings.Builder
	for _, rg := range [][2]rune{{0x20, 0x370}, {0x1E00, 0x1F00}} {
		for r := rg[0]; r < rg[1]; r++ {
			latin.WriteString("x" + string(r) + "y ")
		}
	}
	texts = append(texts, latin.String(), "Ærø ØRE straße naïve CAFÉ Ĳssel ŉ ſ résumé Crème_brûlée e\u0301t\u0301e")
	var made strings.Builder
	bases := []string{"", "a", "b", "ab", "tr", "bat", "hop", "fil", "fizz", "sky", "agre", "condit", "rel", "gener", "y", "by", "oy", "tree", "feed", "bl", "iz", "conflat", "troubl", "siz"}
	suffixes := []string{"s", "es", "sses", "ies", "ss", "eed", "ed", "ing", "y", "ational", "tional", "enci", "anci", "izer", "logi", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "ical", "ness", "icate", "iciti", "ful", "ative", "alize", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "sion", "tion", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "le", "ated", "bled", "ized", "ating", "hopping", "filing", "failing"}
	for _, b := range bases {
		for _, s := range suffixes {
			made.WriteString(b + s + " " + b + s + "s " + b + s + "ing ")
		}
	}
	texts = append(texts, made.String(), strings.Repeat("long", 17)+"ing")

	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61');
		CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)`); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin()
	for i, s := range texts {
		texts[i] = strings.Join(Tokens(s), " ")
		if _, err := tx.Exec("INSERT INTO t(rowid, x) VALUES (?, ?)", i, texts[i]); err != nil {
			t.Fatal(err)
		}
	}
	tx.Commit()
	want := make([][]string, len(texts))
	type inst struct {
		off  int
		term string
	}
	got := make([][]inst, len(texts))
	rows, err := db.Query("SELECT doc, offset, term FROM v")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d, off int
		var term string
		rows.Scan(&d, &off, &term)
		got[d] = append(got[d], inst{off, term})
	}
	rows.Close()
	bad := 0
	for i, s := range texts {
		slices.SortFunc(got[i], func(a, b inst) int { return a.off - b.off })
		for _, g := range got[i] {
			want[i] = append(want[i], g.term)
		}
		if mine := ftsTerms(s); !slices.Equal(mine, want[i]) {
			bad++
			if bad < 10 {
				for j := range min(len(mine), len(want[i])) {
					if mine[j] != want[i][j] {
						t.Errorf("text %d: term %d: ours %q, FTS5 %q", i, j, mine[j], want[i][j])
						break
					}
				}
				if len(mine) != len(want[i]) {
					t.Errorf("text %d: %d terms, FTS5 %d", i, len(mine), len(want[i]))
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d texts tokenized differently", bad, len(texts))
	}
}
