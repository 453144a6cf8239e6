package bin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// winExts are the file name extensions Windows runs as programs, in
// PATHEXT's default order (.com left out: no toolkit binary is one); a
// file without one of them is not runnable there, whatever its name.
var winExts = []string{".exe", ".bat", ".cmd"}

// Candidates lists the paths tried, in order, for the command name in dir:
// name itself, or on Windows name with each runnable extension.
func Candidates(dir, name string) []string {
	if runtime.GOOS != "windows" {
		return []string{filepath.Join(dir, name)}
	}
	out := make([]string, len(winExts))
	for i, e := range winExts {
		out[i] = filepath.Join(dir, name+e)
	}
	return out
}

// CommandName is the command a file runs as: on Windows its name less a
// runnable extension (matched in any case), and ok false for a file Windows
// would not run (no such extension); elsewhere the name itself.
func CommandName(file string) (name string, ok bool) {
	if runtime.GOOS != "windows" {
		return file, true
	}
	ext := filepath.Ext(file)
	for _, e := range winExts {
		if strings.EqualFold(ext, e) {
			return file[:len(file)-len(ext)], true
		}
	}
	return "", false
}

// IsBatch reports whether path is a batch file (.cmd, .bat), which Windows
// runs through cmd.exe: npm's shims, such as claude.cmd, are.
func IsBatch(path string) bool {
	ext := filepath.Ext(path)
	return strings.EqualFold(ext, ".cmd") || strings.EqualFold(ext, ".bat")
}

// Command is exec.CommandContext, except for a batch file on Windows. cmd.exe
// reads a batch file's command line again, where an unquoted & | < > ^ runs
// another command, %NAME% is expanded and a line break ends the command; the
// quoting Windows programs use (\") is not cmd's. So the batch file runs
// through cmd.exe explicitly (no AutoRun, no delayed expansion: ! is
// literal) with every argument in double quotes, inside which cmd takes
// & | < > ^ and spaces literally; an argument no quoting carries through
// cmd.exe whole (one with ", %, a line break or NUL) is refused with an
// error naming it, rather than run.
func Command(ctx context.Context, path string, args ...string) (*exec.Cmd, error) {
	if runtime.GOOS != "windows" || !IsBatch(path) {
		return exec.CommandContext(ctx, path, args...), nil
	}
	line, err := BatchLine(path, args)
	if err != nil {
		return nil, err
	}
	comspec := os.Getenv("ComSpec")
	if comspec == "" || !filepath.IsAbs(comspec) {
		comspec = filepath.Join(os.Getenv("SystemRoot"), "System32", "cmd.exe")
	}
	cmd := exec.CommandContext(ctx, comspec)
	setCmdLine(cmd, line)
	return cmd, nil
}

// BatchLine is the cmd.exe command line that runs the batch file at path
// with args (see Command), or the error refusing an argument.
func BatchLine(path string, args []string) (string, error) {
	var b strings.Builder
	b.WriteString(`cmd.exe /d /v:off /s /c "`)
	for i, a := range append([]string{path}, args...) {
		if i := strings.IndexAny(a, "\"%\r\n\x00"); i >= 0 {
			what := map[byte]string{'"': `a double quote (")`, '%': "a percent sign (%)", '\r': "a line break", '\n': "a line break", 0: "a NUL byte"}[a[i]]
			return "", fmt.Errorf("refusing to run %s with the argument %.80q: it holds %s, which cmd.exe (which runs .cmd and .bat files) cannot pass on unchanged; install a %s.exe (or pass the value another way)",
				path, a, what, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		// A program reads \" as a quote: double the backslashes before the
		// closing quote so they stay backslashes.
		trail := len(a) - len(strings.TrimRight(a, `\`))
		b.WriteString(`"` + a + strings.Repeat(`\`, trail) + `"`)
	}
	b.WriteByte('"')
	return b.String(), nil
}
