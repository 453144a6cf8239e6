// Package native imports Claude Code's own auto-memory files
// (<claude dir>/projects/<slug>/memory/*.md) into the store as notes
// (SPEC 6.3), so what Claude Code remembers on one machine reaches the others.
package native

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"
	"gopkg.in/yaml.v3"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Problem is a native file that was not imported, and why.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Result counts what an import did. Skipped covers unchanged files and
// malformed ones; the malformed ones are also listed in Problems.
type Result struct {
	Imported int       `json:"imported"`
	Updated  int       `json:"updated"`
	Skipped  int       `json:"skipped"`
	Problems []Problem `json:"problems"`
	// Salvaged are files imported although their front-matter was not
	// valid YAML (what could not be read is said in the reason).
	Salvaged []Problem `json:"salvaged,omitempty"`
	// Redacted lists the native files whose note had secrets redacted.
	Redacted []Redaction `json:"redacted,omitempty"`
	// IDs are the notes created or updated.
	IDs []string `json:"ids"`
}

// Redaction names a native file and the kinds of secret its note lost.
type Redaction struct {
	Path  string   `json:"path"`
	Kinds []string `json:"kinds"`
}

// Report prints the per-file lines that follow Line: files skipped and why,
// files imported from front-matter that had to be salvaged, and files whose
// secrets were redacted (the native file keeps them).
func (r Result) Report(w io.Writer) {
	for _, p := range r.Problems {
		fmt.Fprintf(w, "import: skipped %s: %s\n", p.Path, p.Reason)
	}
	for _, p := range r.Salvaged {
		fmt.Fprintf(w, "import: salvaged %s: %s\n", p.Path, p.Reason)
	}
	for _, d := range r.Redacted {
		fmt.Fprintf(w, "import: redacted secrets from %s (%s); the note holds [REDACTED], the native file is unchanged\n", d.Path, strings.Join(d.Kinds, ", "))
	}
}

// Line is the printed summary.
func (r Result) Line() string {
	return fmt.Sprintf("import: imported=%d updated=%d skipped=%d", r.Imported, r.Updated, r.Skipped)
}

