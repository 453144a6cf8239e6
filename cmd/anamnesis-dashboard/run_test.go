package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// start runs the binary's run in the background and returns the URL it printed.
func start(t *testing.T, args ...string) (string, context.CancelFunc, chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, strings.NewReader(""), pw, io.Discard)
		pw.Close()
		done <- err
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := regexp.MustCompile(`http://\S+`).FindString(sc.Text()); m != "" {
				select {
				case urls <- m:
				default:
				}
			}
		}
	}()
	select {
	case u := <-urls:
		return u, cancel, done
	case err := <-done:
		cancel()
		t.Fatalf("run exited early: %v", err)
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatal("no URL printed")
	}
	return "", cancel, done
}

func TestRunServesLoopbackAndStops(t *testing.T) {
	home := t.TempDir()
	u, cancel, done := start(t, "--addr", "127.0.0.1:0", "--home", home)
	if strings.Contains(u, "token=") {
		t.Errorf("loopback URL carries a token: %s", u)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("GET %s: %d", u, resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v after cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
}

func TestRunNonLoopbackPrintsToken(t *testing.T) {
	u, cancel, done := start(t, "--addr", "0.0.0.0:0", "--home", t.TempDir())
	defer func() { cancel(); <-done }()
	m := regexp.MustCompile(`^http://[^/]+:(\d+)/\?token=([0-9a-f]{48})$`).FindStringSubmatch(u)
	if m == nil {
		t.Fatalf("URL %q has no token", u)
	}
	resp, err := http.Get("http://127.0.0.1:" + m[1] + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: %d", resp.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	resp, err = hc.Get("http://127.0.0.1:" + m[1] + "/?token=" + m[2])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.RawQuery != "" {
		t.Errorf("with the token: %d at %s", resp.StatusCode, resp.Request.URL)
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"--addr", "nonsense"}, {"extra"}, {"--bogus"}} {
		err := run(context.Background(), append(args, "--home", t.TempDir()), nil, io.Discard, io.Discard)
		if cli.Code(err) != 2 || !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v (code %d)", args, err, cli.Code(err))
		}
	}
}

// --version is every binary's, as anamnesis --version: the version line on
// stderr (where --help prints), nothing else done, no home made.
func TestVersionFlag(t *testing.T) {
	home := t.TempDir() + "/home"
	t.Setenv("ANAMNESIS_HOME", home)
	var out, errb strings.Builder
	if err := run(context.Background(), []string{"--version"}, strings.NewReader(""), &out, &errb); err != nil || out.Len() != 0 || !strings.HasPrefix(errb.String(), "anamnesis-dashboard "+cli.VersionString()+" (go") {
		t.Fatalf("--version: %v stdout %q stderr %q", err, out.String(), errb.String())
	}
	if _, err := os.Stat(home); err == nil {
		t.Fatal("--version made a home")
	}
}
