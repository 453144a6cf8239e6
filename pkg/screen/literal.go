package screen

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/pairs"
)

// needs returns what every match of expr holds, derived from its syntax:
// a list of clauses, each a set of literal strings one of which every
// match contains. A text that holds no string of some clause holds no
// match, so the search may be skipped with the same result: the test is
// exact, not a filter that might pass over a match.
//
// A part that matches few strings (a literal, an alternation of them, an
// optional one, a small class) needs one of them, and adjacent such parts
// one of the strings they spell together; a concatenation needs what each
// of its parts needs; a capture, or a repetition of at least one, needs
// what its operand needs; an alternation needs, as one clause, a clause
// of each branch (every match matches some branch, which holds a string
// of that branch's clause). Everything else (a starred or optional part
// that is not finite, a large class, a case-folded literal) needs nothing.
func needs(expr string) [][]string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	// Only the most telling clauses are kept: a clause with a string of a
	// byte or two (a space, "no") is held by nearly every text and would
	// cost a search that rules nothing out. Keeping fewer clauses keeps
	// the test exact: each one kept is still held by every match.
	var out [][]string
	for _, c := range need(re) {
		if weakest(c) >= 3 {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b []string) int { return weakest(b) - weakest(a) })
	return out[:min(len(out), maxNeeds)]
}

// maxNeeds is how many clauses a text is tested for before the search.
const maxNeeds = 3

const maxClause = 16

// finite returns every string re can match when they are few (at most
// maxClause), and false otherwise. An empty-width assertion matches the
// empty string (its condition only narrows where); a class, a case-folded
// literal or a repetition without bound is not finite here.
func finite(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		// U+FFFD also matches a byte that is not UTF-8, which the text
		// does not hold as the rune's encoding.
		if re.Flags&syntax.FoldCase != 0 || slices.Contains(re.Rune, utf8.RuneError) {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r == utf8.RuneError || len(out) == maxClause {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture:
		return finite(re.Sub[0])
	case syntax.OpQuest:
		set, ok := finite(re.Sub[0])
		if !ok || len(set) == maxClause {
			return nil, false
		}
		return append([]string{""}, set...), true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			set, ok := finite(sub)
			if !ok || len(out)+len(set) > maxClause {
				return nil, false
			}
			out = append(out, set...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			set, ok := finite(sub)
			if !ok {
				return nil, false
			}
			if out = product(out, set); out == nil {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// product returns every a+b, or nil when there would be more than
// maxClause.
func product(as, bs []string) []string {
	if len(as)*len(bs) > maxClause {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// clause returns set as a clause, unless it holds the empty string (which
// every text holds: no requirement).
func clause(set []string) [][]string {
	if slices.Contains(set, "") {
		return nil
	}
	set = slices.Clone(set)
	slices.Sort(set)
	return [][]string{slices.Compact(set)}
}

// weakest is a clause's shortest string: the longer, the fewer texts hold
// one of the clause's strings by chance.
func weakest(c []string) int {
	n := len(c[0])
	for _, s := range c[1:] {
		n = min(n, len(s))
	}
	return n
}

func need(re *syntax.Regexp) [][]string {
	if set, ok := finite(re); ok {
		return clause(set)
	}
	switch re.Op {
	case syntax.OpConcat:
		// A run of finite parts needs one of the strings they spell
		// together; the other parts need what they need.
		var out [][]string
		run := []string{""}
		for _, sub := range re.Sub {
			set, ok := finite(sub)
			if ok {
				if p := product(run, set); p != nil {
					run = p
					continue
				}
				out = append(out, clause(run)...)
				run = set
				continue
			}
			out = append(out, clause(run)...)
			run = []string{""}
			out = append(out, need(sub)...)
		}
		return append(out, clause(run)...)
	case syntax.OpCapture, syntax.OpPlus:
		return need(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return need(re.Sub[0])
		}
		return nil
	case syntax.OpAlternate:
		var union []string
		for _, sub := range re.Sub {
			n := need(sub)
			if len(n) == 0 {
				return nil
			}
			// The branch's clause whose strings are longest.
			best := n[0]
			for _, c := range n[1:] {
				if weakest(c) > weakest(best) {
					best = c
				}
			}
			union = append(union, best...)
		}
		if len(union) > maxClause {
			return nil
		}
		return [][]string{union}
	}
	return nil
}

// holds reports whether s satisfies every clause of n: false means the
// regexp n was derived from has no match in s. p, when not nil, holds s's
// byte pairs and rules out most literals without a search.
func holds(s string, n [][]string, p *pairs.Set) bool {
	for _, clause := range n {
		ok := false
		for _, lit := range clause {
			if (p == nil || p.May(lit)) && strings.Contains(s, lit) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
