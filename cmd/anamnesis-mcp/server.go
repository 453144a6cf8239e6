package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/status"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// Limits on what memory_write accepts: the store's write limits (pkg/note),
// checked here too so the model gets every problem in one tool error and
// sees them in the input schema.
const (
	maxBody      = note.MaxBody
	maxTitle     = note.MaxTitle
	maxProject   = note.MaxProject
	maxTags      = note.MaxTags
	maxTag       = note.MaxTag
	defaultK     = 8
	maxK         = 50
	defaultLimit = 50
	maxLimit     = 1000
	defaultPage  = 30000
)

const instructions = `Anamnesis is the user's long-term memory: markdown notes shared across their machines and Claude Code sessions.

When to search: at the start of a task, and whenever the user mentions earlier work, a past decision, a preference, a convention, or something "we did before", call memory_search with a few specific keywords (add project to stay within one project). Search before you write, so you do not store what is already there. memory_search returns notes with bodies; memory_list returns titles only, newest first; memory_get reads one note whole (a very long one in pages).

When to write: when something durable was learned that a later session would want: a verified fix, procedure or decision (type procedural), a fact, preference or convention (type semantic), or what happened in a notable event (type episodic). One idea per note, a specific title, a self-contained body, and the project it belongs to (default "global"). Use scope "machine-local" for things true only on this machine (local paths, hardware). Never store secrets, credentials or passing chatter.

memory_sync exchanges notes with the user's other machines over git; run it when the user asks, or after writing notes they need elsewhere right away. memory_status reports counts and sync state.`

// app is the state one server process holds: where the store is, the machine
// id bound at start, and the store itself, opened on first use so that
// starting the server (initialize, tools/list) never waits on the index.
type app struct {
	home      string
	machineID string
	getenv    config.Env
	log       *log.Logger

	mu sync.Mutex
	st *store.Store
}

func (a *app) store(ctx context.Context) (*store.Store, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st != nil {
		if !a.st.Foreign(ctx) {
			return a.st, nil
		}
		// The reference implementation rebuilt the index with its schema
		// while this session ran: open it again, which rebuilds it. A call
		// still running on the old store fails as it would have anyway.
		a.st.Close()
		a.st = nil
	}
	// store.Open itself waits out another process's rebuild of the index.
	st, err := store.Open(ctx, a.home)
	if err != nil {
		// Not cached: the next call tries again (the disk may come back).
		return nil, fmt.Errorf("cannot open the store at %s: %v", a.home, err)
	}
	a.st = st
	return st, nil
}

func (a *app) close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st == nil {
		return nil
	}
	err := a.st.Close()
	a.st = nil
	return err
}

// serverOptions tunes newServer (tests validate every structured result
// against its declared output schema).
type serverOptions struct {
	validateOutput bool
}

func newServer(a *app, o serverOptions) *server.MCPServer {
	opts := []server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions),
		server.WithRecovery(),
		server.WithTitle("Anamnesis memory"),
	}
	if o.validateOutput {
		opts = append(opts, server.WithOutputSchemaValidation())
	}
	s := server.NewMCPServer("anamnesis", cli.VersionString(), opts...)
	for _, t := range a.tools() {
		s.AddTool(t.Tool, t.Handler)
	}
	return s
}

// hints sets all four annotation hints (mcp-go's defaults say destructive
// and open-world, which would make clients ask before every search) and the title.
func hints(title string, readOnly, destructive, idempotent, openWorld bool) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.Title = title
		t.Annotations = mcp.ToolAnnotation{Title: title, ReadOnlyHint: &readOnly,
			DestructiveHint: &destructive, IdempotentHint: &idempotent, OpenWorldHint: &openWorld}
	}
}

// order lists the input properties in the order the model should read them.
func order(names ...string) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.InputSchema.PropertyOrder = names
		t.InputSchema.AdditionalProperties = false
	}
}

var (
	typeDesc  = "procedural (verified how-tos, decisions, fixes), semantic (facts, preferences, conventions) or episodic (what happened)"
	scopeDesc = "portable (synced to the user's other machines) or machine-local (this machine only, never synced)"
)

