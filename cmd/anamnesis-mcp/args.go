package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// argReader checks one tool call's arguments. Every problem is collected so
// a single error result tells the model everything it got wrong at once, each
// message naming what is allowed. A JSON null reads as "not given", the way
// the reference's Optional parameters behave.
type argReader struct {
	m    map[string]any
	errs []string
}

// readArgs rejects anything that is not an object and any argument name the
// tool does not take (a misspelt "limt" must not be silently ignored).
func readArgs(raw any, allowed ...string) *argReader {
	r := &argReader{}
	switch v := raw.(type) {
	case nil:
		r.m = map[string]any{}
	case map[string]any:
		r.m = v
	default:
		r.errs = append(r.errs, fmt.Sprintf("arguments must be a JSON object (got %s)", kind(raw)))
		r.m = map[string]any{}
	}
	var unknown []string
	for k := range r.m {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, strconv.Quote(clip(k, 60)))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if len(unknown) > 10 {
			unknown = append(unknown[:10], fmt.Sprintf("and %d more", len(unknown)-10))
		}
		want := "none"
		if len(allowed) > 0 {
			want = strings.Join(allowed, ", ")
		}
		r.errs = append(r.errs, fmt.Sprintf("unknown argument %s (allowed: %s)", strings.Join(unknown, ", "), want))
	}
	return r
}

func (r *argReader) fail(format string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(format, a...)) }

// err is nil when every argument was acceptable.
func (r *argReader) err() error {
	if len(r.errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(r.errs, "; "))
}

func (r *argReader) get(name string) (any, bool) {
	v, ok := r.m[name]
	return v, ok && v != nil
}

// str returns a string argument, or def when it is absent.
func (r *argReader) str(name, def string) string {
	v, ok := r.get(name)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		r.fail("%s must be a string (got %s)", name, kind(v))
		return def
	}
	return s
}

// required returns a string argument that must be present.
func (r *argReader) required(name, what string) string {
	if _, ok := r.get(name); !ok {
		r.fail("%s is required (%s)", name, what)
		return ""
	}
	return r.str(name, "")
}

// enum returns a string argument that must be one of values; "" when absent
// (or def when given). An empty string reads as absent, as a filter would.
func (r *argReader) enum(name, def string, values []string) string {
	s := r.str(name, def)
	if s == "" || slices.Contains(values, s) {
		if s == "" {
			return def
		}
		return s
	}
	r.fail("%s must be one of %s (got %q)", name, strings.Join(values, ", "), clip(s, 60))
	return def
}

// maxLen checks a string's length in characters.
func (r *argReader) maxLen(name, s string, max int) {
	if n := utf8.RuneCountInString(s); n > max {
		r.fail("%s is %d characters; at most %d are allowed", name, n, max)
	}
}

// integer returns a whole number in lo..hi (hi < 0 means no upper bound), or
// def when absent. A numeric string is accepted: models sometimes quote numbers.
func (r *argReader) integer(name string, def, lo, hi int) int {
	v, ok := r.get(name)
	if !ok {
		return def
	}
	allowed := fmt.Sprintf("an integer from %d to %d", lo, hi)
	if hi < 0 {
		allowed = fmt.Sprintf("an integer >= %d", lo)
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			r.fail("%s must be %s (got %s)", name, allowed, x)
			return def
		}
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			r.fail("%s must be %s (got %q)", name, allowed, clip(x, 60))
			return def
		}
		f = float64(n)
	default:
		r.fail("%s must be %s (got %s)", name, allowed, kind(v))
		return def
	}
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		r.fail("%s must be %s (got %v)", name, allowed, v)
		return def
	}
	if f < float64(lo) || (hi >= 0 && f > float64(hi)) {
		r.fail("%s must be %s (got %s)", name, allowed, strconv.FormatFloat(f, 'f', -1, 64))
		return def
	}
	if f >= float64(math.MaxInt) {
		// No int holds it (float64(MaxInt) is 2^63 on 64-bit systems):
		// converted, it would wrap around to a negative number.
		r.fail("%s must be %s, at most %d (got %s)", name, allowed, math.MaxInt-1, strconv.FormatFloat(f, 'f', -1, 64))
		return def
	}
	return int(f)
}

// boolean returns a true/false argument, or def when absent.
func (r *argReader) boolean(name string, def bool) bool {
	v, ok := r.get(name)
	if !ok {
		return def
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		if b, err := strconv.ParseBool(x); err == nil {
			return b
		}
	}
	r.fail("%s must be true or false (got %s)", name, describe(v))
	return def
}

// strings returns a list of strings; a lone string counts as a list of one.
func (r *argReader) strList(name string) []string {
	v, ok := r.get(name)
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for i, e := range x {
			s, isStr := e.(string)
			if !isStr {
				r.fail("%s[%d] must be a string (got %s)", name, i, kind(e))
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	r.fail("%s must be a list of strings (got %s)", name, kind(v))
	return nil
}

func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", x)
	}
}

func describe(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(clip(s, 60))
	}
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return kind(v)
}

// teamPattern is a team name (config.ValidTeamName), for the tools' schemas.
const teamPattern = `^[a-z0-9][a-z0-9._-]{0,63}$`

// team reads the optional "team" argument: a team name, or "" when absent.
func (r *argReader) team() string {
	t := r.str("team", "")
	if t != "" {
		if err := config.CheckTeamName(t); err != nil {
			r.fail("%v", err)
			return ""
		}
	}
	return t
}
