package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// installScript runs scripts/install.sh with a stand-in `go` that writes a
// small shell script for each binary (the dispatcher's prints its arguments
// and init's last line), and returns stdout and stderr interleaved as the
// user sees them.
func installScript(t *testing.T, pathHasBin bool, env ...string) (string, string, error) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("install.sh is a POSIX shell script")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fake := t.TempDir()
	goScript := `#!/bin/sh
[ "$1" = env ] && exit 0 # go env GOEXE: no suffix
out=""
while [ $# -gt 0 ]; do
	case "$1" in -o) out=$2; shift ;; esac
	shift
done
case "$out" in
*/anamnesis) printf '#!/bin/sh\necho "init $*"\necho "anamnesis: ready. anamnesis doctor checks the installation."\nexit 3\n' >"$out" ;;
*) printf '#!/bin/sh\n' >"$out" ;;
esac
chmod 755 "$out"
`
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(goScript), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	path := fake + ":/usr/bin:/bin"
	if p, err := exec.LookPath("git"); err == nil {
		path += ":" + filepath.Dir(p)
	}
	if pathHasBin {
		path = bin + ":" + path
	}
	cmd := exec.Command("sh", filepath.Join(root, "scripts", "install.sh"), "--machine-id", "box")
	cmd.Env = append([]string{"PATH=" + path, "HOME=" + t.TempDir(), "BINDIR=" + bin}, env...)
	cmd.Stdin = strings.NewReader("")
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	// One file for both streams keeps their order, as on a terminal.
	cmd.Stdout, cmd.Stderr = out, out
	runErr := cmd.Run()
	data, _ := os.ReadFile(out.Name())
	return string(data), bin, runErr
}

// The "not on PATH" warning is the last thing install.sh prints, after
// init's output, and init's exit status is kept.
func TestInstallScriptWarnsAboutPathLast(t *testing.T) {
	out, bin, err := installScript(t, false)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("exit: %v (want init's status 3)\n%s", err, out)
	}
	if !strings.Contains(out, "init --yes --machine-id box\n") {
		t.Errorf("init not run with --yes and the arguments:\n%s", out)
	}
	warn := strings.Index(out, "WARNING: "+bin+" is not on your PATH")
	ready := strings.Index(out, "anamnesis: ready.")
	if warn < 0 || ready < 0 || warn < ready {
		t.Fatalf("the PATH warning is not after init's output:\n%s", out)
	}
	tail := out[warn:]
	for _, want := range []string{`export PATH="` + bin + `:$PATH"`, bin + "/anamnesis doctor"} {
		if !strings.Contains(tail, want) {
			t.Errorf("warning lacks %q:\n%s", want, tail)
		}
	}
	if lines := strings.Split(strings.TrimSpace(tail), "\n"); len(lines) != 4 {
		t.Errorf("something printed after the warning:\n%s", tail)
	}

	// With the directory on PATH there is no warning.
	out, _, _ = installScript(t, true)
	if strings.Contains(out, "WARNING") || !strings.Contains(out, "anamnesis: ready.") {
		t.Errorf("on PATH:\n%s", out)
	}
	// Binaries only: the warning still ends the output.
	out, bin, err = installScript(t, false, "ANAMNESIS_SKIP_INIT=1")
	if err != nil || !strings.HasSuffix(strings.TrimSpace(out), bin+"/anamnesis doctor") {
		t.Errorf("ANAMNESIS_SKIP_INIT=1: %v\n%s", err, out)
	}
}

// The release archives (.goreleaser.yaml, `make dist`) carry every file
// they list, and the Windows zip carries scripts/install.ps1 at its root,
// next to the .exe files it installs (the script looks for them beside
// itself). Checked from the configuration, since goreleaser is not run here.
func TestReleaseArchiveFiles(t *testing.T) {
	b, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Archives []struct {
			Formats   []string `yaml:"formats"`
			Overrides []struct {
				GOOS    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
			Files []yaml.Node `yaml:"files"`
		} `yaml:"archives"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Archives) != 1 {
		t.Fatalf("%d archive configurations, want the one for every OS", len(cfg.Archives))
	}
	a := cfg.Archives[0]
	zip := false
	for _, o := range a.Overrides {
		zip = zip || (o.GOOS == "windows" && strings.Join(o.Formats, ",") == "zip")
	}
	if !zip {
		t.Error("the Windows archive is not a zip")
	}
	ps1 := false
	for _, n := range a.Files {
		var f struct {
			Src         string `yaml:"src"`
			StripParent bool   `yaml:"strip_parent"`
		}
		if n.Kind == yaml.ScalarNode {
			f.Src = n.Value
		} else if err := n.Decode(&f); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join("../..", f.Src)); err != nil {
			t.Errorf("the archive lists %s: %v", f.Src, err)
		}
		if f.Src == "scripts/install.ps1" {
			ps1 = f.StripParent
		}
	}
	if !ps1 {
		t.Error("scripts/install.ps1 is not in the archive at its root (src with strip_parent)")
	}
}
