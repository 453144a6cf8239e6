package native

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const fixtureProjects = "../../testdata/fixtures/claude-code/projects"

const slug = "-home-dev-src-quotes-api"

// claudeDir copies the recorded Claude Code projects directory (session
// 5b24d0e4 wrote two native memory files and MEMORY.md) into a temp dir.
func claudeDir(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), ".claude")
	src := fixtureProjects
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, "projects", rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func memPath(dir, name string) string { return filepath.Join(dir, "projects", slug, "memory", name) }

// snapshot is every file under the store's memory/ with its bytes and mtime.
func snapshot(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(st.MemoryDir(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			info, _ := d.Info()
			rel, _ := filepath.Rel(st.MemoryDir(), p)
			out[filepath.ToSlash(rel)] = string(data) + "|" + info.ModTime().String()
		}
		return nil
	})
	return out
}

func TestImportFixture(t *testing.T) {
	ctx := context.Background()
	dir := claudeDir(t)
	st := openStore(t)
	r, err := Import(ctx, st, dir, "laptop")
	if err != nil {
		t.Fatal(err)
	}
	if r.Imported != 2 || r.Updated != 0 || r.Skipped != 0 || len(r.Problems) != 0 {
		t.Fatalf("first import: %+v", r)
	}
	if r.Line() != "import: imported=2 updated=0 skipped=0" {
		t.Errorf("line %q", r.Line())
	}
	zod, err := st.Get(ctx, ID(slug, "use-zod-for-validation"))
	if err != nil {
		t.Fatal(err)
	}
	if zod.Type != note.Procedural || zod.Title != "Validate every request body with a zod schema before touching the handler" ||
		zod.ProvSource != note.ProvImport || !zod.HasTag("import") || !zod.HasTag("kind:feedback") || zod.MachineID != "laptop" ||
		zod.Scope != note.Portable {
		t.Errorf("feedback memory: %+v", zod)
	}
	wantBody := "\nValidate request bodies with zod schemas in src/schemas/.\n\n**Why:** the user rejected hand-written validation twice.\n**How to apply:** add a schema next to the route; see [[quotes-api-layout]]."
	if zod.Body != wantBody {
		t.Errorf("body %q", zod.Body)
	}
	// The transcripts in the slug directory say the cwd was
	// /home/dev/src/quotes-api; that directory is not on this machine, so
	// the project key is its name, as inject would compute it.
	if zod.Project != "quotes-api" {
		t.Errorf("project %q", zod.Project)
	}
	layout, err := st.Get(ctx, ID(slug, "quotes-api-layout"))
	if err != nil {
		t.Fatal(err)
	}
	if layout.Type != note.Semantic || layout.Title != "Layout: routes in src/app.ts, handlers in src/*.ts" || !layout.HasTag("kind:project") {
		t.Errorf("project memory: %+v", layout)
	}
	if hits, _ := st.Search(ctx, store.Query{Text: "zod schema", K: 8}); len(hits) == 0 || hits[0].ID != zod.ID {
		t.Errorf("imported note not searchable: %v", hits)
	}
	if n, _ := st.Count(ctx, store.Filter{}); n != 2 {
		t.Errorf("MEMORY.md must not be imported; %d notes", n)
	}

	// Re-running changes nothing: same files, same bytes, same mtimes.
	before := snapshot(t, st)
	r, err = Import(ctx, st, dir, "laptop")
	if err != nil || r.Imported != 0 || r.Updated != 0 || r.Skipped != 2 {
		t.Fatalf("re-import: %+v %v", r, err)
	}
	if after := snapshot(t, st); !equal(before, after) {
		t.Errorf("re-import changed files:\n%v\n%v", before, after)
	}
}

