package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// Browsers drop tabs and newlines from a Location (WHATWG URL parsing), so
// "/\t/evil.example" is followed as "//evil.example": another site.
func TestBackRefusesControlCharacters(t *testing.T) {
	for _, ref := range []string{
		"http://" + testAddr + "/%09/evil.example/x",
		"http://" + testAddr + "/%0a/evil.example/x",
		"http://" + testAddr + "/%7f/evil.example/x",
	} {
		r := httptest.NewRequest(http.MethodPost, "/reindex", nil)
		r.Host = testAddr
		r.Header.Set("Referer", ref)
		if got := back(r); got != "/" {
			t.Errorf("back(%q) = %q, want it refused", ref, got)
		}
	}
}

// Token mode: the token redirect goes to this site's own path, whatever
// the request's path looks like (the issue saw "//evil.example/" answered
// with a 303 to //evil.example/).
func TestTokenRedirectStaysOnSite(t *testing.T) {
	f := newFixture(t, 1)
	c := newClient(t, f, func(o *Options) { o.Addr = "0.0.0.0:7077"; o.Token = "tok123" })
	for path, want := range map[string]string{
		"//evil.example/?token=tok123":      "/",
		"//evil.example/x?token=tok123&a=b": "/?a=b",
		"/%5Cevil.example/?token=tok123":    "/",
		"/%09/evil.example/?token=tok123":   "/",
		"/notes?token=tok123&type=semantic": "/notes?type=semantic",
	} {
		req := httptest.NewRequest(http.MethodGet, "http://192.168.1.10:7077/", nil)
		req.URL.RawQuery = ""
		u, err := url.ParseRequestURI(path) // as net/http reads a request line
		if err != nil {
			t.Fatal(err)
		}
		req.URL, req.RequestURI, req.Host = u, path, "192.168.1.10:7077"
		w := c.do(req)
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("GET %s: %d Location %q, want %q", path, w.Code, w.Header().Get("Location"), want)
		}
	}
}

// A client that opens a POST and sends its body slowly is cut off by the
// server's read timeout instead of holding a connection forever.
func TestSlowBodyTimedOut(t *testing.T) {
	f := newFixture(t, 1)
	srv, err := New(Options{Store: f.st, Addr: "127.0.0.1:0", MachineID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	srv.readTimeout = 300 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.opt.Addr = ln.Addr().String()
	srv.hosts[ln.Addr().String()] = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx, ln)
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /reindex HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ncsrf=", ln.Addr())
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	for {
		if _, err := conn.Read(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the server still held the slow request after %v", time.Since(start))
			}
			break // closed by the server
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("cut off after %v", d)
	}
}
