package dashboard

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

//go:embed templates/*.html static/*
var assets embed.FS

// newMarkdown renders note bodies. Raw HTML stays off (goldmark's default:
// it is replaced by a comment) and dangerous link schemes are dropped, so a
// note cannot inject markup or script into the page.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM))
}

func (s *Server) markdown(src string) template.HTML {
	var b bytes.Buffer
	if err := s.md.Convert([]byte(src), &b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(b.String())
}

// marked escapes text marked with store.HLStart/HLEnd and turns the marks
// into <mark> elements, always balanced whatever the text contains.
func marked(s string) template.HTML {
	var b strings.Builder
	open := false
	for s != "" {
		i := strings.IndexAny(s, store.HLStart+store.HLEnd)
		if i < 0 {
			b.WriteString(template.HTMLEscapeString(s))
			break
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		if s[i:i+1] == store.HLStart && !open {
			b.WriteString("<mark>")
			open = true
		} else if s[i:i+1] == store.HLEnd && open {
			b.WriteString("</mark>")
			open = false
		}
		s = s[i+1:]
	}
	if open {
		b.WriteString("</mark>")
	}
	return template.HTML(b.String())
}

// Markdown syntax a search snippet may hold. A snippet is a cut through the
// body, so it cannot be rendered as markdown (an emphasis or a link may be
// cut in half); plainText drops the syntax and keeps the words, and the
// match marks (store.HLStart/HLEnd) pass through untouched.
var (
	mdImageOrLink = regexp.MustCompile(`!?\[([^\]\n]*)\]\([^)\n]*\)`)
	mdLineStart   = regexp.MustCompile(`(?m)^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|>[ \t]?|\d+[.)][ \t]+)`)
	mdStrong      = regexp.MustCompile("\\*\\*|~~|`+")
	mdEmphasis    = regexp.MustCompile(`(^|[\s(\x02])(?:[*_]|__)([^\s*_])|([^\s*_])(?:[*_]|__)($|[\s.,;:!?)\x03])`)
	mdSpace       = regexp.MustCompile(`\s+`)
)

// plainText turns a markdown excerpt into one line of plain text.
func plainText(s string) string {
	s = mdImageOrLink.ReplaceAllString(s, "$1")
	s = mdLineStart.ReplaceAllString(s, "")
	s = mdStrong.ReplaceAllString(s, "")
	s = mdEmphasis.ReplaceAllString(s, "$1$2$3$4")
	return strings.TrimSpace(mdSpace.ReplaceAllString(s, " "))
}

func parseTime(ts string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, ts); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ago renders a timestamp as "3 hours ago" (the exact time goes in a title attribute).
func ago(ts string) string {
	t, ok := parseTime(ts)
	if !ok {
		return ts
	}
	d := time.Since(t)
	switch {
	case d < 0:
		return t.UTC().Format("2006-01-02 15:04")
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 24*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	case d < 30*24*time.Hour:
		return plural(int(d/(24*time.Hour)), "day") + " ago"
	default:
		return t.UTC().Format("2006-01-02")
	}
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func shortTime(ts string) string {
	if t, ok := parseTime(ts); ok {
		return t.UTC().Format("2006-01-02 15:04 UTC")
	}
	return ts
}

var funcs = template.FuncMap{
	"marked":    marked,
	"ago":       ago,
	"shortTime": shortTime,
	"join":      strings.Join,
	"short": func(h string) string {
		if len(h) > 10 {
			return h[:10]
		}
		return h
	},
	"add": func(a, b int) int { return a + b },
	"sub": func(a, b int) int { return a - b },
	// pct rounds a share up to a multiple of 5 for the bar classes w0…w100
	// (the CSP forbids inline styles).
	"pct": func(a, b int) int {
		if a <= 0 || b <= 0 {
			return 0
		}
		p := (a*100 + b - 1) / b
		return min(100, (p+4)/5*5)
	},
	"ne1":    func(n int) bool { return n != 1 },
	"types":  func() []string { return note.Types },
	"scopes": func() []string { return note.Scopes },
	"provs":  func() []string { return note.ProvSources },
}

// page is what every template gets: the shared chrome plus the page's own data.
type page struct {
	Title    string
	Nav      string
	CSRF     string
	Change   string
	Flash    string
	FlashErr bool
	Machine  string
	Home     string
	Version  string
	Query    string // the header search box's value
	Data     any
}

var pageNames = []string{"overview", "browse", "note", "edit", "delete", "history", "commit", "fleet", "maintenance", "injections", "teams", "error"}

func (s *Server) loadTemplates() error {
	s.pages = map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).Funcs(template.FuncMap{"md": s.markdown}).
			ParseFS(assets, "templates/layout.html", "templates/partials.html", "templates/"+name+".html")
		if err != nil {
			return fmt.Errorf("dashboard: template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	sub, err := fs.Sub(assets, "static")
	if err != nil {
		return err
	}
	s.staticFS = sub
	return nil
}

func (s *Server) staticHandler() http.Handler {
	fsrv := http.StripPrefix("/static/", http.FileServerFS(s.staticFS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		fsrv.ServeHTTP(w, r)
	})
}

// render writes a full page. It renders into a buffer first so a template
// error becomes a clean 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	p.CSRF = s.csrf
	p.Machine = s.opt.MachineID
	p.Home = s.store.Home()
	p.Version = s.opt.Version
	if p.Change == "" {
		p.Change = s.changeToken()
	}
	if p.Flash == "" {
		p.Flash, p.FlashErr = s.takeFlash(w, r)
	}
	var b bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&b, "layout", p); err != nil {
		log.Printf("dashboard: render %s: %v", name, err)
		http.Error(w, "500 internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// fail renders an error page with status.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.render(w, r, status, "error", page{Title: http.StatusText(status), Data: struct {
		Status int
		Text   string
		Msg    string
	}{status, http.StatusText(status), msg}})
}

// setFlash leaves a one-time message for the page the browser is redirected to.
func setFlash(w http.ResponseWriter, msg string, isErr bool) {
	if len(msg) > 1200 { // a cookie holds about 4 KB, escaped
		msg = strings.ToValidUTF8(msg[:1200], "") + "…"
	}
	v := "ok:" + msg
	if isErr {
		v = "err:" + msg
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: url.QueryEscape(v), Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, MaxAge: 60})
}

func (s *Server) takeFlash(w http.ResponseWriter, r *http.Request) (string, bool) {
	c, err := r.Cookie(flashCookie)
	if err != nil {
		return "", false
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	v, err := url.QueryUnescape(c.Value)
	if err != nil {
		return "", false
	}
	if m, ok := strings.CutPrefix(v, "err:"); ok {
		return m, true
	}
	m, _ := strings.CutPrefix(v, "ok:")
	return m, false
}

// redirect sends the browser to a GET page after a successful POST.
func redirect(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}
