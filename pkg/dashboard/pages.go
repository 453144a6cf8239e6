package dashboard

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/status"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// Page sizes.
const (
	pageSize      = 50
	searchDefault = 50
	recentCount   = 8
)

func (s *Server) git() git { return git{dir: s.store.MemoryDir()} }

// kv is one row of a count table.
type kv struct {
	Key   string
	Count int
}

func sortedCounts(m map[string]int, limit int) []kv {
	out := make([]kv, 0, len(m))
	for k, v := range m {
		out = append(out, kv{k, v})
	}
	slices.SortFunc(out, func(a, b kv) int { return cmp.Or(b.Count-a.Count, strings.Compare(a.Key, b.Key)) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// ---- overview ----

type overviewData struct {
	status.Report
	Types       []kv
	Scopes      []kv
	Projects    []kv
	MoreProj    int
	Machines    []kv
	Recent      []*note.Note
	IsRepo      bool
	Head        *Commit
	Origin      *Commit
	Remote      string
	SyncEnabled bool
	LastLine    string
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s.refresh(ctx)
	rep, err := status.Build(ctx, s.store, s.opt.MachineID, s.repoState(ctx))
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	d := overviewData{Report: rep, SyncEnabled: s.opt.Sync != nil}
	if rep.Sync.Remote != nil {
		d.Remote = *rep.Sync.Remote
	}
	if l := rep.Sync.Last; l != nil {
		d.LastLine = l.Result.Line()
	}
	for _, t := range note.Types {
		d.Types = append(d.Types, kv{t, rep.ByType[t]})
	}
	for _, sc := range note.Scopes {
		d.Scopes = append(d.Scopes, kv{sc, rep.ByScope[sc]})
	}
	d.Projects = sortedCounts(rep.ByProject, 10)
	d.MoreProj = len(rep.ByProject) - len(d.Projects)
	d.Machines = sortedCounts(rep.ByMachine, 10)
	if d.Recent, err = s.store.Browse(ctx, store.Filter{}, store.Cursor{}, false, recentCount); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	g := s.git()
	if d.IsRepo = g.ok(); d.IsRepo {
		if cs, _ := g.recent(ctx, 1, ""); len(cs) > 0 {
			d.Head = &cs[0]
		}
		if cs, _ := g.recent(ctx, 1, "refs/remotes/origin/main"); len(cs) > 0 {
			d.Origin = &cs[0]
		}
	}
	s.render(w, r, http.StatusOK, "overview", page{Title: "Overview", Nav: "overview", Data: d})
}

// ---- browse and search ----

type row struct {
	*note.Note
	TitleHL    template.HTML
	Snippet    template.HTML
	Superseded bool
}

type browseData struct {
	Q                           string
	F                           store.Filter
	Search                      bool
	Rows                        []row
	Total                       int
	From, To                    int // 1-based positions of the rows shown in the whole list
	NewestURL, PrevURL, NextURL string
	ClearURL                    string
	MoreURL                     string
	K                           int
	Projects, Machines, Tags    []kv
	Teams                       []string // the teams this home joined, for the team filter
	Filtered                    bool
	Err                         string
}

// filterFrom reads the filter fields of a browse or API request.
func filterFrom(q url.Values) (store.Filter, error) {
	// Team notes are shown with the personal ones (SPEC 18); team narrows to one team.
	f := store.Filter{Project: strings.TrimSpace(q.Get("project")), Type: q.Get("type"), Scope: q.Get("scope"),
		Machine: strings.TrimSpace(q.Get("machine")), Prov: q.Get("prov"), Tag: strings.TrimSpace(q.Get("tag")),
		Team: q.Get("team"), Teams: true}
	if f.Team != "" {
		if err := config.CheckTeamName(f.Team); err != nil {
			return f, err
		}
	}
	if f.Type != "" && !slices.Contains(note.Types, f.Type) {
		return f, fmt.Errorf("unknown type %q", f.Type)
	}
	if f.Scope != "" && !slices.Contains(note.Scopes, f.Scope) {
		return f, fmt.Errorf("unknown scope %q", f.Scope)
	}
	if f.Prov != "" && !slices.Contains(note.ProvSources, f.Prov) {
		return f, fmt.Errorf("unknown provenance %q", f.Prov)
	}
	return f, nil
}

func intParam(q url.Values, key string, def, lo, hi int) int {
	v, err := strconv.Atoi(q.Get(key))
	if err != nil {
		return def
	}
	return min(max(v, lo), hi)
}

// A page of the note list is named by a cursor (the updated_at and id of the
// note it continues from), not an offset: page 2,000 of 100k notes costs what
// page 1 costs. pos only numbers the rows for display.
func encodeCursor(c store.Cursor) string { return c.UpdatedAt + "|" + c.ID }

func decodeCursor(v string) (store.Cursor, bool) {
	i := strings.LastIndexByte(v, '|')
	if i < 0 || !note.ValidID(v[i+1:]) {
		return store.Cursor{}, false
	}
	return store.Cursor{UpdatedAt: v[:i], ID: v[i+1:]}, true
}

// browseURL builds a /notes address; extra holds paging or k parameters.
func browseURL(q string, f store.Filter, extra ...string) string {
	v := url.Values{}
	set := func(key, val string) {
		if val != "" {
			v.Set(key, val)
		}
	}
	set("q", q)
	set("project", f.Project)
	set("type", f.Type)
	set("scope", f.Scope)
	set("machine", f.Machine)
	set("prov", f.Prov)
	set("tag", f.Tag)
	set("team", f.Team)
	for i := 0; i+1 < len(extra); i += 2 {
		set(extra[i], extra[i+1])
	}
	if len(v) == 0 {
		return "/notes"
	}
	return "/notes?" + v.Encode()
}

func (s *Server) browse(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s.refresh(ctx)
	qv := r.URL.Query()
	f, ferr := filterFrom(qv)
	d := browseData{Q: strings.TrimSpace(qv.Get("q")), F: f}
	if ferr != nil {
		d.Err = ferr.Error()
		f = store.Filter{Teams: true}
		d.F = f
	}
	d.Filtered = f.Project != "" || f.Type != "" || f.Scope != "" || f.Machine != "" || f.Prov != "" || f.Tag != "" || f.Team != ""
	d.Teams = s.teamNames()
	fc, err := s.facetsFor(ctx)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	d.Projects = sortedCounts(fc.stats.ByProject, 500)
	d.Machines = sortedCounts(fc.stats.ByMachine, 200)
	d.Tags = sortedCounts(fc.tags, 300)
	d.ClearURL = browseURL(d.Q, store.Filter{})
	title := "Notes"
	if d.Q != "" {
		title = "Search: " + d.Q
		d.Search = true
		d.K = intParam(qv, "k", searchDefault, 1, 100)
		hits, err := s.store.Search(ctx, store.Query{Text: d.Q, Filter: f, K: d.K, Marks: true})
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, err.Error())
			return
		}
		for _, h := range hits {
			if n, err := h.Note(); err == nil { // a file removed since indexing is left out
				d.Rows = append(d.Rows, row{Note: s.withAuthor(ctx, n), TitleHL: marked(h.TitleHL), Snippet: marked(plainText(h.Snippet))})
			}
		}
		d.Total = len(d.Rows)
		if len(hits) == d.K && d.K < 100 {
			d.MoreURL = browseURL(d.Q, f, "k", "100")
		}
		s.render(w, r, http.StatusOK, "browse", page{Title: title, Nav: "notes", Query: d.Q, Data: d})
		return
	}
	if d.Total, err = s.store.Count(ctx, f); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	cur, ok := decodeCursor(qv.Get("from"))
	newer := ok && qv.Get("dir") == "newer"
	pos := 0
	if ok {
		pos = intParam(qv, "pos", 0, 0, d.Total)
	}
	notes, err := s.store.Browse(ctx, f, cur, newer, pageSize)
	if err == nil && newer && len(notes) < pageSize {
		// Back at the newest notes: show a full first page.
		cur, newer, pos = store.Cursor{}, false, 0
		notes, err = s.store.Browse(ctx, f, cur, false, pageSize)
	}
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if cur == (store.Cursor{}) {
		pos = 0
	}
	for _, n := range notes {
		d.Rows = append(d.Rows, row{Note: s.withAuthor(ctx, n), TitleHL: template.HTML(template.HTMLEscapeString(n.Title)), Superseded: fc.superseded[n.ID]})
	}
	if len(notes) > 0 {
		d.From, d.To = pos+1, pos+len(notes)
		if pos > 0 {
			d.NewestURL = browseURL("", f)
			d.PrevURL = browseURL("", f, "from", encodeCursor(store.CursorOf(notes[0])), "dir", "newer", "pos", strconv.Itoa(max(0, pos-pageSize)))
		}
		if len(notes) == pageSize && d.To < d.Total {
			d.NextURL = browseURL("", f, "from", encodeCursor(store.CursorOf(notes[len(notes)-1])), "pos", strconv.Itoa(d.To))
		}
	}
	s.render(w, r, http.StatusOK, "browse", page{Title: title, Nav: "notes", Query: d.Q, Data: d})
}

// ---- one note ----

type ref struct {
	ID, Title string
	Missing   bool
}

type noteData struct {
	Note         *note.Note
	Body         template.HTML
	Rel          string
	Abs          string
	Supersedes   []ref
	SupersededBy []ref
	Extra        []string
	InGit        bool
	// Held says why the screen holds the note ("" when it does not): the
	// page then shows its text as stored, not rendered, and a Release button.
	Held string
	// Teams this home joined: a personal note can be shared with one.
	Teams []string
}

// pathID reads and validates the {id} of a note URL; it answers 400 itself.
func (s *Server) pathID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !note.ValidID(id) {
		s.fail(w, r, http.StatusBadRequest, note.CheckID(id).Error())
		return "", false
	}
	return id, true
}

