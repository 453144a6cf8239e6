package hook

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// MaxInput is the most input StartDetached gives a child: the smallest pipe
// buffer of the systems it runs on (Windows' default).
const MaxInput = 4096

// StartDetached starts bin for home and does not wait for it: the child gets
// its own session (it outlives Claude Code's exit and gets none of the
// terminal's signals), ANAMNESIS_HOME, the hook log as stdout and stderr,
// and input, when not nil, on its stdin: through a pipe, written once the
// child runs, whole into the pipe's buffer so the caller never waits for the
// child to read (at most MaxInput bytes).
func StartDetached(home string, input []byte, bin string, args ...string) (pid int, err error) {
	// The child runs in home, so a relative home would be resolved twice.
	if abs, err := filepath.Abs(home); err == nil {
		home = abs
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home)
	cmd.Dir = home
	if err := layout.MkdirAll(filepath.Dir(LogPath(home))); err == nil {
		if logf, err := os.OpenFile(LogPath(home), os.O_WRONLY|os.O_CREATE|os.O_APPEND, layout.FileMode); err == nil {
			cmd.Stdout, cmd.Stderr = logf, logf
			defer logf.Close() // the child holds its own descriptor
		}
	}
	detach(cmd)
	var w *os.File
	if len(input) > MaxInput {
		return 0, fmt.Errorf("%d bytes of input for a detached child, more than %d", len(input), MaxInput)
	}
	if input != nil {
		r, pw, err := os.Pipe()
		if err != nil {
			return 0, err
		}
		defer r.Close() // the child holds its own descriptor
		cmd.Stdin, w = r, pw
	}
	if err := cmd.Start(); err != nil {
		if w != nil {
			w.Close()
		}
		return 0, err
	}
	pid = cmd.Process.Pid
	_ = cmd.Process.Release()
	if w != nil {
		// A child that exits without reading gets nothing, and says so
		// in its own log lines.
		_, _ = w.Write(input)
		w.Close()
	}
	return pid, nil
}
