package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// UninstallOptions are `anamnesis uninstall`'s flags.
type UninstallOptions struct {
	Paths
	Name  string // MCP server name (default "anamnesis")
	Print bool   // show what would be removed, change nothing
}

// Uninstall removes exactly what init added to Claude Code (its hooks and
// the MCP registration) and keeps the store.
func Uninstall(ctx context.Context, opts UninstallOptions, stdout, stderr io.Writer) error {
	if opts.Name == "" {
		opts.Name = DefaultMCPName
	}
	if err := checkMCPName(opts.Name); err != nil {
		return err
	}
	p, err := opts.Paths.Resolve()
	if err != nil {
		return err
	}
	will := "removed"
	if opts.Print {
		will = "would remove"
	}

	// Hooks.
	path := atomicfile.LinkTarget(p.SettingsPath())
	old, had, err := readOptional(path)
	if err != nil {
		return err
	}
	var newSettings []byte
	removedHooks, _ := FindHooks(old)
	if had {
		nb, removed, err := RemoveHooks(old)
		var se *SettingsError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: %s; fix the file and run uninstall again (nothing was changed)", p.SettingsPath(), se.Reason)
		}
		if err != nil {
			return err
		}
		if removed {
			newSettings = nb
		}
	}

	// MCP.
	servers, readErr := readMCPServers(p.ClaudeJSON)
	_, registered := servers[opts.Name]
	claude, _ := exec.LookPath("claude")

	if newSettings == nil {
		fmt.Fprintf(stdout, "hooks:  none in %s\n", p.SettingsPath())
	} else if opts.Print {
		for _, h := range removedHooks {
			fmt.Fprintf(stdout, "hooks:  would remove %s %s\n", h.Event, hookText(h.Matcher, h.HookCommand))
		}
	} else {
		mode := fileMode(path, 0o644)
		back, restored := preInstall(path+".bak", newSettings)
		how := ""
		switch {
		case restored:
			// The exact bytes init replaced; the backup is init's and
			// now a copy of the file, so it goes too.
			if err := atomicfile.Write(path, back, mode); err != nil {
				return err
			}
			os.Remove(path + ".bak")
			how = " (restored the file as it was before init)"
		case isEmptySettings(newSettings):
			// init created the file (it had nothing else); leave no
			// empty settings.json behind.
			if err := os.Remove(path); err != nil {
				return err
			}
			how = " (init had created the file: removed it)"
		default:
			// Changed since init: only our hooks go, the rest stays.
			if err := atomicfile.Write(path, newSettings, mode); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "hooks:  %s %d Anamnesis hook(s) from %s%s\n", will, len(removedHooks), p.SettingsPath(), how)
	}

	removeLine := cli.UserLine("claude", "mcp", "remove", "--scope", "user", opts.Name)
	switch {
	case readErr == nil && !registered:
		fmt.Fprintf(stdout, "mcp:    %q not registered\n", opts.Name)
	case opts.Print:
		fmt.Fprintf(stdout, "mcp:    would run: %s\n", removeLine)
	case claude == "":
		fmt.Fprintf(stdout, "mcp:    `claude` is not on PATH; to remove the MCP server run:\n          %s\n", removeLine)
	default:
		if _, err := (claudeCLI{path: claude}).run(ctx, "mcp", "remove", "--scope", "user", opts.Name); err != nil {
			if registered {
				return fmt.Errorf("removing the MCP registration: %w", err)
			}
		} else {
			fmt.Fprintf(stdout, "mcp:    removed %q\n", opts.Name)
		}
	}
	// What uninstall leaves, each with how to remove it: the store, the
	// binaries, and a Claude Code plugin (which runs the same binaries).
	keep := "kept"
	if opts.Print {
		keep = "would keep"
	}
	fmt.Fprintf(stdout, "store:  %s %s (your notes, config.json, the git repository); delete it yourself if you no longer want them\n", keep, p.Home)
	var bins []string
	for _, b := range append(slices.Clone(AllBinaries), RetiredBinaries...) {
		if path := bin.Path(p.BinDir, b); bin.IsExecutable(path) {
			bins = append(bins, path)
		}
	}
	if len(bins) > 0 {
		fmt.Fprintf(stdout, "bin:    %s the %d binaries in %s; to remove them: %s\n", keep, len(bins), p.BinDir, cli.ShellLine(append([]string{"rm"}, bins...)...))
	}
	if plugin := EnabledPlugin(settingsNow(p.SettingsPath())); plugin != "" {
		fmt.Fprintf(stdout, "plugin: %s is still enabled and runs the same hooks and MCP server; to remove it: claude plugin uninstall %s && claude plugin marketplace remove %s\n",
			plugin, plugin, strings.TrimPrefix(plugin, PluginName+"@"))
	}
	return nil
}

// settingsNow is settings.json's bytes, nil when it cannot be read.
func settingsNow(path string) []byte {
	data, _, _ := readOptional(atomicfile.LinkTarget(path))
	return data
}

// preInstall returns the bytes init kept in bak (the file before any
// Anamnesis hook) when they say exactly what stripped (the file now, minus
// our hooks) says: restoring them then changes formatting only, never a
// setting made since init. Otherwise false, and uninstall writes stripped.
func preInstall(bak string, stripped []byte) ([]byte, bool) {
	orig, had, err := readOptional(bak)
	if err != nil || !had {
		return nil, false
	}
	return orig, sameJSON(orig, stripped)
}

// sameJSON compares two settings files by value (an empty file is {}).
func sameJSON(a, b []byte) bool {
	va, erra := jsonValue(a)
	vb, errb := jsonValue(b)
	return erra == nil && errb == nil && reflect.DeepEqual(va, vb)
}

func jsonValue(data []byte) (any, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// isEmptySettings reports a settings file with no keys at all.
func isEmptySettings(data []byte) bool {
	d, err := parseSettings(data)
	return err == nil && len(d.top) == 0
}
