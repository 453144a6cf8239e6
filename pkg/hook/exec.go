package hook

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// StartDetached starts bin for home and does not wait for it: the child gets
// its own session (it outlives Claude Code's exit and gets none of the
// terminal's signals), ANAMNESIS_HOME, and the hook log as stdout and stderr.
func StartDetached(home, bin string, args ...string) (pid int, err error) {
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
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid = cmd.Process.Pid
	_ = cmd.Process.Release()
	return pid, nil
}