// load reads note id and its file, answering 404/500 itself.
func (s *Server) load(w http.ResponseWriter, r *http.Request, id string) (*note.Note, string, []byte, bool) {
	ctx := r.Context()
	n, err := s.store.Get(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, http.StatusNotFound, "No note has the id "+id+".")
		} else {
			s.fail(w, r, http.StatusInternalServerError, err.Error())
		}
		return nil, "", nil, false
	}
	path, err := s.store.Path(ctx, id)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return nil, "", nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return nil, "", nil, false
	}
	return n, path, data, true
}

func (s *Server) refs(ctx context.Context, ids []string) []ref {
	var out []ref
	for _, id := range ids {
		rf := ref{ID: id, Title: id}
		if n, err := s.store.Get(ctx, id); err == nil {
			rf.Title = n.Title
		} else {
			rf.Missing = true
		}
		out = append(out, rf)
	}
	return out
}

func (s *Server) show(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	s.refresh(r.Context())
	n, path, _, ok := s.load(w, r, id)
	if !ok {
		return
	}
	by, err := s.store.SupersededBy(r.Context(), id)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	rel, _ := filepath.Rel(s.store.Home(), path)
	d := noteData{Note: n, Body: s.markdown(n.Body), Rel: filepath.ToSlash(rel), Abs: path,
		Supersedes: s.refs(r.Context(), n.Supersedes), SupersededBy: s.refs(r.Context(), by), Extra: n.ExtraKeys(),
		InGit: n.Scope == note.Portable && n.Team == "" && s.git().ok(), Teams: s.teamNames()}
	if screen.Held(n.Tags) {
		// Rendered markup could hide what the screen found: show the text.
		d.Held, d.Body = screen.Describe(screen.Reason(n.Tags)), ""
	}
	s.render(w, r, http.StatusOK, "note", page{Title: n.Title, Nav: "notes", Data: d})
}