// Native memory types Claude Code writes; feedback is about how to work, so
// it becomes procedural, the rest are facts.
// Compiled on first use: every hook links this package through gitsync.
var kindRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`) })

const maxNative = 1 << 20

// statePath records, per native file, the content last imported on this
// machine. It lives beside config.json, outside the synced tree: another
// machine's import of a file with the same name must not make this machine
// rewrite the note back on every sync.
func statePath(home string) string { return filepath.Join(home, "native-import.json") }

type fileState struct {
	SHA256 string `json:"sha256"`
	ID     string `json:"id"`
}

// ID is the stable note id of a native memory file: a ULID-shaped value (26
// Crockford base32 characters) derived from "<slug>/<stem>", so every
// re-import, on every machine, addresses the same note.
func ID(slug, stem string) string {
	sum := sha256.Sum256([]byte(slug + "/" + stem))
	var u ulid.ULID
	copy(u[:], sum[:16])
	return u.String()
}

// Import mirrors every native memory file under claudeDir into st.
// Unchanged files are skipped, their notes deleted or not; a file whose
// content changed updates its note in place, or writes it again (a changed
// native type moves the note; its id stays); malformed files are reported
// and skipped. Only an unusable store is an error.
func Import(ctx context.Context, st *store.Store, claudeDir, machineID string) (Result, error) {
	res := Result{Problems: []Problem{}, IDs: []string{}}
	if claudeDir == "" {
		return res, nil
	}
	projects := filepath.Join(claudeDir, "projects")
	slugs, err := os.ReadDir(projects)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("import: %w", err)
	}
	state := loadState(st.Home())
	dirty := false
	bodies := &bodyIndex{st: st}
	cfg := config.Resolve(st.Home(), os.Getenv)
	for _, s := range slugs {
		if !s.IsDir() || strings.HasPrefix(s.Name(), ".") {
			continue
		}
		slug := s.Name()
		memDir := filepath.Join(projects, slug, "memory")
		entries, err := os.ReadDir(memDir)
		if err != nil {
			continue // no native memory for this project
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		proj := ""
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			name := e.Name()
			if !strings.HasSuffix(name, ".md") || strings.EqualFold(name, "MEMORY.md") || strings.HasPrefix(name, ".") {
				continue
			}
			path := filepath.Join(memDir, name)
			stem := strings.TrimSuffix(name, ".md")
			key := slug + "/" + stem
			data, err := readCapped(path)
			if err != nil {
				res.Skipped++
				res.Problems = append(res.Problems, Problem{Path: path, Reason: err.Error()})
				continue
			}
			sum := sha256.Sum256(data)
			hash := hex.EncodeToString(sum[:])
			id := ID(slug, stem)
			if prev, ok := state[key]; ok && prev.SHA256 == hash {
				// Imported before and unchanged since (SPEC 6.3). A note
				// that is gone was deleted (`rm`, the dashboard, a pull of
				// another machine's deletion): it stays deleted until
				// Claude Code changes the file.
				res.Skipped++
				continue
			}
			m, err := parse(data)
			if err != nil {
				res.Skipped++
				res.Problems = append(res.Problems, Problem{Path: path, Reason: err.Error()})
				continue
			}
			if proj == "" {
				proj = projectFor(filepath.Join(projects, slug), slug, cfg)
			}
			if m.salvaged != "" {
				res.Salvaged = append(res.Salvaged, Problem{Path: path, Reason: m.salvaged})
			}
			var kinds []string
			outcome, err := apply(ctx, st, id, proj, machineID, m, bodies, store.Redacted(&kinds))
			if err != nil {
				if ctx.Err() != nil {
					return res, ctx.Err()
				}
				res.Skipped++
				res.Problems = append(res.Problems, Problem{Path: path, Reason: err.Error()})
				continue
			}
			if len(kinds) > 0 {
				res.Redacted = append(res.Redacted, Redaction{Path: path, Kinds: kinds})
			}
			switch outcome {
			case created:
				res.Imported++
				res.IDs = append(res.IDs, id)
			case duplicate:
				res.Skipped++ // another note already holds this text; not recorded, so a later edit imports
			case updated:
				res.Updated++
				res.IDs = append(res.IDs, id)
			default:
				res.Skipped++
			}
			if outcome == duplicate {
				continue
			}
			state[key] = fileState{SHA256: hash, ID: id}
			dirty = true
		}
	}
	if dirty {
		if err := saveState(st.Home(), state); err != nil {
			return res, fmt.Errorf("import: save %s: %w", statePath(st.Home()), err)
		}
	}
	return res, nil
}

type outcome int

const (
	unchanged outcome = iota
	created
	updated
	duplicate // not imported: a note with the same text exists
)

// bodyIndex finds portable notes by their text (surrounding whitespace
// aside), as the reference does before importing a new native file: a
// native note already in the store (an earlier one-off import, a note
// written by hand) is not imported a second time. Built on first use.
type bodyIndex struct {
	st   *store.Store
	seen map[[32]byte]bool
}

func bodyKey(body string) [32]byte { return sha256.Sum256([]byte(strings.TrimSpace(body))) }

func (b *bodyIndex) has(ctx context.Context, body string) (bool, error) {
	if b.seen == nil {
		b.seen = map[[32]byte]bool{}
		err := b.st.EachBody(ctx, note.Portable, func(_, body string) error {
			b.seen[bodyKey(body)] = true
			return nil
		})
		if err != nil {
			b.seen = nil
			return false, err
		}
	}
	return b.seen[bodyKey(body)], nil
}

func (b *bodyIndex) add(body string) {
	if b.seen != nil {
		b.seen[bodyKey(body)] = true
	}
}

// apply writes the note for one parsed native file.
func apply(ctx context.Context, st *store.Store, id, proj, machineID string, m memory, bodies *bodyIndex, opts ...store.Option) (outcome, error) {
	kindTag := "kind:" + m.kind
	old, err := st.Get(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		// An unreadable file holds the id: replace it with the native content.
		old = nil
	}
	// The note holds the native text as the store writes it: redacted,
	// one-line title. Comparisons are with that.
	stored := note.Note{Title: m.title, Body: m.body}
	store.Clean(&stored)
	if old == nil {
		if dup, err := bodies.has(ctx, m.body); err != nil {
			return unchanged, err
		} else if dup {
			return duplicate, nil
		}
		n := note.New(m.noteType(), m.title, m.body)
		n.ID = id
		n.Project = proj
		n.MachineID = machineID
		n.ProvSource = note.ProvImport
		n.Tags = []string{"import", kindTag}
		now := note.Now()
		n.CreatedAt, n.UpdatedAt = now, now
		if err := st.Put(ctx, n, opts...); err != nil {
			return unchanged, err
		}
		bodies.add(m.body)
		return created, nil
	}
	// Tags a user added to the note stay; a stale kind: tag goes.
	tags := []string{"import", kindTag}
	for _, t := range old.Tags {
		if !strings.HasPrefix(t, "kind:") && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	if old.Type == m.noteType() && old.Title == stored.Title && old.Body == stored.Body && slices.Equal(old.Tags, tags) {
		return unchanged, nil
	}
	n := *old
	n.Type = m.noteType()
	n.Title = m.title
	n.Body = m.body
	n.Tags = tags
	n.MachineID = machineID
	n.ProvSource = note.ProvImport
	n.UpdatedAt = note.Now()
	// The project stays what the first import chose: machines that resolve
	// the project directory differently must not rewrite it back and forth.
	if err := st.Put(ctx, &n, opts...); err != nil {
		return unchanged, err
	}
	bodies.add(m.body)
	return updated, nil
}

// memory is one parsed native file; salvaged says why its front-matter
// was read line by line ("" when it was valid YAML).
type memory struct {
	title, body, kind, salvaged string
}

func (m memory) noteType() string {
	if m.kind == "feedback" {
		return note.Procedural
	}
	return note.Semantic
}

type frontMatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Type        string `yaml:"type"`
	Metadata    struct {
		Type string `yaml:"type"`
	} `yaml:"metadata"`
}

// parse reads a native memory file: YAML front-matter (name, description,
// metadata.type; Claude Code adds keys of its own) and a markdown body.
func parse(data []byte) (memory, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return memory{}, errors.New("not valid UTF-8")
	}
	// The reference reads native files in Python's text mode, where CRLF
	// and a lone CR both become LF; so must we, or the notes differ.
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return memory{}, errors.New("no YAML front-matter (the file must start with ---)")
	}
	rest := text[4:]
	var front, body string
	if i := strings.Index(rest, "\n---\n"); i >= 0 {
		front, body = rest[:i+1], rest[i+5:]
	} else if strings.HasSuffix(rest, "\n---") {
		front = rest[:len(rest)-3]
	} else if strings.HasPrefix(rest, "---\n") {
		body = rest[4:]
	} else {
		return memory{}, errors.New("front-matter has no closing ---")
	}
	if len(front) > note.MaxFrontMatter {
		return memory{}, fmt.Errorf("front-matter is %d bytes, over the %d-byte limit", len(front), note.MaxFrontMatter)
	}
	var fm frontMatter
	salvaged := ""
	if err := yaml.Unmarshal([]byte(front), &fm); err != nil {
		// Real native files carry unquoted colons in a description now and
		// then; like the reference, read name, description and
		// metadata.type line by line rather than lose the note.
		salvaged = fmt.Sprintf("front-matter is not valid YAML (%s); imported its name, description, metadata.type and body, read line by line",
			strings.TrimPrefix(err.Error(), "yaml: "))
		fm = lenient(front)
	}
	kind := strings.ToLower(strings.TrimSpace(fm.Metadata.Type))
	if kind == "" {
		kind = strings.ToLower(strings.TrimSpace(fm.Type)) // older layout: type at the top level
	}
	if kind == "" {
		return memory{}, errors.New("front-matter has no metadata.type (want user, feedback, project or reference)")
	}
	if !kindRE().MatchString(kind) {
		return memory{}, fmt.Errorf("metadata.type %q is not a memory type (want user, feedback, project or reference)", kind)
	}
	// Title and body as the reference takes them: the description (else
	// the name) stripped, and the body verbatim but for the one newline
	// its writer adds, so both import the same note, byte for byte.
	title := strings.TrimSpace(fm.Description)
	if title == "" {
		title = strings.TrimSpace(fm.Name)
	}
	if title == "" {
		return memory{}, errors.New("front-matter has neither description nor name")
	}
	body = strings.TrimSuffix(body, "\n")
	return memory{title: title, body: body, kind: kind, salvaged: salvaged}, nil
}

var lenientLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(\w+):\s*(.*)$`) })