func TestImportUpdatesMovesAndReportsMalformed(t *testing.T) {
	ctx := context.Background()
	dir := claudeDir(t)
	st := openStore(t)
	if _, err := Import(ctx, st, dir, "laptop"); err != nil {
		t.Fatal(err)
	}
	id := ID(slug, "use-zod-for-validation")
	first, _ := st.Get(ctx, id)

	// Editing the native file updates the same note.
	p := memPath(dir, "use-zod-for-validation.md")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "in src/schemas/.", "in src/schemas/, one per route.", 1)), 0o644)
	r, err := Import(ctx, st, dir, "laptop")
	if err != nil || r.Updated != 1 || r.Imported != 0 || r.Skipped != 1 {
		t.Fatalf("after an edit: %+v %v", r, err)
	}
	n, _ := st.Get(ctx, id)
	if !strings.Contains(n.Body, "one per route") || n.CreatedAt != first.CreatedAt || n.ID != id {
		t.Errorf("updated note: %+v", n)
	}

	// A tag the user added survives the update.
	n.Tags = append(n.Tags, "mine")
	st.Put(ctx, n)

	// Changing the native type moves the note (procedural -> semantic) without a second copy.
	data, _ = os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "type: feedback", "type: user", 1)), 0o644)
	r, err = Import(ctx, st, dir, "laptop")
	if err != nil || r.Updated != 1 {
		t.Fatalf("after a type change: %+v %v", r, err)
	}
	var copies []string
	filepath.WalkDir(st.Home(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == id+".md" {
			copies = append(copies, p)
		}
		return nil
	})
	if len(copies) != 1 || !strings.Contains(copies[0], filepath.Join("memory", "semantic")) {
		t.Fatalf("note files for %s: %v", id, copies)
	}
	n, _ = st.Get(ctx, id)
	if n.Type != note.Semantic || !n.HasTag("kind:user") || n.HasTag("kind:feedback") || !n.HasTag("mine") {
		t.Errorf("moved note: %+v", n)
	}
	if c, _ := st.Count(ctx, store.Filter{}); c != 2 {
		t.Errorf("index holds %d notes after the move, want 2", c)
	}

	// Malformed files are reported and skipped; the good ones still import.
	bad := map[string]string{
		"no-front-matter.md": "just text\n",
		"bad-yaml.md":        "---\nname: [unclosed\n---\nbody\n",
		"no-type.md":         "---\nname: x\ndescription: y\n---\nbody\n",
		"no-title.md":        "---\nmetadata:\n  type: user\n---\nbody\n",
		"unclosed.md":        "---\nname: x\nmetadata:\n  type: user\n",
		"binary.md":          "---\nname: \xff\xfe\n---\n",
	}
	for name, text := range bad {
		os.WriteFile(memPath(dir, name), []byte(text), 0o644)
	}
	os.WriteFile(memPath(dir, "fresh.md"), []byte("---\nname: fresh\nmetadata:\n  type: reference\n---\nsee the runbook\n"), 0o644)
	r, err = Import(ctx, st, dir, "laptop")
	if err != nil {
		t.Fatalf("malformed files must not fail the import: %v", err)
	}
	if r.Imported != 1 || len(r.Problems) != len(bad) || r.Skipped != 2+len(bad) {
		t.Fatalf("with malformed files: %+v", r)
	}
	for _, p := range r.Problems {
		if p.Reason == "" || !strings.HasPrefix(p.Path, dir) {
			t.Errorf("problem %+v", p)
		}
	}
	fresh, err := st.Get(ctx, ID(slug, "fresh"))
	if err != nil || fresh.Title != "fresh" || fresh.Type != note.Semantic || !fresh.HasTag("kind:reference") {
		t.Errorf("name used as title when there is no description: %+v %v", fresh, err)
	}
}

func TestImportWithoutClaudeDir(t *testing.T) {
	st := openStore(t)
	r, err := Import(context.Background(), st, filepath.Join(t.TempDir(), "nope"), "m")
	if err != nil || r.Imported+r.Updated+r.Skipped != 0 {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestIDIsStableAndULIDShaped(t *testing.T) {
	a, b := ID(slug, "x"), ID(slug, "x")
	if a != b || a == ID(slug, "y") || a == ID("-other", "x") {
		t.Fatal("ids not stable or not distinct")
	}
	if len(a) != 26 || !note.ValidID(a) {
		t.Fatalf("id %q", a)
	}
	if _, err := ulid.ParseStrict(a); err != nil {
		t.Fatalf("not a ULID: %v", err)
	}
}

func TestProjectFromSlugWhenNoTranscript(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "src", "my-api")
	os.MkdirAll(proj, 0o755)
	// Claude Code's encoding: every character but a letter or digit is '-'
	// (on Windows C:\Users\x\src\my-api is C--Users-x-src-my-api).
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(proj, "-")
	if got := decodeSlug(slug); got != proj {
		t.Fatalf("decodeSlug(%q) = %q, want %q", slug, got, proj)
	}
	dir := filepath.Join(t.TempDir(), "projects", slug)
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "m.md"), []byte("---\nname: m\nmetadata:\n  type: project\n---\nbody\n"), 0o644)
	st := openStore(t)
	if _, err := Import(context.Background(), st, filepath.Dir(filepath.Dir(dir)), "m"); err != nil {
		t.Fatal(err)
	}
	n, err := st.Get(context.Background(), ID(slug, "m"))
	if err != nil || n.Project != "my-api" {
		t.Fatalf("project from the decoded slug: %+v %v", n, err)
	}
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

const goldens = "../../testdata/fixtures/interop/native"