// raw serves the markdown file as stored.
func (s *Server) raw(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	_, _, data, ok := s.load(w, r, id)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// ---- edit and new ----

type form struct {
	ID, Title, Body, Type, Scope, Project, Tags string
	Base                                        string // hash of the file the form was made from
	// KeepSecrets stores secrets as typed; unticked, the store redacts them.
	KeepSecrets bool
}

type editData struct {
	Form     form
	New      bool
	Errs     []string
	Conflict bool
	Projects []kv
	Action   string
}

func fileHash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func formOf(n *note.Note, data []byte) form {
	return form{ID: n.ID, Title: n.Title, Body: n.Body, Type: n.Type, Scope: n.Scope, Project: n.Project,
		Tags: strings.Join(n.Tags, ", "), Base: fileHash(data)}
}

func formFrom(r *http.Request) form {
	body := strings.ReplaceAll(r.PostFormValue("body"), "\r\n", "\n")
	title := strings.Join(strings.Fields(r.PostFormValue("title")), " ")
	return form{Title: title, Body: strings.TrimRight(body, "\n"), Type: r.PostFormValue("type"),
		Scope: r.PostFormValue("scope"), Project: strings.TrimSpace(r.PostFormValue("project")),
		Tags: r.PostFormValue("tags"), Base: r.PostFormValue("base"), KeepSecrets: r.PostFormValue("keep_secrets") == "on"}
}

// redactedNote is the flash sentence that tells the user what the store
// removed, or "" when it removed nothing.
func redactedNote(kinds []string) string {
	if len(kinds) == 0 {
		return ""
	}
	return " Secrets were redacted (" + strings.Join(kinds, ", ") + "): the note holds [REDACTED] in their place. " +
		"To keep a value on purpose, edit the note and tick “Keep secrets as typed”."
}

func (s *Server) renderForm(w http.ResponseWriter, r *http.Request, status int, d editData) {
	if fc, err := s.facetsKnown(r.Context()); err == nil {
		d.Projects = sortedCounts(fc.stats.ByProject, 500)
	}
	title := "New note"
	d.Action = "/notes/new"
	if !d.New {
		title = "Edit: " + d.Form.Title
		d.Action = "/notes/" + d.Form.ID + "/edit"
	}
	s.render(w, r, status, "edit", page{Title: title, Nav: "notes", Data: d})
}

func (s *Server) newForm(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := form{Type: note.Semantic, Scope: note.Portable, Project: note.Global}
	if t := q.Get("type"); slices.Contains(note.Types, t) {
		f.Type = t
	}
	if p := strings.TrimSpace(q.Get("project")); p != "" {
		f.Project = p
	}
	s.renderForm(w, r, http.StatusOK, editData{Form: f, New: true})
}

func (s *Server) editForm(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	n, _, data, ok := s.load(w, r, id)
	if !ok {
		return
	}
	s.renderForm(w, r, http.StatusOK, editData{Form: formOf(n, data)})
}

// noteFrom validates a submitted form and builds the record to write.
func noteFrom(f form, base *note.Note) (*note.Note, []string) {
	var errs []string
	if f.Title == "" {
		errs = append(errs, "Title must not be empty.")
	}
	if !slices.Contains(note.Types, f.Type) {
		errs = append(errs, "Type must be one of "+strings.Join(note.Types, ", ")+".")
	}
	if !slices.Contains(note.Scopes, f.Scope) {
		errs = append(errs, "Scope must be one of "+strings.Join(note.Scopes, ", ")+".")
	}
	if f.Project == "" {
		errs = append(errs, "Project must not be empty (use global for notes that apply everywhere).")
	}
	if err := note.CheckBody(f.Body); err != nil {
		errs = append(errs, "The "+err.Error()+".")
	}
	if len(errs) > 0 {
		return nil, errs
	}
	n := note.New(f.Type, f.Title, f.Body)
	n.Scope, n.Project, n.Tags = f.Scope, f.Project, note.ParseTags(f.Tags)
	if base != nil {
		keepUnchanged(n, f, base)
		// An edit changes what the form shows and keeps everything else,
		// unknown front-matter keys included.
		n.ID, n.MachineID, n.CreatedAt = base.ID, base.MachineID, base.CreatedAt
		n.ProvSource, n.ProvModel, n.ProvSession = base.ProvSource, base.ProvModel, base.ProvSession
		n.Confidence, n.Supersedes = base.Confidence, base.Supersedes
		// A team's note stays in its team's store, screened as the team's
		// notes are: without its team the store would write a personal copy
		// (same id, published by the personal sync, trusted as the user's own).
		// Its author is the editor's once the edit changes it (team.Edit).
		n.Team, n.Author = base.Team, base.Author
		n.CopyExtra(base)
		n.UpdatedAt = note.Now()
	}
	return n, nil
}

// keepUnchanged gives back the note's own spelling of what the form shows
// but the user did not change. A form cannot carry it: the title field is
// collapsed to single spaces, a textarea sends CRLF line ends and loses
// trailing newlines, and tags are split and trimmed. Without this an edit of
// the tags alone would rewrite the title and body too (churn in git, and a
// conflict with a machine that edits the same note). A body the user did
// change keeps CRLF line ends if the note had them throughout.
func keepUnchanged(n *note.Note, f form, base *note.Note) {
	if f.Title == strings.Join(strings.Fields(base.Title), " ") {
		n.Title = base.Title
	}
	lf := strings.ReplaceAll(base.Body, "\r\n", "\n")
	if f.Body == strings.TrimRight(lf, "\n") {
		n.Body = base.Body
	} else if strings.Contains(base.Body, "\r\n") && strings.Count(base.Body, "\n") == strings.Count(base.Body, "\r\n") {
		n.Body = strings.ReplaceAll(f.Body, "\n", "\r\n")
	}
	// A field left as the form showed it keeps the tags as they were: a
	// tag holding a comma ("deploy, prod") reads there like two.
	if f.Tags == strings.Join(base.Tags, ", ") {
		n.Tags = slices.Clone(base.Tags)
		return
	}
	// Each typed tag that is one of the note's tags but for surrounding
	// spaces is that tag, as the note spells it.
	used := make([]bool, len(base.Tags))
	var tags []string
	for _, typed := range strings.FieldsFunc(f.Tags, func(r rune) bool { return r == ',' || r == '\n' }) {
		typed = strings.TrimSpace(typed)
		if typed == "" {
			continue
		}
		for i, t := range base.Tags {
			if !used[i] && strings.TrimSpace(t) == typed {
				used[i], typed = true, t
				break
			}
		}
		tags = append(tags, typed)
	}
	n.Tags = note.UniqueTags(tags)
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	f := formFrom(r)
	n, errs := noteFrom(f, nil)
	if errs != nil {
		s.renderForm(w, r, http.StatusUnprocessableEntity, editData{Form: f, New: true, Errs: errs})
		return
	}
	n.MachineID = s.opt.MachineID
	var redacted []string
	written, err := s.store.Write(r.Context(), n, store.KeepSecrets(f.KeepSecrets), store.Redacted(&redacted))
	if err != nil {
		s.renderForm(w, r, http.StatusUnprocessableEntity, editData{Form: f, New: true, Errs: []string{err.Error()}})
		return
	}
	s.wrote()
	setFlash(w, "Created “"+written.Title+"”."+redactedNote(redacted), false)
	redirect(w, r, "/notes/"+written.ID)
}

func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	old, _, data, ok := s.load(w, r, id)
	if !ok {
		return
	}
	f := formFrom(r)
	f.ID = id
	if f.Base != fileHash(data) {
		// Changed on disk since the form was opened (a sync, another edit):
		// keep the user's text, show what happened, and let a second save overwrite.
		f.Base = fileHash(data)
		s.renderForm(w, r, http.StatusConflict, editData{Form: f, Conflict: true, Errs: []string{
			"This note changed on disk after you opened it (a sync or another edit). Your text is below; " +
				"save again to overwrite the newer version, or open the note in another tab to compare."}})
		return
	}
	n, errs := noteFrom(f, old)
	if errs == nil {
		if err := team.Edit(r.Context(), s.config(), n, old); err != nil {
			errs = []string{err.Error()}
		}
	}
	if errs != nil {
		s.renderForm(w, r, http.StatusUnprocessableEntity, editData{Form: f, Errs: errs})
		return
	}
	var redacted []string
	if err := s.store.Put(r.Context(), n, store.KeepSecrets(f.KeepSecrets), store.Redacted(&redacted)); err != nil {
		s.renderForm(w, r, http.StatusUnprocessableEntity, editData{Form: f, Errs: []string{err.Error()}})
		return
	}
	s.wrote()
	msg := "Saved. The file and the index are updated; sync will carry the change to your other machines."
	if n.Team != "" {
		msg = "Saved. The file and the index are updated; the next sync carries the change to team " + n.Team + "."
	}
	if held := team.HeldNotice(n); held != "" {
		msg += " But " + held + "."
	}
	setFlash(w, msg+redactedNote(redacted), false)
	redirect(w, r, "/notes/"+id)
}