func (a *app) tools() []server.ServerTool {
	readOnly := func(title string) mcp.ToolOption { return hints(title, true, false, true, false) }
	return []server.ServerTool{
		{Tool: mcp.NewTool("memory_search",
			mcp.WithDescription("Search the user's memory notes by keywords (BM25 over titles, bodies and tags; any word may match, best matches first; superseded notes are left out). Returns up to k notes with their bodies. Use it before starting work and before writing a note. Very long bodies are trimmed to keep the result readable, with a marker naming the id to read in full with memory_get."),
			readOnly("Search memory"),
			mcp.WithString("query", mcp.Required(), mcp.Description("Keywords to look for, e.g. \"sqlite busy timeout\". Only words count; punctuation and search operators are ignored.")),
			mcp.WithString("project", mcp.Description("Only notes of this project (default: all projects).")),
			mcp.WithString("type", mcp.Enum(note.Types...), mcp.Description("Only notes of this type: "+typeDesc+".")),
			mcp.WithString("scope", mcp.Enum(note.Scopes...), mcp.Description("Only notes of this scope: "+scopeDesc+".")),
			mcp.WithInteger("k", mcp.DefaultNumber(defaultK), mcp.Min(1), mcp.Max(maxK), mcp.Description("How many notes to return at most (1 to 50).")),
			mcp.WithString("team", mcp.Pattern(teamPattern), mcp.Description("Only notes of this team the user joined (default: the user's own notes and every team's; team notes carry team and author).")),
			order("query", "project", "type", "scope", "k", "team"),
			outputSchema[searchResult](),
		), Handler: a.search},
		{Tool: mcp.NewTool("memory_list",
			mcp.WithDescription("List the user's memory notes newest first, with titles and metadata but no bodies (read one with memory_get). Pages with limit and offset; the result says where the next page starts."),
			readOnly("List memory notes"),
			mcp.WithString("project", mcp.Description("Only notes of this project (default: all projects).")),
			mcp.WithString("type", mcp.Enum(note.Types...), mcp.Description("Only notes of this type: "+typeDesc+".")),
			mcp.WithString("scope", mcp.Enum(note.Scopes...), mcp.Description("Only notes of this scope: "+scopeDesc+".")),
			mcp.WithInteger("limit", mcp.DefaultNumber(defaultLimit), mcp.Min(1), mcp.Max(maxLimit), mcp.Description("How many notes to return at most (1 to 1000).")),
			mcp.WithInteger("offset", mcp.DefaultNumber(0), mcp.Min(0), mcp.Description("How many notes to skip (for the next page, pass the previous result's next_offset).")),
			mcp.WithString("team", mcp.Pattern(teamPattern), mcp.Description("Only notes of this team the user joined (default: the user's own notes and every team's; team notes carry team and author).")),
			order("project", "type", "scope", "limit", "offset", "team"),
			outputSchema[listPage](),
		), Handler: a.list},
		{Tool: mcp.NewTool("memory_status",
			mcp.WithDescription("Report the memory store's health: note counts by type, project, scope and machine, unreadable files, and the git sync state."),
			readOnly("Memory status"),
			order(),
			outputSchema[status.Report](),
		), Handler: a.status},
		{Tool: mcp.NewTool("memory_write",
			mcp.WithDescription("Save one durable memory note (always a new note with a fresh id; nothing is overwritten). Write what a later session would want to know: a verified fix or procedure, a fact or preference, a notable event. One idea per note; search first to avoid duplicates. Never store secrets."),
			hints("Write a memory note", false, false, false, false),
			mcp.WithString("type", mcp.Required(), mcp.Enum(note.Types...), mcp.Description("The kind of note: "+typeDesc+".")),
			mcp.WithString("title", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(maxTitle), mcp.Description("A short, specific title (what a search should find).")),
			mcp.WithString("body", mcp.Required(), mcp.Description("The note itself, in markdown, self-contained (at most 1 MiB).")),
			mcp.WithString("project", mcp.DefaultString(note.Global), mcp.Description("The project the note belongs to (default \"global\" for notes that hold everywhere).")),
			mcp.WithArray("tags", mcp.WithStringItems(mcp.MaxLength(maxTag)), mcp.MaxItems(maxTags), mcp.Description("Keywords for the note (optional).")),
			mcp.WithString("scope", mcp.DefaultString(note.Portable), mcp.Enum(note.Scopes...), mcp.Description("Where the note lives: "+scopeDesc+".")),
			mcp.WithString("team", mcp.Pattern(teamPattern), mcp.Description("Share the note with this team the user joined (its git remote, at the next sync) instead of keeping it personal. Only when the user asks to share it.")),
			order("type", "title", "body", "project", "tags", "scope", "team"),
			outputSchema[writeResult](),
		), Handler: a.write},
		{Tool: mcp.NewTool("memory_sync",
			mcp.WithDescription("Exchange notes with the user's other machines: commit local notes, pull and push over git, then update the search index. Run it when the user asks, or after writing notes they need elsewhere right away."),
			hints("Sync memory with other machines", false, false, true, true),
			mcp.WithBoolean("force", mcp.DefaultBool(false), mcp.Description("Reserved; has no effect.")),
			order("force"),
			outputSchema[syncResult](),
		), Handler: a.syncTool},
		{Tool: mcp.NewTool("memory_get",
			mcp.WithDescription("Read one memory note with its full body, by the id memory_search or memory_list returned. A very long body comes in pages: the result's page.next_offset says where the next one starts."),
			readOnly("Read a memory note"),
			mcp.WithString("id", mcp.Required(), mcp.Pattern(`^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$`), mcp.Description("The note's id.")),
			mcp.WithInteger("offset", mcp.DefaultNumber(0), mcp.Min(0), mcp.Description("Character offset in the body to start from (0 for the beginning; for the next page, the previous result's page.next_offset).")),
			mcp.WithInteger("max_chars", mcp.DefaultNumber(defaultPage), mcp.Min(1), mcp.Max(maxResult), mcp.Description("Most body characters to return (1 to 40000; fewer come back if the result would otherwise pass 40,000 characters).")),
			order("id", "offset", "max_chars"),
			outputSchema[getResult](),
		), Handler: a.get},
	}
}

