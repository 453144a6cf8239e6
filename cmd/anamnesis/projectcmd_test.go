package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectTrust: show says a git-tracked marker is ignored and how to
// trust it; trust records it and show then uses it; a marker naming global
// cannot be trusted and config.json is left alone.
func TestProjectTrust(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	cmd := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(context.Background(), append(args, "--home", home), strings.NewReader(""), &out, &errb)
		return out.String() + errb.String(), err
	}
	for _, args := range [][]string{{"init", "-q"}, {"remote", "add", "origin", "git@github.com:evil/cloned.git"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	marker := filepath.Join(repo, ".anamnesis", "project")
	os.MkdirAll(filepath.Dir(marker), 0o755)
	os.WriteFile(marker, []byte("github.com/me/app\n"), 0o644)
	exec.Command("git", "-C", repo, "add", ".anamnesis/project").Run()
	if out, _ := cmd("project", "show", repo); !strings.Contains(out, "project: github.com/evil/cloned") || !strings.Contains(out, "anamnesis project trust") {
		t.Fatalf("show:\n%s", out)
	}
	if out, err := cmd("project", "trust", repo); err != nil || !strings.Contains(out, "github.com/me/app") {
		t.Fatalf("trust: %v\n%s", err, out)
	}
	if out, _ := cmd("project", "show", repo); !strings.Contains(out, "project: github.com/me/app") || !strings.Contains(out, "(used)") {
		t.Fatalf("show after trust:\n%s", out)
	}
	os.WriteFile(marker, []byte("global\n"), 0o644)
	before, _ := os.ReadFile(filepath.Join(home, "config.json"))
	if out, err := cmd("project", "trust", repo); err == nil || !strings.Contains(err.Error()+out, "global") {
		t.Fatalf("trusting a global marker: %v\n%s", err, out)
	}
	if after, _ := os.ReadFile(filepath.Join(home, "config.json")); !bytes.Equal(before, after) {
		t.Fatal("a refused trust changed config.json")
	}
}

// TestProjectKeyRedacted: the project key passes the redactor like title,
// body and tags (the issue's --project postgres://app:pw@host/db), and the
// write reports what it removed.
func TestProjectKeyRedacted(t *testing.T) {
	home := t.TempDir()
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"write", "--home", home, "--type", "semantic", "--title", "db",
		"--body", "the app database", "--project", "postgres://app:Sup3r-Secret9@db.internal/app", "--json"}, strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("%v %s", err, errb.String())
	}
	if strings.Contains(out.String()+errb.String(), "Sup3r-Secret9") || !strings.Contains(out.String(), "postgres://app:[REDACTED]@db.internal/app") {
		t.Fatalf("write output:\n%s%s", out.String(), errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(home, "memory", "semantic", "*.md"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); bytes.Contains(data, []byte("Sup3r-Secret9")) {
			t.Fatalf("the project key's password reached the note:\n%s", data)
		}
	}
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
}