// ---- delete ----

func (s *Server) deleteForm(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	n, path, _, ok := s.load(w, r, id)
	if !ok {
		return
	}
	rel, _ := filepath.Rel(s.store.Home(), path)
	var teamDeletion string // what deleting a team's note does (team.Deletion)
	if n.Team != "" {
		teamDeletion = team.Deletion(r.Context(), s.config(), n.Team)
	}
	s.render(w, r, http.StatusOK, "delete", page{Title: "Delete: " + n.Title, Nav: "notes",
		Data: struct {
			Note         *note.Note
			Rel          string
			TeamDeletion string
		}{n, filepath.ToSlash(rel), teamDeletion}})
}

// release lifts the screen's hold on a note after the person read it on
// its page (SPEC 17); the same-origin and token checks of every POST apply.
func (s *Server) release(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	var redacted []string
	n, err := s.store.Release(r.Context(), id, store.Redacted(&redacted))
	if err != nil {
		s.fail(w, r, http.StatusConflict, err.Error())
		return
	}
	s.wrote()
	if n.Team != "" {
		setFlash(w, "Released “"+n.Title+"” on this machine only: inject, recall and search here show it from now on; "+
			"the team's file is unchanged and other members' machines still hold it.", false)
		redirect(w, r, "/notes/"+id)
		return
	}
	setFlash(w, "Released “"+n.Title+"”: inject, recall and search show it from now on."+redactedNote(redacted), false)
	redirect(w, r, "/notes/"+id)
}

