package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// anamnesisCommand matches the hook commands Anamnesis has ever installed:
// ours call the dedicated binaries (anamnesis-inject, …), the reference's
// call the dispatcher (`anamnesis inject`, possibly via `uv run … anamnesis
// inject`) and carry an inline ANAMNESIS_* environment prefix. A dedicated
// binary's name stands alone (a path's last element, or the plugin's bare
// name): a user's anamnesis-sync-status.sh or my-anamnesis-capture is not
// ours. Compiled on first use: the hooks link this package and must start
// fast.
var anamnesisCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`ANAMNESIS_|anamnesis(?:\.exe)?['"]?\s+(?:inject|sync|capture)\b|(?:^|[\s'"/\\])anamnesis-(?:inject|recall|sync|capture)(?:\.exe)?(?:$|[\s'"])`)
})

// IsAnamnesisCommand reports whether a hook command was written by an
// Anamnesis init (ours or the reference implementation's). init, uninstall
// and doctor (pkg/setup) and the plugin's hooks all decide with it.
func IsAnamnesisCommand(cmd string) bool { return anamnesisCommand().MatchString(cmd) }

// InitHooksInstalled reports whether Claude Code's user settings in
// claudeDir hold hooks that `anamnesis init` installed. The plugin's hooks
// (run with --plugin) then do nothing, so no hook runs twice. An unreadable
// file counts as none: the plugin's hooks run.
func InitHooksInstalled(claudeDir string) bool {
	data, err := os.ReadFile(filepath.Join(claudeDir, "settings.json"))
	if err != nil {
		return false
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(data, &s) != nil {
		return false
	}
	for _, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if IsAnamnesisCommand(h.Command) {
					return true
				}
			}
		}
	}
	return false
}
