package gitsync

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// BinaryName is the sync command's executable.
const BinaryName = "anamnesis-sync"

// Binary finds anamnesis-sync: next to the running executable first (the
// installed set), else on PATH.
func Binary() (string, error) {
	name := BinaryName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && (runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0) {
			return p, nil
		}
	}
	p, err := exec.LookPath(BinaryName)
	if err != nil {
		return "", fmt.Errorf("%s not found next to %s or on PATH", BinaryName, os.Args[0])
	}
	return p, nil
}

// LogPath is the shared log detached syncs append to.
func LogPath(home string) string { return filepath.Join(home, "logs", "anamnesis.log") }

// StartDetached starts `anamnesis-sync --home HOME ARGS...` in the
// background, detached from the caller (its own session, stdin from the null
// device, stdout and stderr appended to <home>/logs/anamnesis.log), and
// returns its pid without waiting: a hook can return at once and the sync
// outlives the Claude Code process that ran the hook.
func StartDetached(home string, args ...string) (int, error) {
	bin, err := Binary()
	if err != nil {
		return 0, err
	}
	home, err = filepath.Abs(home)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(LogPath(home)), 0o700); err != nil {
		return 0, err
	}
	logf, err := os.OpenFile(LogPath(home), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	cmd := exec.Command(bin, append([]string{"--home", home}, args...)...)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, logf, logf
	cmd.Dir = home
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	if err := cmd.Process.Release(); err != nil {
		return pid, errors.Join(errors.New("release detached sync"), err)
	}
	return pid, nil
}
