package note

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Write limits: what any surface (CLI, MCP, dashboard, hooks, lifecycle) may
// put in a note. The store enforces them on every write, so all surfaces
// agree; reading is more lenient (a hand-written note over a limit is
// indexed and shown, and must be shortened before it is written again).
const (
	MaxTitle   = 500     // characters
	MaxProject = 200     // characters
	MaxTags    = 50      // tags per note
	MaxTag     = 200     // characters per tag
	MaxBody    = 1 << 20 // bytes
)

// CheckLimits reports every write limit n is over, in one error.
func CheckLimits(n *Note) error {
	var errs []string
	if c := utf8.RuneCountInString(n.Title); c > MaxTitle {
		errs = append(errs, fmt.Sprintf("title is %d characters; at most %d are allowed", c, MaxTitle))
	}
	if c := utf8.RuneCountInString(n.Project); c > MaxProject {
		errs = append(errs, fmt.Sprintf("project is %d characters; at most %d are allowed", c, MaxProject))
	}
	if strings.ContainsFunc(n.Project, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		errs = append(errs, fmt.Sprintf("project %q holds a control character", n.Project))
	}
	if len(n.Tags) > MaxTags {
		errs = append(errs, fmt.Sprintf("%d tags; at most %d are allowed", len(n.Tags), MaxTags))
	} else {
		for _, t := range n.Tags {
			if c := utf8.RuneCountInString(t); c > MaxTag {
				errs = append(errs, fmt.Sprintf("tag %.40q… is %d characters; at most %d are allowed", t, c, MaxTag))
			}
		}
	}
	// A file that is not UTF-8 is one no reader accepts (Parse refuses it,
	// and so does the reference's): the note would be written and then
	// listed as unreadable.
	var bad []string
	for field, s := range map[string]string{"title": n.Title, "project": n.Project, "body": n.Body, "tags": strings.Join(n.Tags, ",")} {
		if !utf8.ValidString(s) {
			bad = append(bad, field)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		errs = append(errs, fmt.Sprintf("%s not valid UTF-8 text (a file in another encoding?)", strings.Join(bad, ", ")))
	}
	if err := CheckBody(n.Body); err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// CheckBody reports a body over MaxBody, for a surface that checks the
// body apart from the rest of the note (MCP lists every bad argument).
func CheckBody(body string) error {
	if len(body) > MaxBody {
		return fmt.Errorf("body is %d bytes; at most %d (1 MiB) are allowed", len(body), MaxBody)
	}
	return nil
}
