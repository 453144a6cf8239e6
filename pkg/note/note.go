// Package note is the Memory record and its markdown file format: YAML
// front-matter in the reference writer's exact key order and quoting, then the body.
package note

import (
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"
)

// Types, scopes and provenance sources the format allows.
const (
	Procedural = "procedural"
	Semantic   = "semantic"
	Episodic   = "episodic"

	Portable     = "portable"
	MachineLocal = "machine-local"

	ProvHuman      = "human"
	ProvSessionEnd = "session-end"
	ProvReflection = "reflection"
	ProvImport     = "import"
	ProvMerge      = "merge" // written by the newest reference's merge (consolidate)

	Global = "global"
)

var (
	Types       = []string{Procedural, Semantic, Episodic}
	Scopes      = []string{Portable, MachineLocal}
	ProvSources = []string{ProvHuman, ProvSessionEnd, ProvReflection, ProvImport, ProvMerge}
)

// ErrBadID is returned for ids that could escape the store when used in a path.
var ErrBadID = errors.New("invalid note id (want 1-128 of [0-9A-Za-z_-], starting with a letter or digit)")

// ValidID reports whether id may name a note file: 1-128 of [0-9A-Za-z_-],
// starting with a letter or digit.
func ValidID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !alnum && (i == 0 || c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// CheckID returns ErrBadID (with the id quoted) when id is not valid.
func CheckID(id string) error {
	if !ValidID(id) {
		return fmt.Errorf("%w: %q", ErrBadID, id)
	}
	return nil
}

// NewID returns a fresh ULID.
func NewID() string { return ulid.MustNew(ulid.Now(), rand.Reader).String() }

// Now is the reference's timestamp: UTC, seconds precision, "+00:00".
func Now() string { return FormatTime(time.Now()) }

// FormatTime renders t the way the reference's isoformat(timespec="seconds") does.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05+00:00") }

// Note is one memory. The zero values of optional fields mean "absent".
type Note struct {
	ID          string   `json:"id"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Project     string   `json:"project"`
	MachineID   string   `json:"machine_id"`
	Scope       string   `json:"scope"`
	Tags        []string `json:"tags"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
	ProvSource  string   `json:"prov_source"`
	ProvModel   string   `json:"-"` // not in SPEC 2's JSON shape
	ProvSession string   `json:"-"` // not in SPEC 2's JSON shape
	Confidence  float64  `json:"confidence"`
	Supersedes  []string `json:"supersedes"`
	Body        string   `json:"body,omitempty"` // print n.Out(true) where bodies are returned
	// Author is who wrote a team note (SPEC 18): front-matter key author,
	// written after tags; personal notes leave it empty (and out of the file).
	Author string `json:"author,omitempty"`
	// Team is the team store the note lives in ("" = the personal store).
	// Like scope, the tree decides it; it is never written to the file.
	Team string `json:"team,omitempty"`

	// extra holds front-matter keys this version does not know, kept verbatim
	// so rewriting a note written by a newer reference loses nothing.
	extra []extraKey
	// supersedesList remembers that the file wrote supersedes as a list.
	supersedesList bool
}

// Out is the JSON note shape of SPEC 2, the same in CLI --json, MCP results
// and the dashboard API: seed 003's fields, then prov_source, confidence and
// supersedes (always a list), and body last. Body is a pointer: results that
// return bodies carry it even when it is empty, lists leave it out.
type Out struct {
	ID         string   `json:"id"`
	Type       string   `json:"type"`
	Title      string   `json:"title"`
	Project    string   `json:"project"`
	MachineID  string   `json:"machine_id" jsonschema:"the machine the note was written on"`
	Scope      string   `json:"scope"`
	Tags       []string `json:"tags"`
	CreatedAt  string   `json:"created_at"`
	UpdatedAt  string   `json:"updated_at"`
	ProvSource string   `json:"prov_source"`
	Confidence float64  `json:"confidence"`
	Supersedes []string `json:"supersedes"`
	// Team and Author are set for a team's note only (SPEC 18).
	Team   string  `json:"team,omitempty"`
	Author string  `json:"author,omitempty"`
	Body   *string `json:"body,omitempty"`
}

// Out returns the note in the JSON shape; withBody says whether this result
// is one that returns bodies (get, search, write) or not (list).
func (n *Note) Out(withBody bool) Out {
	o := Out{ID: n.ID, Type: n.Type, Title: n.Title, Project: n.Project, MachineID: n.MachineID,
		Scope: n.Scope, Tags: n.Tags, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt,
		ProvSource: n.ProvSource, Confidence: n.Confidence, Supersedes: n.Supersedes, Team: n.Team, Author: n.Author}
	if o.Tags == nil {
		o.Tags = []string{}
	}
	if o.Supersedes == nil {
		o.Supersedes = []string{}
	}
	if withBody {
		b := ReadAsReference(n.Body)
		o.Body = &b
	}
	return o
}

// Outs is Out over a list.
func Outs(notes []*Note, withBody bool) []Out {
	out := make([]Out, len(notes))
	for i, n := range notes {
		out[i] = n.Out(withBody)
	}
	return out
}

// New returns a note with the reference's defaults filled in.
func New(typ, title, body string) *Note {
	return &Note{Type: typ, Title: title, Body: body, Project: Global, MachineID: "unknown",
		Scope: Portable, ProvSource: ProvHuman, Confidence: 1.0, Tags: []string{}, Supersedes: []string{}}
}

// Attribution is how a team's note is labelled wherever it is shown (the
// block, recall, search, the dashboard): "(team NAME, by AUTHOR)"; "" for
// a personal note.
func (n *Note) Attribution() string {
	if n.Team == "" {
		return ""
	}
	author := n.Author
	if author == "" {
		author = "unknown"
	}
	return "(team " + n.Team + ", by " + author + ")"
}

// TextKey is what the note says: its title and body, line ends and the
// space around them aside. Notes with one key say the same thing wherever
// they live (a personal note and the copy shared with a team), and inject
// and recall show it once.
func (n *Note) TextKey() string {
	body := strings.ReplaceAll(strings.ReplaceAll(n.Body, "\r\n", "\n"), "\r", "\n")
	return strings.TrimSpace(n.Title) + "\x00" + strings.TrimSpace(body)
}

// HasTag reports whether the note carries tag.
func (n *Note) HasTag(tag string) bool { return slices.Contains(n.Tags, tag) }

// CopyExtra carries unknown front-matter keys from src to n (used when an
// edit builds a fresh record from a form).
func (n *Note) CopyExtra(src *Note) {
	n.extra = slices.Clone(src.extra)
	n.supersedesList = src.supersedesList
}

// ExtraKeys lists the unknown front-matter keys kept from the file.
func (n *Note) ExtraKeys() []string {
	var ks []string
	for _, e := range n.extra {
		ks = append(ks, e.key)
	}
	return ks
}

// Validate checks everything that must hold before a note touches the disk.
func (n *Note) Validate() error {
	var errs []string
	if err := CheckID(n.ID); err != nil {
		errs = append(errs, err.Error())
	}
	if !slices.Contains(Types, n.Type) {
		errs = append(errs, fmt.Sprintf("invalid type %q (want one of %s)", n.Type, strings.Join(Types, ", ")))
	}
	if !slices.Contains(Scopes, n.Scope) {
		errs = append(errs, fmt.Sprintf("invalid scope %q (want one of %s)", n.Scope, strings.Join(Scopes, ", ")))
	}
	if !slices.Contains(ProvSources, n.ProvSource) {
		errs = append(errs, fmt.Sprintf("invalid prov_source %q (want one of %s)", n.ProvSource, strings.Join(ProvSources, ", ")))
	}
	if strings.TrimSpace(n.Title) == "" {
		errs = append(errs, "title must not be empty")
	}
	if n.Project == "" {
		errs = append(errs, "project must not be empty")
	}
	for _, s := range n.Supersedes {
		if !ValidID(s) {
			errs = append(errs, fmt.Sprintf("invalid supersedes id %q", s))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// UniqueTags drops empty and repeated tags, keeping first-seen order and
// each tag exactly as written. A set, not a scan of out, so 100,000 tags
// cost linear time before a limit rejects them.
func UniqueTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// ParseTags is the one rule for tags as a person or a model gives them
// (write --tags, the dashboard's form, MCP memory_write's tags): each
// string may hold several, separated by commas or line breaks, so "a,b"
// is two tags however it arrives (a tag never holds a comma: the form
// shows a note's tags joined by commas). Then CleanTags.
func ParseTags(given ...string) []string {
	var out []string
	for _, s := range given {
		out = append(out, strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' })...)
	}
	return CleanTags(out)
}

// CleanTags is for tags a user types (flags, forms, tool arguments): it
// trims, drops empties and collapses duplicates, keeping first-seen order.
func CleanTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		t = strings.TrimSpace(t)
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// OneLine makes a title one line of printable text: line breaks and tabs
// become spaces, other control and bidirectional-override characters go,
// runs of spaces collapse. Titles are printed raw into the model's context
// (inject) and the terminal (list): a newline there forges a "## [type]"
// heading, an escape sequence clears the screen or writes the clipboard.
func OneLine(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) ||
			r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		// Spacing a person chose stays: rewriting a note must not change
		// its bytes (a reference-written title keeps its double spaces).
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == '\u2028' || r == '\u2029' || r == ' ':
			space = true
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError:
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// ReadAsReference is text as the reference's reader returns it: it reads
// files in Python's text mode (universal newlines), so a CRLF or a lone CR
// in a file is one LF in every body it prints. The file keeps its bytes
// (a rewrite leaves them as written); only what is printed as JSON follows
// the reference.
func ReadAsReference(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