// toolError is a tool error result: the model sees it and can correct itself.
// Messages are clipped: they can quote arguments and git output.
func toolError(tool string, err error) *mcp.CallToolResult {
	return mcp.NewToolResultError(clip(tool+": "+err.Error(), 8000))
}

// structured returns v as structured content and the same JSON as text.
func structured(v any) *mcp.CallToolResult {
	b := encode(v)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.TextContent{Type: "text", Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}
}

// internal reports a failure that is not the caller's fault: logged to
// stderr, returned as a tool error so the server keeps serving.
func (a *app) internal(tool string, err error) *mcp.CallToolResult {
	a.log.Printf("%s: %v", tool, err)
	return toolError(tool, err)
}

// joined refuses a team filter naming a team this person has not joined:
// an empty result would read as "the team has no such note".
func (a *app) joined(name string) error {
	if name == "" {
		return nil
	}
	return team.Joined(a.syncConfig(), name)
}

func (a *app) search(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "memory_search"
	r := readArgs(req.Params.Arguments, "query", "project", "type", "scope", "k", "team")
	query := r.required("query", "a few keywords to look for")
	f := store.Filter{Project: r.str("project", ""), Type: r.enum("type", "", note.Types), Scope: r.enum("scope", "", note.Scopes)}
	k := r.integer("k", defaultK, 1, maxK)
	f.Team, f.Teams = r.team(), true
	if err := r.err(); err != nil {
		return toolError(tool, err), nil
	}
	if err := a.joined(f.Team); err != nil {
		return toolError(tool, err), nil
	}
	st, err := a.store(ctx)
	if err != nil {
		return a.internal(tool, err), nil
	}
	found, err := st.Search(ctx, store.Query{Text: query, Filter: f, K: k})
	if err != nil {
		return a.internal(tool, err), nil
	}
	hits, late := store.NotesHeld(found)
	held, err := heldCount(ctx, st, f)
	if err != nil {
		return a.internal(tool, err), nil
	}
	held += late // edited since indexed: the index does not count them yet
	out := make([]noteOut, len(hits))
	for i, n := range hits {
		out[i] = toOut(n, true)
	}
	res := func(ns []noteOut) searchResult {
		return searchResult{Result: ns, Held: held, Hint: joinHints(dropHint(len(out)-len(ns)), heldHint(held))}
	}
	fitted, _ := fitBodies(out, func(ns []noteOut) any { return res(ns) })
	return structured(res(fitted)), nil
}

// heldCount counts the notes of f's scope the screen holds.
func heldCount(ctx context.Context, st *store.Store, f store.Filter) (int, error) {
	f.Held, f.Limit, f.Offset = true, 0, 0
	return st.Count(ctx, f)
}

func heldHint(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d notes in this scope are held: they read like instructions to an agent and stay out of results until the user reviews and releases them (anamnesis status lists them).", n)
}

func joinHints(hs ...string) string {
	var out []string
	for _, h := range hs {
		if h != "" {
			out = append(out, h)
		}
	}
	return strings.Join(out, " ")
}

