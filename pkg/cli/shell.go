package cli

import (
	"runtime"
	"strings"
)

// plainWord is what a POSIX shell, cmd and PowerShell all read as one word
// without quotes.
const plainWord = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+,="

// ShellQuote writes s as one word of a POSIX shell command line: as it is
// when it holds only plain characters, else single-quoted. A command
// written into Claude Code's hooks, or one only a POSIX shell runs
// (scrub's purge), is quoted this way; one printed for a person to paste
// into whatever shell they use (doctor's and init's fixes) is UserLine's.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, plainWord) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellLine is argv as a shell command line.
func ShellLine(argv ...string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = ShellQuote(a)
	}
	return strings.Join(parts, " ")
}

// UserLine is argv as a command line for a person to paste into their
// shell: ShellLine, except on Windows, where that shell is cmd.exe,
// PowerShell or Git Bash, none of which read single quotes alike. There an
// argument that is not a plain word goes in double quotes, which all three
// read back whole for a Windows path (spaces, &, ',', non-ASCII letters).
// An argument holding " or % has no such form: it is single-quoted, for
// Git Bash and PowerShell.
func UserLine(argv ...string) string {
	if runtime.GOOS != "windows" {
		return ShellLine(argv...)
	}
	parts := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case a != "" && strings.Trim(a, plainWord) == "":
			parts[i] = a
		case strings.ContainsAny(a, "\"%$`\n\r"):
			parts[i] = ShellQuote(a)
		default:
			trail := len(a) - len(strings.TrimRight(a, `\`))
			parts[i] = `"` + a + strings.Repeat(`\`, trail) + `"`
		}
	}
	return strings.Join(parts, " ")
}
