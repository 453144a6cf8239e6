// Package dashboard is the local web GUI over one Anamnesis home: browse,
// search, read, edit and delete notes, see each note's git history and the
// fleet of machines, and trigger sync and reindex. Pages are rendered on the
// server from embedded templates; the only script is a small poller that
// reloads a page when the store changes on disk.
//
// It is meant to be reachable only by its user: it binds loopback unless told
// otherwise (then an access token is required), refuses requests whose Host
// is not the bound name (DNS rebinding), requires a CSRF token and a
// same-origin Origin/Referer on every POST, and sends a strict CSP.
package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Options configure a Server.
type Options struct {
	// Store is the open home to show. Required.
	Store *store.Store
	// Addr is the address the listener is bound to (host:port, port resolved).
	// The Host header of every request must name it.
	Addr string
	// Token, when set, must be presented once as ?token=… (it is then kept in
	// a cookie). Required when Addr is not loopback.
	Token string
	// MachineID stamps notes created here and marks this machine in the fleet.
	MachineID string
	// Remote is the configured git remote, shown on the overview.
	Remote string
	// Sync configures the sync button (the same cycle as anamnesis-sync,
	// run in-process on Store); nil disables the button.
	Sync *gitsync.Options
	// Version is shown in the footer.
	Version string
	// Model is the model seam the maintenance page's reflect and
	// consolidate use (zero: none configured).
	Model model.Config
}

// Server serves the dashboard. Create it with New.
type Server struct {
	opt        Options
	store      *store.Store
	csrf       string
	allowAny   bool // bound to an unspecified address: any IP-literal Host is the bound name
	hosts      map[string]bool
	port       string
	pages      map[string]*template.Template
	md         goldmark.Markdown
	staticFS   fs.FS
	mu         sync.Mutex // guards lastTree, facets, facetBusy and stateCache
	lastTree   string
	facets     *facetCache
	facetBusy  bool
	bg         sync.WaitGroup // background work a request started (the facet refresh)
	stateCache *stateCache
	syncMu     sync.Mutex // one sync run at a time from this dashboard
	startedAt  time.Time
	// readTimeout bounds reading one request, headers and body (a form
	// holds at most maxFormSize); tests shorten it.
	readTimeout time.Duration
}

// Cookie names.
const (
	tokenCookie = "anamnesis_token"
	flashCookie = "anamnesis_flash"
	csrfField   = "csrf"
	csrfHeader  = "X-CSRF-Token"
	maxFormSize = 6 << 20 // a note is at most 4 MiB; leave room for encoding
)

// IsLoopback reports whether host (no port) is a loopback name or address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// NewToken returns a random access token.
func NewToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// New builds a server for opt. It fails when a non-loopback address has no token.
func New(opt Options) (*Server, error) {
	if opt.Store == nil {
		return nil, errors.New("dashboard: no store")
	}
	host, port, err := net.SplitHostPort(opt.Addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: address %q: %w", opt.Addr, err)
	}
	if !IsLoopback(host) && opt.Token == "" {
		return nil, fmt.Errorf("dashboard: %s is not a loopback address; an access token is required", opt.Addr)
	}
	if opt.MachineID == "" {
		opt.MachineID = "unknown"
	}
	s := &Server{opt: opt, store: opt.Store, csrf: NewToken(), port: port, hosts: map[string]bool{}, startedAt: time.Now(),
		readTimeout: time.Minute}
	add := func(h string) {
		s.hosts[strings.ToLower(net.JoinHostPort(strings.Trim(h, "[]"), port))] = true
		if port == "80" {
			s.hosts[strings.ToLower(h)] = true
		}
	}
	add(host)
	ip := net.ParseIP(host)
	switch {
	case IsLoopback(host):
		add("localhost")
		add("127.0.0.1")
		add("::1")
	case host == "" || ip != nil && ip.IsUnspecified():
		s.allowAny = true
		add("localhost")
		if hn, err := os.Hostname(); err == nil && hn != "" {
			add(hn)
		}
	}
	if err := s.loadTemplates(); err != nil {
		return nil, err
	}
	s.md = newMarkdown()
	// The caller brings the index up to date before serving; from here on
	// only changes to the trees trigger an incremental reindex.
	s.lastTree = s.treeStamp()
	return s, nil
}