func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	n, _, _, ok := s.load(w, r, id)
	if !ok {
		return
	}
	if err := s.store.Delete(r.Context(), id); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	s.wrote()
	if n.Team != "" {
		setFlash(w, "Deleted “"+n.Title+"” from team "+n.Team+": "+team.Deletion(r.Context(), s.config(), n.Team)+".", false)
		redirect(w, r, "/notes")
		return
	}
	setFlash(w, "Deleted “"+n.Title+"”. Its file is gone; the deletion reaches your other machines with the next sync.", false)
	redirect(w, r, "/notes")
}

// ---- history ----

type historyData struct {
	ID, Title string
	Exists    bool
	Local     bool
	IsRepo    bool
	Commits   []Commit
	More      bool
	Err       string
}

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	d := historyData{ID: id, Title: id}
	if n, err := s.store.Get(r.Context(), id); err == nil {
		d.Title, d.Exists, d.Local = n.Title, true, n.Scope == note.MachineLocal
	}
	g := s.git()
	if d.IsRepo = g.ok(); d.IsRepo {
		cs, more, err := g.noteHistory(r.Context(), id)
		if err != nil {
			d.Err = err.Error()
		}
		d.Commits, d.More = cs, more
	}
	if !d.Exists && len(d.Commits) == 0 && d.Err == "" {
		s.fail(w, r, http.StatusNotFound, "No note has the id "+id+", and git has no history for it.")
		return
	}
	s.render(w, r, http.StatusOK, "history", page{Title: "History: " + d.Title, Nav: "notes", Data: d})
}

