package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeSSH stands in for ssh as git calls it (GIT_SSH_COMMAND): the host is
// a directory under $FAKE_SSH_HOSTS (the host's home), the command runs
// there. An unknown host and a machine without ~/.ssh/id_ed25519 get the
// messages real ssh prints.
const fakeSSH = `#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in
	-o|-p|-i|-l|-F) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
dest=$1; shift
host=${dest#*@}
if [ ! -d "$FAKE_SSH_HOSTS/$host" ]; then
	echo "ssh: Could not resolve hostname $host: Name or service not known" >&2
	exit 255
fi
if [ ! -f "$HOME/.ssh/id_ed25519" ]; then
	echo "$dest: Permission denied (publickey)." >&2
	exit 255
fi
cd "$FAKE_SSH_HOSTS/$host" || exit 255
cmd=$(printf '%s' "$*" | sed 's/^git-\([a-z-]*\)/git \1/')
exec sh -c "$cmd"
`

// machine is one computer of the guide: its own HOME (ssh key, store,
// Claude Code config) sharing the hosts and the installed binaries.
type machine struct {
	t    *testing.T
	home string
	bin  string // the installed binaries
	env  []string
}

func (m *machine) run(name string, args ...string) (string, error) {
	m.t.Helper()
	if name == "anamnesis" {
		name = filepath.Join(m.bin, name) // as on PATH (exec looks names up in this process's PATH)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = m.home
	cmd.Env = m.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (m *machine) must(name string, args ...string) string {
	m.t.Helper()
	out, err := m.run(name, args...)
	if err != nil {
		m.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// remoteCheck is doctor's remote line (status, detail, fix).
func (m *machine) remoteCheck() (status, detail, fix string) {
	m.t.Helper()
	out, _ := m.run("anamnesis", "doctor", "--json", "--timeout", "20")
	var checks []struct{ Check, Status, Detail, Fix string }
	if err := json.Unmarshal([]byte(out), &checks); err != nil {
		m.t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	for _, c := range checks {
		if c.Check == "remote" {
			return c.Status, c.Detail, c.Fix
		}
	}
	m.t.Fatalf("no remote check:\n%s", out)
	return
}

// TestAcrossMachinesGuide follows docs/across-machines.md with real git
// over an ssh-like transport: the bare repository on the always-on host,
// the first machine, a second and a third, and what doctor says when a key,
// the host, a bare repository or the main branch is missing.
func TestAcrossMachinesGuide(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the ssh stand-in is a shell script")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	binDir := filepath.Join(root, "bin")
	build := exec.Command("go", "build", "-o", binDir+string(os.PathSeparator), "../anamnesis", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ssh := filepath.Join(root, "ssh")
	if err := os.WriteFile(ssh, []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	hosts := filepath.Join(root, "hosts")
	if err := os.MkdirAll(filepath.Join(hosts, "homeserver"), 0o755); err != nil {
		t.Fatal(err)
	}
	newMachine := func(name string, withKey bool) *machine {
		home := filepath.Join(root, name)
		os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
		if withKey {
			os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("key\n"), 0o600)
		}
		return &machine{t: t, home: home, bin: binDir, env: []string{
			"HOME=" + home,
			"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
			"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
			"GIT_SSH_COMMAND=" + ssh,
			"FAKE_SSH_HOSTS=" + hosts,
			"ANAMNESIS_IMPORT_NATIVE=0",
			"GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig"),
			"TMPDIR=" + os.TempDir(),
		}}
	}
	const remote = "you@homeserver:anamnesis-memory.git"

	// 1. The always-on machine: a bare repository on main.
	a := newMachine("laptop", true)
	a.must(ssh, "you@homeserver", "git init --bare -b main anamnesis-memory.git")

	// 2. The first machine (init without hooks and MCP server: they are not
	// what this guide is about, and need binaries this test does not build).
	a.must("anamnesis", "init", "--yes", "--no-mcp", "--no-hooks", "--machine-id", "laptop", "--remote", remote)
	a.must("anamnesis", "write", "--type", "semantic", "--title", "Staging deploys go through make release", "--body", "Never push tags by hand.")
	a.must("anamnesis", "sync")
	if st, detail, _ := a.remoteCheck(); st != "ok" || detail != remote+" reachable" {
		t.Errorf("first machine: doctor's remote check is %s %q", st, detail)
	}

	// 3. A second and a third machine see the first's notes, and each other's.
	b := newMachine("desktop", true)
	b.must("anamnesis", "init", "--yes", "--no-mcp", "--no-hooks", "--machine-id", "desktop", "--remote", remote)
	if out := b.must("anamnesis", "list"); !strings.Contains(out, "Staging deploys go through make release") {
		t.Errorf("second machine does not list the first's note:\n%s", out)
	}
	b.must("anamnesis", "write", "--type", "procedural", "--title", "Rotate the staging TLS certificate with certbot", "--body", "certbot renew")
	b.must("anamnesis", "sync")
	c := newMachine("workstation", true)
	c.must("anamnesis", "init", "--yes", "--no-mcp", "--no-hooks", "--machine-id", "workstation", "--remote", remote)
	out := c.must("anamnesis", "list")
	for _, title := range []string{"Staging deploys go through make release", "Rotate the staging TLS certificate"} {
		if !strings.Contains(out, title) {
			t.Errorf("third machine lacks %q:\n%s", title, out)
		}
	}
	a.must("anamnesis", "sync")
	if out := a.must("anamnesis", "list"); !strings.Contains(out, "Rotate the staging TLS certificate") {
		t.Errorf("first machine does not get the second's note:\n%s", out)
	}

	// What doctor says when something is missing.
	nokey := newMachine("nokey", false)
	nokey.must("anamnesis", "config", "set", "remote", remote)
	st, detail, fix := nokey.remoteCheck()
	if st != "FAIL" || !strings.Contains(detail, "Permission denied (publickey)") || !strings.Contains(fix, "ssh-keygen -t ed25519") {
		t.Errorf("no ssh key: %s %q fix %q", st, detail, fix)
	}

	a.must("anamnesis", "config", "set", "remote", "you@nohost:anamnesis-memory.git")
	st, detail, fix = a.remoteCheck()
	if st != "FAIL" || !strings.Contains(detail, "Could not resolve hostname nohost") || !strings.Contains(fix, "the host is not reachable") {
		t.Errorf("unknown host: %s %q fix %q", st, detail, fix)
	}

	a.must("anamnesis", "config", "set", "remote", "you@homeserver:nothere.git")
	st, detail, fix = a.remoteCheck()
	if st != "FAIL" || !strings.Contains(detail, "does not appear to be a git repository") || !strings.Contains(fix, "git init --bare PATH") {
		t.Errorf("no repository: %s %q fix %q", st, detail, fix)
	}

	// Not bare: ls-remote answers; the push is refused, and doctor reads
	// the last sync's record.
	a.must(ssh, "you@homeserver", "git init -q -b main notbare && git -C notbare -c user.name=h -c user.email=h@h commit -q --allow-empty -m first")
	a.must("anamnesis", "config", "set", "remote", "you@homeserver:notbare")
	if out, err := a.run("anamnesis", "sync"); err == nil {
		t.Errorf("sync to a non-bare remote succeeded:\n%s", out)
	}
	st, detail, fix = a.remoteCheck()
	if st != "FAIL" || !strings.Contains(detail, "the last sync") || !strings.Contains(fix, "not a bare repository") {
		last, _ := os.ReadFile(filepath.Join(a.home, ".anamnesis", "logs", "last-sync.json"))
		t.Errorf("not bare: %s %q fix %q\nlast sync: %s", st, detail, fix, last)
	}

	// The remote's branch is not main.
	a.must(ssh, "you@homeserver", "git init -q --bare -b master oldbranch.git && git init -q -b master w && git -C w -c user.name=h -c user.email=h@h commit -q --allow-empty -m first && git -C w push -q ../oldbranch.git master")
	a.must("anamnesis", "config", "set", "remote", "you@homeserver:oldbranch.git")
	st, detail, _ = a.remoteCheck()
	if st != "warn" || !strings.Contains(detail, "has no main branch (it has master)") {
		t.Errorf("wrong branch: %s %q", st, detail)
	}
	t.Logf("doctor on the last step: %s %s", st, detail)
}