// Handler returns the dashboard's HTTP handler with every security check applied.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.overview)
	mux.HandleFunc("GET /notes", s.browse)
	mux.HandleFunc("GET /notes/new", s.newForm)
	mux.HandleFunc("POST /notes/new", s.create)
	mux.HandleFunc("GET /notes/{id}", s.show)
	mux.HandleFunc("GET /notes/{id}/raw", s.raw)
	mux.HandleFunc("GET /notes/{id}/edit", s.editForm)
	mux.HandleFunc("POST /notes/{id}/edit", s.update)
	mux.HandleFunc("GET /notes/{id}/delete", s.deleteForm)
	mux.HandleFunc("POST /notes/{id}/delete", s.remove)
	mux.HandleFunc("POST /notes/{id}/release", s.release)
	mux.HandleFunc("POST /notes/{id}/share", s.share)
	mux.HandleFunc("GET /notes/{id}/history", s.history)
	mux.HandleFunc("GET /commits/{ref}", s.commit)
	mux.HandleFunc("GET /fleet", s.fleet)
	mux.HandleFunc("GET /injections", s.injections)
	mux.HandleFunc("GET /teams", s.teams)
	mux.HandleFunc("POST /teams/{name}/fetch", s.fetch)
	mux.HandleFunc("POST /teams/{name}/accept", s.accept)
	mux.HandleFunc("POST /sync", s.sync)
	mux.HandleFunc("POST /reindex", s.reindex)
	mux.HandleFunc("GET /maintenance", s.maintenance)
	mux.HandleFunc("POST /maintenance/{op}", s.maintPost)
	mux.HandleFunc("GET /api/changes", s.changes)
	mux.HandleFunc("GET /api/notes", s.apiList)
	mux.HandleFunc("GET /api/notes/{id}", s.apiGet)
	mux.HandleFunc("GET /api/search", s.apiSearch)
	mux.HandleFunc("GET /api/stats", s.apiStats)
	mux.Handle("GET /static/", s.staticHandler())
	return s.guard(mux)
}

// guard applies the security rules to every request before it reaches a page.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if !s.hostAllowed(r.Host) {
			// DNS rebinding: a page on evil.example resolved to 127.0.0.1 still says evil.example.
			http.Error(w, "421 misdirected request: unknown Host "+fmt.Sprintf("%q", r.Host), http.StatusMisdirectedRequest)
			return
		}
		if s.opt.Token != "" && !s.tokenOK(w, r) {
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodPost:
			if err := s.checkPost(r); err != nil {
				http.Error(w, "403 forbidden: "+err.Error(), http.StatusForbidden)
				return
			}
		default:
			http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) hostAllowed(host string) bool {
	host = strings.ToLower(host)
	if s.hosts[host] {
		return true
	}
	if s.allowAny {
		// Any IP literal is not a rebinding target: a DNS name is needed for that.
		h, p, err := net.SplitHostPort(host)
		return err == nil && p == s.port && net.ParseIP(h) != nil
	}
	return false
}

// tokenOK enforces the access token: ?token= once (kept in a cookie, then
// redirected away so it leaves the address bar), the cookie afterwards.
func (s *Server) tokenOK(w http.ResponseWriter, r *http.Request) bool {
	if t := r.URL.Query().Get("token"); t != "" && r.Method == http.MethodGet {
		if !equal(t, s.opt.Token) {
			http.Error(w, "401 unauthorized: wrong token", http.StatusUnauthorized)
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opt.Token, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode})
		q := r.URL.Query()
		q.Del("token")
		// The path is the request's own: "//evil.example/?token=" must not
		// send the browser (with its fresh cookie) to evil.example.
		to := r.URL.EscapedPath()
		if !localPath(r.URL.Path) || !localPath(to) {
			to = "/"
		}
		if len(q) > 0 {
			to += "?" + q.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return false
	}
	if c, err := r.Cookie(tokenCookie); err == nil && equal(c.Value, s.opt.Token) {
		return true
	}
	http.Error(w, "401 unauthorized: open the address with ?token=… that anamnesis-dashboard printed at start", http.StatusUnauthorized)
	return false
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// checkPost refuses cross-site and token-less state changes.
func (s *Server) checkPost(r *http.Request) error {
	self := "http://" + r.Host
	if o := r.Header.Get("Origin"); o != "" {
		if !strings.EqualFold(o, self) {
			return fmt.Errorf("cross-origin request (Origin %q)", o)
		}
	} else if ref := r.Header.Get("Referer"); ref != "" {
		u, err := url.Parse(ref)
		if err != nil || !strings.EqualFold(u.Scheme+"://"+u.Host, self) {
			return fmt.Errorf("cross-origin request (Referer %q)", ref)
		}
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return fmt.Errorf("cross-site request (Sec-Fetch-Site %s)", site)
	}
	tok := r.Header.Get(csrfHeader)
	if tok == "" {
		r.Body = http.MaxBytesReader(nil, r.Body, maxFormSize)
		if err := r.ParseMultipartForm(maxFormSize); err != nil && !errors.Is(err, http.ErrNotMultipart) {
			return fmt.Errorf("bad form: %v", err)
		}
		tok = r.PostFormValue(csrfField)
	}
	if !equal(tok, s.csrf) {
		return errors.New("missing or wrong CSRF token (reload the page and try again)")
	}
	return nil
}

// Serve runs the handler on ln until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	// A client that sends its headers or body slowly (or never) is cut off;
	// the write timeout leaves room for a sync run from the page.
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: s.readTimeout / 6, ReadTimeout: s.readTimeout,
		WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-errc
		s.Wait()
		return nil
	}
}

// Wait returns when the background work requests started has ended: after
// it, the server touches the store no more.
func (s *Server) Wait() { s.bg.Wait() }
