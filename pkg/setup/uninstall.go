package setup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
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
	p, err := opts.Paths.Resolve()
	if err != nil {
		return err
	}
	will := "removed"
	if opts.Print {
		will = "would remove"
	}

	// Hooks.
	path := resolveTarget(p.SettingsPath())
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
		if err := atomicfile.Write(path+".bak", old, mode); err != nil {
			return err
		}
		if d, err := parseSettings(newSettings); err == nil && len(d.top) == 0 {
			// init created the file (it had nothing else); leave no
			// empty settings.json behind.
			if err := os.Remove(path); err != nil {
				return err
			}
		} else if err := atomicfile.Write(path, newSettings, mode); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "hooks:  %s %d Anamnesis hook(s) from %s (previous version in settings.json.bak)\n", will, len(removedHooks), p.SettingsPath())
	}

	removeLine := cli.ShellLine("claude", "mcp", "remove", "--scope", "user", opts.Name)
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
	if !opts.Print {
		fmt.Fprintf(stdout, "store:  kept %s (your notes); delete it yourself if you no longer want them\n", p.Home)
	}
	return nil
}
