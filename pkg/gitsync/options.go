package gitsync

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/native"
)

// OptionsFrom builds sync options from resolved configuration: the remote
// from ANAMNESIS_GIT_REMOTE or config.json (read on every sync, so a remote
// set later, or changed, takes effect), the import from ANAMNESIS_IMPORT_NATIVE.
func OptionsFrom(cfg config.Config) Options {
	return Options{Home: cfg.Home, MachineID: cfg.MachineID, Remote: cfg.Remote,
		Import: cfg.ImportNative, ClaudeDir: cfg.ClaudeDir, Timeout: DefaultTimeout, LockWait: DefaultLockWait,
		Teams: TeamsFrom(cfg.Teams), Author: cfg.Author}
}

// PrintResult writes a sync's output: the import line (when the import saw
// native files), the import's problems on stderr, and the sync line; or the
// whole result as JSON.
func PrintResult(stdout, stderr io.Writer, r Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if imp := r.Import; imp != nil {
		printImport(stdout, stderr, *imp)
	}
	_, err := fmt.Fprintln(stdout, r.Line())
	for _, t := range r.Teams {
		fmt.Fprintln(stdout, t.Line())
		if t.Notice != "" {
			fmt.Fprintln(stderr, "anamnesis: "+t.Notice)
		}
		if t.Error != "" {
			fmt.Fprintln(stderr, "anamnesis: team "+t.Name+": "+MaskURL(t.Error))
		}
	}
	return err
}

func printImport(stdout, stderr io.Writer, imp native.Result) {
	if imp.Imported+imp.Updated+imp.Skipped == 0 && len(imp.Problems) == 0 && len(imp.Salvaged) == 0 {
		return
	}
	fmt.Fprintln(stdout, imp.Line())
	imp.Report(stderr)
}