// lenient reads name, description and metadata.type from front-matter that
// is not valid YAML, a line at a time, the way the reference salvages it:
// top-level name and description, and any type after a metadata: line;
// values lose surrounding spaces and quote characters.
func lenient(front string) frontMatter {
	var fm frontMatter
	inMeta := false
	for line := range strings.Lines(front) {
		line = strings.TrimSuffix(line, "\n")
		if strings.TrimRight(line, " \t") == "metadata:" {
			inMeta = true
			continue
		}
		m := lenientLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		indent, key := m[1], m[2]
		val := strings.Trim(strings.TrimSpace(m[3]), `"'`)
		switch {
		case key == "name" && indent == "":
			fm.Name = val
		case key == "description" && indent == "":
			fm.Description = val
		case key == "type" && inMeta:
			fm.Metadata.Type = val
		}
	}
	return fm
}

func readCapped(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > maxNative {
		return nil, fmt.Errorf("too large (%d bytes; the limit is %d)", info.Size(), maxNative)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxNative+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxNative {
		return nil, fmt.Errorf("too large (over %d bytes)", maxNative)
	}
	return data, nil
}

// projectFor is the project key of a Claude Code project directory: from the
// cwd recorded in one of its transcripts, else from the slug decoded back to
// a path. Either way the key is computed the way inject computes it.
func projectFor(dir, slug string, cfg config.Config) string {
	if cwd := transcriptCwd(dir); cwd != "" {
		return project.Here(cwd, cfg).Key
	}
	if p := decodeSlug(slug); p != "" {
		return project.Here(p, cfg).Key
	}
	return note.Global
}

// transcriptCwd reads the newest transcripts' first lines until one names a
// cwd. Reading is capped: transcripts can be hundreds of megabytes.
func transcriptCwd(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	type tf struct {
		path string
		mod  int64
	}
	var files []tf
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		if info, err := e.Info(); err == nil {
			files = append(files, tf{filepath.Join(dir, e.Name()), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	for i, f := range files {
		if i >= 5 {
			break
		}
		if cwd := firstCwd(f.path); cwd != "" {
			return cwd
		}
	}
	return ""
}

func firstCwd(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, 4<<20), 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line (a tool result): skip to its end.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil {
				return ""
			}
			continue
		}
		if bytes.Contains(line, []byte(`"cwd"`)) {
			var v struct {
				Cwd string `json:"cwd"`
			}
			// A path from another system (a Unix cwd read on Windows)
			// still names the project by its last component.
			if json.Unmarshal(line, &v) == nil && (filepath.IsAbs(v.Cwd) || strings.HasPrefix(v.Cwd, "/")) {
				return v.Cwd
			}
		}
		if err != nil {
			return ""
		}
	}
}

// decodeSlug turns Claude Code's project directory name back into a path.
// The encoding maps every character but a letter or digit to '-' ("/home/x"
// is "-home-x"; on Windows "C:\Users\x" is "C--Users-x"), so it is
// ambiguous; the longest existing directory at each step wins, and what
// cannot be found on this machine becomes one final component.
func decodeSlug(slug string) string {
	var cur, rest string
	switch {
	case runtime.GOOS == "windows" && len(slug) > 3 && isLetter(slug[0]) && slug[1:3] == "--":
		cur, rest = slug[:1]+`:\`, slug[3:]
	case runtime.GOOS != "windows" && strings.HasPrefix(slug, "-"):
		cur, rest = "/", slug[1:]
	default:
		return ""
	}
	parts := strings.Split(rest, "-")
	i := 0
	for i < len(parts) {
		found := 0
		for j := len(parts); j > i; j-- {
			cand := filepath.Join(cur, strings.Join(parts[i:j], "-"))
			if info, err := os.Stat(cand); err == nil && info.IsDir() {
				cur, found = cand, j
				break
			}
		}
		if found == 0 {
			return filepath.Join(cur, strings.Join(parts[i:], "-"))
		}
		i = found
	}
	return cur
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func loadState(home string) map[string]fileState {
	m := map[string]fileState{}
	if data, err := os.ReadFile(statePath(home)); err == nil {
		json.Unmarshal(data, &m)
	}
	return m
}

func saveState(home string, m map[string]fileState) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(statePath(home), append(data, '\n'), layout.FileMode)
}