func (s *Server) commit(w http.ResponseWriter, r *http.Request) {
	rf := r.PathValue("ref")
	if !ValidRef(rf) {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("Invalid commit %q: a commit is named by its hex hash.", rf))
		return
	}
	g := s.git()
	if !g.ok() {
		s.fail(w, r, http.StatusNotFound, "The memory directory is not a git repository yet.")
		return
	}
	c, err := g.show(r.Context(), rf)
	if err != nil {
		s.fail(w, r, http.StatusNotFound, "No such commit: "+rf)
		return
	}
	s.render(w, r, http.StatusOK, "commit", page{Title: "Commit " + c.Hash[:min(10, len(c.Hash))], Nav: "fleet", Data: c})
}

// ---- fleet ----

type machineRow struct {
	Machine string
	Notes   int
	Commits int
	Last    *Commit
	Self    bool
}

type fleetData struct {
	Machines []machineRow
	IsRepo   bool
	Scanned  int
	Capped   bool
	Recent   []Commit
}

func (s *Server) fleet(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s.refresh(ctx)
	fc, err := s.facetsFor(ctx)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	rows := map[string]*machineRow{}
	get := func(m string) *machineRow {
		if rows[m] == nil {
			rows[m] = &machineRow{Machine: m, Self: m == s.opt.MachineID}
		}
		return rows[m]
	}
	for m, c := range fc.stats.ByMachine {
		get(m).Notes = c
	}
	get(s.opt.MachineID)
	d := fleetData{IsRepo: s.git().ok()}
	if d.IsRepo {
		cs, err := s.git().recent(ctx, fleetScan+1, "")
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, err.Error())
			return
		}
		if len(cs) > fleetScan {
			cs, d.Capped = cs[:fleetScan], true
		}
		d.Scanned = len(cs)
		for i := range cs {
			m := get(cs[i].Machine)
			m.Commits++
			if m.Last == nil {
				m.Last = &cs[i]
			}
		}
		d.Recent = cs[:min(len(cs), 15)]
	}
	for _, m := range rows {
		d.Machines = append(d.Machines, *m)
	}
	slices.SortFunc(d.Machines, func(a, b machineRow) int {
		return cmp.Or(b.Notes-a.Notes, b.Commits-a.Commits, strings.Compare(a.Machine, b.Machine))
	})
	s.render(w, r, http.StatusOK, "fleet", page{Title: "Fleet", Nav: "fleet", Data: d})
}

