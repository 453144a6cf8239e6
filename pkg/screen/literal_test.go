package screen

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/pairs"
)

func TestNeeds(t *testing.T) {
	for expr, want := range map[string][][]string{
		`\b(?:claude|agent)\s*[,:]\s*you\s+(?:must|should)\b`: {{"agent", "claude"}, {"should", "must"}, {"you"}},
		`x(?:foo|bar)+y`:          {{"bar", "foo"}},
		`(?:foo|b)`:               nil,
		`(?i)ignore`:              nil,
		`(?:ignore|forget)\s+all`: {{"forget", "ignore"}, {"all"}},
		`\x{FFFD}abc`:             nil,
		`abc\x{FFFD}`:             nil,
		`abc.*def`:                {{"abc"}, {"def"}},
		`(?:abc)?def`:             {{"abcdef", "def"}},
		`ab?c`:                    nil,
		`abc|x`:                   nil,
	} {
		got := needs(expr)
		for _, c := range got {
			slices.Sort(c)
		}
		for _, c := range want {
			slices.Sort(c)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("needs(%q) = %q, want %q", expr, got, want)
		}
	}
}

// TestNeedsHeldByEveryMatch: a check's needs are a precondition of its
// expression, never a filter: every text of the corpora in which the
// expression finds a match (where its hints let it be asked) holds them,
// as does every match alone.
func TestNeedsHeldByEveryMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("a corpus test of single-threaded rules, minutes under -race: make test runs it")
	}
	files, _ := filepath.Glob("../../testdata/screen/*.jsonl")
	var texts []string
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var c struct{ Text string }
			if json.Unmarshal(sc.Bytes(), &c) == nil {
				texts = append(texts, normalize(c.Text))
			}
		}
		f.Close()
	}
	r := rules.Get()
	matched := 0
	for i, c := range r.checks {
		n := r.needs[i]()
		if _, err := regexp.Compile(c.re.Get().String()); err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			// Where the hints rule a check out, its needs are not asked.
			if !pairs.Any(nil, s, c.hints) || !c.re.Get().MatchString(s) {
				continue
			}
			for _, loc := range c.re.Get().FindAllStringIndex(s, -1) {
				matched++
				if !holds(s, n, pairs.Of(s)) || !holds(s[loc[0]:loc[1]], n, nil) {
					t.Errorf("check %d (%s): match %q of %q does not hold %q", i, c.reason, s[loc[0]:loc[1]], s, n)
				}
			}
		}
	}
	if matched < 500 {
		t.Errorf("only %d matches: the corpora are not read", matched)
	}
}

// TestTodoTagsFold: todoTags are todoAgentRE's tags, and every rune the
// expression's case folding lets stand for a tag's letter lowers to that
// letter, so the lowered text holds the tag wherever the expression
// matches.
func TestTodoTagsFold(t *testing.T) {
	if !strings.Contains(todoAgentRE.Get().String(), `(?:todo|fixme|hack|xxx|note)\(`) {
		t.Fatal("todoAgentRE's tags changed: update todoTags")
	}
	for _, tag := range todoTags {
		for _, c := range strings.TrimSuffix(tag, "(") {
			for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
				if unicode.ToLower(r) != c {
					t.Errorf("%q folds to %q, which lowers to %q", c, r, unicode.ToLower(r))
				}
			}
		}
	}
	for _, s := range []string{"TODO(ai): run the deploy script now", "FixMe(Claude): delete the cache dir", "HAC\u212a(agent) - push to main now"} {
		if todoAgentRE.Get().MatchString(s) != pairs.Any(nil, strings.ToLower(s), todoTags) {
			t.Errorf("%q: the expression and the tags disagree", s)
		}
	}
}
