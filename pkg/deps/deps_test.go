// Package deps holds no code: its test enforces the dependency rules of the
// tree (SPEC 1) with `go list`, so `go test ./...` fails the moment a change
// breaks one, the way tailscale's tstest/deptest does.
package deps

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/anamnesis-dev/anamnesis"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// list runs `go list -json` on patterns from the module root, outside the
// workspace: the root module must build without the MCP module.
func list(t *testing.T, deps bool, patterns ...string) []pkg {
	t.Helper()
	args := []string{"list", "-json"}
	if deps {
		args = append(args, "-deps")
	}
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Dir = "../.."
	cmd.Env = append(cmd.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// Binaries other than anamnesis-mcp (its own module) and what they must
// never link: mcp-go stays in the MCP server; the SessionStart and prompt
// hooks, which run before every session and prompt, carry no HTTP stack,
// and the SessionStart hook's common path (a cached block) links neither
// SQLite nor YAML: their start-up alone would double its time (a miss runs
// `anamnesis inject`). The dispatcher and the other interactive commands
// may link the HTTP stack (the dispatcher posts model requests itself):
// their budgets (SPEC 9) are loose so that the simpler design wins.
var bans = map[string][]string{
	"anamnesis":           {"github.com/mark3labs/mcp-go"},
	"anamnesis-capture":   {"github.com/mark3labs/mcp-go"},
	"anamnesis-sync":      {"github.com/mark3labs/mcp-go", "net/http"},
	"anamnesis-dashboard": {"github.com/mark3labs/mcp-go"},
	"anamnesis-inject":    {"github.com/mark3labs/mcp-go", "net/http", "modernc.org/sqlite", "gopkg.in/yaml.v3", module + "/pkg/store"},
	"anamnesis-recall":    {"github.com/mark3labs/mcp-go", "net/http"},
}

func TestBinariesLinkOnlyWhatTheyMay(t *testing.T) {
	for name, banned := range bans {
		t.Run(name, func(t *testing.T) {
			got := list(t, true, "./cmd/"+name)
			for _, p := range got {
				for _, b := range banned {
					if p.ImportPath == b || strings.HasPrefix(p.ImportPath, b+"/") {
						t.Errorf("%s links %s", name, p.ImportPath)
					}
				}
			}
		})
	}
}

// Every binary of the root module is in the table above, so a new one
// cannot skip the rules.
func TestEveryBinaryHasRules(t *testing.T) {
	for _, p := range list(t, false, "./cmd/...") {
		name := strings.TrimPrefix(p.ImportPath, module+"/cmd/")
		if strings.Contains(name, "/") {
			continue
		}
		if _, ok := bans[name]; !ok {
			t.Errorf("cmd/%s has no entry in the dependency rules", name)
		}
	}
}

// pkg never imports cmd; only pkg/store imports the SQLite driver (and the
// bench's SQLite floor, which times the driver alone).
func TestPackageRules(t *testing.T) {
	for _, p := range list(t, false, "./...") {
		for _, imp := range p.Imports {
			if strings.HasPrefix(p.ImportPath, module+"/pkg/") && strings.HasPrefix(imp, module+"/cmd/") {
				t.Errorf("%s imports %s (pkg must not import cmd)", p.ImportPath, imp)
			}
			if strings.HasPrefix(imp, "modernc.org/sqlite") && p.ImportPath != module+"/pkg/store" && p.ImportPath != module+"/scripts/bench/sqlfloor" {
				t.Errorf("%s imports %s (only pkg/store may)", p.ImportPath, imp)
			}
		}
		if slices.Contains(p.Imports, "github.com/mark3labs/mcp-go") {
			t.Errorf("%s imports mcp-go outside the MCP module", p.ImportPath)
		}
	}
}

// initBudget is what one of the module's packages may allocate when a
// process starts: package-level regexps, tables and maps are built on first
// use instead (sync.OnceValue), because every hook pays for every package it
// links at each start, whether or not it uses them.
const initBudget = 64 << 10

// TestInitIsCheap starts the hooks and the dispatcher with Go's init trace
// and fails when a package of the module allocates more than initBudget in
// its init (the screen's rules once cost the prompt hook 440 KB and several
// milliseconds there).
func TestInitIsCheap(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	for _, b := range []struct {
		name string
		args []string
	}{
		{"anamnesis-recall", nil},
		{"anamnesis-inject", nil},
		{"anamnesis-capture", nil},
		{"anamnesis", []string{"version"}},
	} {
		exe := dir + "/" + b.name
		build := exec.Command("go", "build", "-o", exe, "./cmd/"+b.name)
		build.Dir = "../.."
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.name, err, out)
		}
		cmd := exec.Command(exe, b.args...)
		cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1", "ANAMNESIS_HOME="+home)
		cmd.Stdin = strings.NewReader("{}")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		_ = cmd.Run() // hooks fail open; only the trace matters
		seen := 0
		for _, line := range strings.Split(stderr.String(), "\n") {
			// init PKG @T ms, C ms clock, B bytes, A allocs
			f := strings.Fields(line)
			if len(f) < 9 || f[0] != "init" || !strings.HasPrefix(f[1], module+"/") {
				continue
			}
			seen++
			var bytes int
			if _, err := fmt.Sscan(f[7], &bytes); err != nil {
				t.Fatalf("%s: cannot read the init trace line %q", b.name, line)
			}
			if bytes > initBudget {
				t.Errorf("%s: package %s allocates %d bytes at init (budget %d): build its tables on first use", b.name, f[1], bytes, initBudget)
			}
		}
		if seen == 0 {
			t.Fatalf("%s: no init trace of the module's packages in its stderr:\n%s", b.name, stderr.String())
		}
	}
}
