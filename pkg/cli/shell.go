package cli

import "strings"

// plainWord is what a POSIX shell, cmd and PowerShell all read as one word
// without quotes.
const plainWord = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+,="

// ShellQuote writes s as one word of a POSIX shell command line: as it is
// when it holds only plain characters, else single-quoted. Every command
// printed for a person to run (doctor's fixes, scrub's purge) or written
// into Claude Code's hooks is quoted this way.
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