// ---- actions ----

// back is where an action returns to: the page it was started from, when the
// Referer names a path on this server, else the overview.
func back(r *http.Request) string {
	u, err := url.Parse(r.Referer())
	if err != nil || !strings.EqualFold(u.Host, r.Host) || !localPath(u.Path) {
		return "/"
	}
	if u.RawQuery != "" {
		return u.Path + "?" + u.RawQuery
	}
	return u.Path
}

// localPath reports whether p, sent as a Location, stays on this site: an
// absolute path that no browser reads as another host ("//evil.example",
// "/\\evil.example", and "/\t/evil.example", since browsers drop tabs and
// newlines from a Location).
func localPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.ContainsRune(p, '\\') &&
		!strings.ContainsFunc(p, func(c rune) bool { return c < 0x20 || c == 0x7f })
}

func (s *Server) reindex(w http.ResponseWriter, r *http.Request) {
	full := r.PostFormValue("full") == "1"
	res, err := s.store.Reindex(r.Context(), full)
	s.wrote()
	if err != nil {
		setFlash(w, "Reindex failed: "+err.Error(), true)
	} else {
		kind := "incremental"
		if full {
			kind = "full"
		}
		setFlash(w, fmt.Sprintf("Reindex (%s): indexed %d note(s), removed %d, skipped %d unreadable, %d unchanged; %d in the index.",
			kind, res.Indexed, res.Removed, res.Skipped, res.Unchanged, res.Total), false)
	}
	redirect(w, r, back(r))
}

func (s *Server) sync(w http.ResponseWriter, r *http.Request) {
	if s.opt.Sync == nil {
		setFlash(w, "Sync is not configured for this dashboard.", true)
		redirect(w, r, back(r))
		return
	}
	if !s.syncMu.TryLock() {
		setFlash(w, "A sync started from this dashboard is still running.", true)
		redirect(w, r, back(r))
		return
	}
	defer s.syncMu.Unlock()
	o := *s.opt.Sync
	o.Store = s.store
	res, err := gitsync.Sync(r.Context(), o)
	s.wrote()
	// Each team's line, as anamnesis-sync prints it: res.Line is the
	// personal store's alone, and a team whose push was refused or whose
	// repository is gone would go unsaid.
	var teams string
	teamFailed := false
	for _, t := range res.Teams {
		teams += " " + t.Line()
		if len(t.ConflictIDs) > 0 {
			teams += "; the other versions were kept as new notes " + strings.Join(t.ConflictIDs, ", ")
		}
		teamFailed = teamFailed || t.Error != ""
	}
	switch {
	case res.Skipped:
		setFlash(w, "Another sync of this home is running; try again in a moment.", true)
	case err != nil:
		msg := res.Line()
		if res.Detail == "" {
			msg = err.Error()
		}
		setFlash(w, "Sync failed: "+msg+" Local commits are kept for the next sync."+teams, true)
	default:
		msg := res.Line()
		if len(res.ConflictIDs) > 0 {
			msg += "; the other versions were kept as new notes " + strings.Join(res.ConflictIDs, ", ")
		}
		setFlash(w, msg+teams, teamFailed)
	}
	redirect(w, r, back(r))
}

// ---- JSON API (the note shape of SPEC 2) ----

func (s *Server) apiList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := filterFrom(q)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	f.Limit = intParam(q, "limit", 50, 1, 1000)
	f.Offset = intParam(q, "offset", 0, 0, 1<<30)
	notes, err := s.store.List(r.Context(), f)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, note.Outs(notes, false))
}

func (s *Server) apiGet(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := note.CheckID(id); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	n, err := s.store.Get(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
		return
	} else if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, n.Out(true))
}

func (s *Server) apiSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := filterFrom(q)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	hits, err := s.store.Search(r.Context(), store.Query{Text: q.Get("q"), Filter: f, K: intParam(q, "k", 8, 1, 100)})
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, note.Outs(store.Notes(hits), true))
}

func (s *Server) apiStats(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Stats(r.Context())
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, st)
}
