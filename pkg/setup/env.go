package setup

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

func isWindows() bool { return runtime.GOOS == "windows" }

// Paths are where init, uninstall and doctor look and write. Zero fields are
// filled from the environment by Resolve.
type Paths struct {
	// Home is the store home, absolute.
	Home string
	// HomeIsDefault is true when Home is ~/.anamnesis; only then do hook
	// commands and the MCP registration go without ANAMNESIS_HOME.
	HomeIsDefault bool
	// BinDir holds all the binaries (default: the running executable's).
	BinDir string
	// ClaudeConfigDir is $CLAUDE_CONFIG_DIR, else ~/.claude.
	ClaudeConfigDir string
	// ClaudeJSON is where Claude Code keeps user-scope MCP servers.
	ClaudeJSON string
}

// SettingsPath is Claude Code's user settings file.
func (p Paths) SettingsPath() string { return filepath.Join(p.ClaudeConfigDir, "settings.json") }

// ConfigPath is the machine-local config.json in the home.
func (p Paths) ConfigPath() string { return config.Path(p.Home) }

// Resolve fills the zero fields of p through pkg/config (the one reader of
// ANAMNESIS_HOME and CLAUDE_CONFIG_DIR): Home, BinDir from the running
// executable, the Claude Code paths.
func (p Paths) Resolve() (Paths, error) {
	cfg := config.Resolve(p.Home, os.Getenv)
	var err error
	if p.Home, err = filepath.Abs(cfg.Home); err != nil {
		return p, err
	}
	p.HomeIsDefault = filepath.Clean(p.Home) == filepath.Join(cfg.UserHome, ".anamnesis")
	if p.BinDir == "" {
		_, p.BinDir, err = bin.Self()
		if err != nil {
			return p, err
		}
	}
	if p.BinDir, err = filepath.Abs(p.BinDir); err != nil {
		return p, err
	}
	if p.ClaudeConfigDir == "" {
		p.ClaudeConfigDir = cfg.ClaudeDir
		if p.ClaudeJSON == "" {
			p.ClaudeJSON = cfg.ClaudeJSON
		}
	} else if p.ClaudeJSON == "" {
		// A config dir given explicitly is where Claude Code keeps it.
		p.ClaudeJSON = filepath.Join(p.ClaudeConfigDir, ".claude.json")
	}
	if p.ClaudeConfigDir, err = filepath.Abs(p.ClaudeConfigDir); err != nil {
		return p, err
	}
	if p.ClaudeJSON, err = filepath.Abs(p.ClaudeJSON); err != nil {
		return p, err
	}
	return p, nil
}