func dropHint(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d lower-ranked notes were left out to keep the result under 40,000 characters; use a narrower query or a smaller k.", n)
}

func (a *app) list(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "memory_list"
	r := readArgs(req.Params.Arguments, "project", "type", "scope", "limit", "offset", "team")
	f := store.Filter{Project: r.str("project", ""), Type: r.enum("type", "", note.Types), Scope: r.enum("scope", "", note.Scopes)}
	f.Team, f.Teams = r.team(), true
	f.Limit = r.integer("limit", defaultLimit, 1, maxLimit)
	f.Offset = r.integer("offset", 0, 0, -1)
	if err := r.err(); err != nil {
		return toolError(tool, err), nil
	}
	if err := a.joined(f.Team); err != nil {
		return toolError(tool, err), nil
	}
	st, err := a.store(ctx)
	if err != nil {
		return a.internal(tool, err), nil
	}
	notes, err := st.List(ctx, f)
	if err != nil {
		return a.internal(tool, err), nil
	}
	total, err := st.Count(ctx, store.Filter{Project: f.Project, Type: f.Type, Scope: f.Scope, Team: f.Team, Teams: f.Teams})
	if err != nil {
		return a.internal(tool, err), nil
	}
	held, err := heldCount(ctx, st, f)
	if err != nil {
		return a.internal(tool, err), nil
	}
	out := make([]noteOut, len(notes))
	for i, n := range notes {
		out[i] = toOut(n, false)
	}
	page := func(n int) listPage {
		p := listPage{Result: out[:n], Offset: f.Offset, Total: total, Held: held}
		if next := f.Offset + n; next < total {
			p.NextOffset = &next
			p.Hint = fmt.Sprintf("Showing %d of %d notes from offset %d; call memory_list with offset %d for more.", n, total, f.Offset, next)
		}
		p.Hint = joinHints(p.Hint, heldHint(held))
		return p
	}
	n := len(out)
	if !fits(page(n)) {
		n = searchInts(n, func(k int) bool { return !fits(page(k)) }) - 1
		n = max(n, 0)
	}
	return structured(page(n)), nil
}

func (a *app) status(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "memory_status"
	if err := readArgs(req.Params.Arguments).err(); err != nil {
		return toolError(tool, err), nil
	}
	st, err := a.store(ctx)
	if err != nil {
		return a.internal(tool, err), nil
	}
	rep, err := status.Build(ctx, st, a.machineID, briefSync(gitsync.State(ctx, a.home, a.syncConfig().Remote, st)))
	if err != nil {
		return a.internal(tool, err), nil
	}
	rep = rep.ForModel()
	for i, p := range rep.Problems {
		rep.Problems[i].Reason = lines(p.Reason, 500)
	}
	s := rep
	return structured(fitStatus(s)), nil
}

func (a *app) write(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "memory_write"
	r := readArgs(req.Params.Arguments, "type", "title", "body", "project", "tags", "scope", "team")
	typ := r.required("type", "one of "+strings.Join(note.Types, ", "))
	if typ != "" {
		typ = r.enum("type", "", note.Types)
	}
	title := r.required("title", "a short, specific title")
	body := r.required("body", "the note's text")
	project := r.str("project", note.Global)
	tags := r.strList("tags")
	scope := r.enum("scope", note.Portable, note.Scopes)
	teamName := r.team()
	if _, given := r.get("title"); given && strings.TrimSpace(title) == "" {
		r.fail("title must not be empty")
	}
	r.maxLen("title", title, maxTitle)
	if err := note.CheckBody(body); err != nil {
		r.fail("%v", err)
	}
	// Spaces around a key are no part of it (no project resolves to
	// " quotes-api "): kept, the note would be in no project's block,
	// list or search.
	project = strings.TrimSpace(project)
	if project == "" {
		r.fail("project must not be empty (leave it out for \"global\")")
	}
	r.maxLen("project", project, maxProject)
	tags = note.ParseTags(tags...) // "a,b" is two tags, as write --tags takes them
	if len(tags) > maxTags {
		r.fail("%d tags given; at most %d are allowed", len(tags), maxTags)
	}
	for _, t := range tags {
		r.maxLen("tag "+fmt.Sprintf("%q", clip(t, 40)), t, maxTag)
	}
	if err := r.err(); err != nil {
		return toolError(tool, err), nil
	}
	st, err := a.store(context.WithoutCancel(ctx))
	if err != nil {
		return a.internal(tool, err), nil
	}
	n := note.New(typ, title, body)
	n.Project, n.Tags, n.Scope, n.MachineID, n.ProvSource = project, tags, scope, a.machineID, note.ProvHuman
	if teamName != "" {
		// The user's team, the note portable, its author the user's
		// identity (pkg/team); the store redacts and screens it.
		if err := team.Prepare(ctx, a.syncConfig(), n, teamName); err != nil {
			return toolError(tool, err), nil
		}
	}
	// A write that has started finishes even if the client goes away; the
	// store waits out another process holding the index's write lock. The
	// store redacts secrets; a model has no way to keep one. The text is
	// the model's: the store screens it as a model's note, and its file
	// names MCP as the model that wrote it (prov_model: mcp).
	var redacted []string
	written, err := st.Write(context.WithoutCancel(ctx), n, store.Redacted(&redacted), store.ByModel("mcp"))
	if err != nil {
		return a.internal(tool, err), nil
	}
	inject.RefreshStale(context.WithoutCancel(ctx), st)
	held := screen.Reason(written.Tags)
	if !screen.Held(written.Tags) {
		held = ""
	}
	res := func(ns []noteOut) any {
		return writeResult{noteOut: ns[0], Redacted: redacted, Held: held, Hint: joinHints(redactHint(redacted), writeHeldHint(written, held))}
	}
	out, _ := fitBodies([]noteOut{toOut(written, true)}, res)
	return structured(res(out)), nil
}