// goldenNotes are the notes the reference's importer writes for the
// fixture's native files (machine laptop, project quotes-api), by id.
func goldenNotes(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(goldens + "/*/*.md")
	if len(files) != 2 {
		t.Fatalf("golden files: %v", files)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = data
	}
	return out
}

// Our import takes what the reference takes: same id, type, title, tags
// and body, the body verbatim (its leading blank line included).
func TestImportMatchesReferenceImport(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Import(ctx, st, claudeDir(t), "laptop"); err != nil {
		t.Fatal(err)
	}
	for rel, data := range goldenNotes(t) {
		want, err := note.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.Get(ctx, want.ID)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if got.Type != want.Type || got.Title != want.Title || got.Body != want.Body || strings.Join(got.Tags, ",") != strings.Join(want.Tags, ",") {
			t.Errorf("%s:\n got %q %q %q %v\nwant %q %q %q %v", rel, got.Type, got.Title, got.Body, got.Tags, want.Type, want.Title, want.Body, want.Tags)
		}
	}
}

// A machine moving over from the reference has the reference's imported
// notes; our first import must leave every one of them untouched.
func TestImportLeavesReferenceImportsAlone(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	for rel, data := range goldenNotes(t) {
		p := filepath.Join(home, "memory", filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	before := snapshot(t, st)
	r, err := Import(ctx, st, claudeDir(t), "laptop")
	if err != nil || r.Imported != 0 || r.Updated != 0 || r.Skipped != 2 {
		t.Fatalf("import over the reference's notes: %+v %v", r, err)
	}
	if after := snapshot(t, st); !equal(before, after) {
		t.Errorf("import rewrote the reference's notes:\n%v\n%v", before, after)
	}
}

// A native file whose front-matter is not valid YAML (an unquoted colon in
// the description, as real files have) is salvaged like the reference
// salvages it, and reported; a native file whose text a note already holds
// is not imported a second time.
func TestImportSalvagesAndSkipsDuplicateText(t *testing.T) {
	ctx := context.Background()
	dir := claudeDir(t)
	st := openStore(t)
	os.WriteFile(memPath(dir, "co-author.md"), []byte("---\nname: co-author\ndescription: Commit trailer is Co-Authored-By: Claude\nmetadata:\n  type: feedback\n  extra: [unclosed\n---\n\nAlways add the trailer.\n"), 0o644)
	hand := note.New(note.Semantic, "Layout, by hand", "  Routes live in src/app.ts; each handler is its own file under src/. Deadline for v1: 2026-12-15.\n")
	if _, err := st.Write(ctx, hand); err != nil {
		t.Fatal(err)
	}
	r, err := Import(ctx, st, dir, "laptop")
	if err != nil {
		t.Fatal(err)
	}
	if r.Imported != 2 || r.Skipped != 1 || len(r.Problems) != 0 || len(r.Salvaged) != 1 {
		t.Fatalf("result %+v", r)
	}
	if !strings.Contains(r.Salvaged[0].Reason, "not valid YAML") || !strings.HasSuffix(r.Salvaged[0].Path, "co-author.md") {
		t.Errorf("salvage report %+v", r.Salvaged[0])
	}
	co, err := st.Get(ctx, ID(slug, "co-author"))
	if err != nil || co.Title != "Commit trailer is Co-Authored-By: Claude" || co.Type != note.Procedural || co.Body != "\nAlways add the trailer." {
		t.Errorf("salvaged note %+v %v", co, err)
	}
	if _, err := st.Get(ctx, ID(slug, "quotes-api-layout")); err == nil {
		t.Error("a native file whose text is already a note was imported again")
	}
}

// A note deleted after its import stays deleted while its native file is
// unchanged (every sync imports: it came back at the next session), and
// is imported again once Claude Code changes the file.
func TestDeletedImportStaysDeletedUntilTheFileChanges(t *testing.T) {
	ctx := context.Background()
	dir := claudeDir(t)
	st := openStore(t)
	if _, err := Import(ctx, st, dir, "laptop"); err != nil {
		t.Fatal(err)
	}
	id := ID(slug, "use-zod-for-validation")
	if err := st.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	r, err := Import(ctx, st, dir, "laptop")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, id); err == nil || r.Imported != 0 || r.Skipped != 2 {
		t.Fatalf("a deleted import came back from its unchanged native file: %+v", r)
	}
	path := memPath(dir, "use-zod-for-validation.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, "\nAlso for query strings.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err = Import(ctx, st, dir, "laptop"); err != nil || r.Imported != 1 {
		t.Fatalf("the changed native file was not imported: %+v %v", r, err)
	}
	if n, err := st.Get(ctx, id); err != nil || !strings.Contains(n.Body, "query strings") {
		t.Fatalf("re-imported note: %+v %v", n, err)
	}
}
