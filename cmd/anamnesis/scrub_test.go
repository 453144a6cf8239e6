package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/scrub"
)

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestScrub: secrets written on purpose (--keep-secrets) and committed are
// found in the files and in history; the dry run changes nothing; --apply
// redacts and commits the files, writes the private replacement list, and
// prints the purge command, which (run as printed, with git filter-repo)
// leaves no secret in the local history or the bare remote's. No output
// quotes a secret.
func TestScrub(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_MACHINE_ID", "scrubber")
	// code runs a command expecting exit code want: scrub exits 1 while
	// secrets remain in the notes or in git history.
	code := func(want int, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), append(args, "--home", home), strings.NewReader(""), &out, &errb); cli.Code(err) != want {
			t.Fatalf("%v: exit %d (%v), want %d\n%s%s", args, cli.Code(err), err, want, out.String(), errb.String())
		}
		return out.String() + errb.String()
	}
	cmd := func(args ...string) string { t.Helper(); return code(0, args...) }
	const secret, pem = "Hunt3r2-Prod", "MIIEowIBAAKCAQEAx9Yb2Kc4Md6Nf8Ph0Rj2Tl4Vn6Xp8Zr0Bt2Dv4Fx6Hz8"
	id := strings.TrimSpace(cmd("write", "--type", "semantic", "--title", "db", "--body", "staging password="+secret+"\nkeep this line", "--keep-secrets"))
	keyID := strings.TrimSpace(cmd("write", "--type", "procedural", "--title", "key", "--keep-secrets",
		"--body", "-----BEGIN RSA PRIVATE KEY-----\n"+pem+"\n-----END RSA PRIVATE KEY-----"))
	cmd("write", "--type", "semantic", "--title", "benign", "--body", "const apiKey = process.env.OPENAI_API_KEY")
	mem := filepath.Join(home, "memory")
	gitT(t, mem, "init", "-q")
	gitT(t, mem, "add", "-A")
	gitT(t, mem, "commit", "-qm", "notes")
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitT(t, filepath.Dir(remote), "init", "-q", "--bare", remote)
	gitT(t, mem, "remote", "add", "origin", remote)
	gitT(t, mem, "push", "-q", "origin", "main")

	file := filepath.Join(mem, "semantic", id+".md")
	before, _ := os.ReadFile(file)
	out := code(1, "scrub")
	for _, w := range []string{"scrub: would redact memory/semantic/" + id + ".md (secret-value)",
		"scrub: would redact memory/procedural/" + keyID + ".md (private-key)",
		"scrub: 2 note file(s) hold secrets; run `anamnesis scrub --apply`",
		"adds semantic/" + id + ".md with secrets (secret-value)", "adds procedural/" + keyID + ".md with secrets (private-key)",
		"scrub: 1 commit(s) in git history still hold secrets"} {
		if !strings.Contains(out, w) {
			t.Errorf("dry run lacks %q:\n%s", w, out)
		}
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) || strings.Contains(out, secret) || strings.Contains(out, pem) {
		t.Fatalf("dry run changed the file or printed a secret:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, scrub.ReplacementsFile)); err == nil {
		t.Fatal("dry run wrote the replacement list")
	}

	out = code(1, "scrub", "--apply") // the history still holds them
	if strings.Contains(out, secret) || strings.Contains(out, pem) || !strings.Contains(out, "scrub: redacted memory/semantic/"+id+".md") ||
		!strings.Contains(out, "scrub: committed the redacted notes") {
		t.Fatalf("apply:\n%s", out)
	}
	if data, _ := os.ReadFile(file); strings.Contains(string(data), secret) || !strings.Contains(string(data), "keep this line") {
		t.Fatalf("file after apply:\n%s", data)
	}
	info, err := os.Stat(filepath.Join(home, scrub.ReplacementsFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("replacement list: %v %v", err, info)
	}
	if again := code(1, "scrub"); !strings.Contains(again, "scrub: no secrets in the notes") {
		t.Fatalf("after apply, scrub still finds notes:\n%s", again)
	}
	if _, err := exec.LookPath("git-filter-repo"); err != nil {
		t.Skip("git filter-repo is not installed: the printed purge command was not run")
	}
	purge := regexp.MustCompile(`(?m)^  (url=.*)$`).FindStringSubmatch(out)
	if purge == nil {
		t.Fatalf("no purge command in:\n%s", out)
	}
	if o, err := exec.Command("sh", "-c", purge[1]).CombinedOutput(); err != nil {
		t.Fatalf("purge command failed: %v\n%s", err, o)
	}
	for _, dir := range []string{mem, remote} {
		hist := gitT(t, dir, "log", "--all", "-p")
		if strings.Contains(hist, secret) || strings.Contains(hist, pem) || !strings.Contains(hist, "keep this line") {
			t.Errorf("%s history after the purge:\n%s", dir, hist)
		}
	}
	if after := code(0, "scrub"); !strings.Contains(after, "scrub: no secrets in git history") {
		t.Errorf("after the purge:\n%s", after)
	}
}