// writeResult is the written note, what the store redacted from it, and why
// the screen held it.
type writeResult struct {
	noteOut
	Redacted []string `json:"redacted,omitempty" jsonschema:"kinds of secret replaced by [REDACTED]"`
	Held     string   `json:"held,omitempty" jsonschema:"why the screen held the note (it reads as an instruction to the agent); empty when it did not"`
	Hint     string   `json:"hint,omitempty"`
}

// writeHeldHint tells the model what a held write means, for the user: a
// team's note is held in every member's memory (team.HeldNotice says so).
func writeHeldHint(n *note.Note, reason string) string {
	if reason == "" {
		return ""
	}
	if msg := team.HeldNotice(n); msg != "" {
		return "The screen held this note: " + msg + ". Tell the user."
	}
	return "The screen held this note (" + reason + "): it reads as an instruction to the agent rather than knowledge. It is saved, but no session, search or list shows it until a person releases it (anamnesis release " + n.ID + ", or the dashboard). Tell the user."
}

func redactHint(kinds []string) string {
	if len(kinds) == 0 {
		return ""
	}
	return "Secrets were redacted before the note was saved (" + strings.Join(kinds, ", ") +
		"); the note holds [REDACTED] in their place. Memory syncs to every machine and lives in git history: never store credentials in it."
}

func (a *app) get(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "memory_get"
	r := readArgs(req.Params.Arguments, "id", "offset", "max_chars")
	id := r.required("id", "the id memory_search or memory_list returned")
	offset := r.integer("offset", 0, 0, -1)
	maxChars := r.integer("max_chars", defaultPage, 1, maxResult)
	if _, given := r.get("id"); given && !note.ValidID(id) {
		r.fail("id %q is not a note id (ids are 1 to 128 letters, digits, '_' or '-', starting with a letter or digit)", clip(id, 140))
	}
	if err := r.err(); err != nil {
		return toolError(tool, err), nil
	}
	st, err := a.store(ctx)
	if err != nil {
		return a.internal(tool, err), nil
	}
	n, err := st.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return toolError(tool, fmt.Errorf("no note with id %q (ids come from memory_search or memory_list)", id)), nil
	}
	if err != nil {
		return a.internal(tool, err), nil
	}
	if screen.Held(n.Tags) {
		return toolError(tool, fmt.Errorf("note %s is held: it %s, so it stays out of the model's context until the user reviews and releases it", id, screen.Describe(screen.Reason(n.Tags)))), nil
	}
	total := len([]rune(n.Body))
	if offset > total {
		return toolError(tool, fmt.Errorf("offset must be from 0 to %d, the body's length in characters (got %d)", total, offset)), nil
	}
	g := getResult{noteOut: toOut(n, true)}
	pageBody(&g, n.Body, offset, maxChars)
	return structured(g), nil
}

// searchInts is sort.Search, kept local so the list fitting reads plainly.
func searchInts(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
