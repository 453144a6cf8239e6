package setup

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// Hook timeouts in seconds (seed 001): inject must be quick; capture at
// SessionEnd may summarise and commit; PreCompact capture never syncs.
const (
	injectTimeout     = 15
	captureTimeout    = 120
	precompactTimeout = 60
	// recall runs before every prompt is sent: it must never hold one up.
	recallTimeout = 5
)

// Binary names, without the platform suffix.
const (
	BinDispatcher = "anamnesis"
	BinInject     = "anamnesis-inject"
	BinRecall     = "anamnesis-recall"
	BinCapture    = "anamnesis-capture"
	BinSync       = "anamnesis-sync"
	BinMCP        = "anamnesis-mcp"
	BinDashboard  = "anamnesis-dashboard"
)

// AllBinaries lists every binary install.sh installs, dispatcher first.
var AllBinaries = []string{BinDispatcher, BinInject, BinRecall, BinCapture, BinSync, BinMCP, BinDashboard}

// RetiredBinaries were installed by earlier versions; an upgrade removes
// them and uninstall lists them with the rest.
var RetiredBinaries = []string{"anamnesis-model"}

// BuildHooks returns the five matcher groups init installs. Each command
// runs the dedicated binary by absolute path (not the dispatcher: one process
// fewer on every session start), with --home only when the home is not the
// default one. No shell syntax (no inline VAR=value, which PowerShell cannot
// run); arguments are quoted only when they need it (hookArg).
//
// On Windows every hook is an argument list (exec form: "command" is the
// executable, "args" its arguments; Claude Code starts it with no shell, as
// the plugin's hooks). No single command string runs alike in Git Bash, cmd
// and PowerShell once a path needs quoting (a space, '&', ','): Git Bash and
// cmd want it in double quotes, PowerShell reads a quoted first word as a
// string, not a command. The home is always passed there, so "args" is never
// empty (an empty list would be dropped and the hook read as shell form).
func BuildHooks(binDir, home string, homeIsDefault bool) EventGroups {
	return buildHooks(binDir, home, homeIsDefault, isWindows(), bin.Path)
}

// buildHooks builds the hooks in exec form (argument lists) or shell form,
// with path naming a binary in binDir.
func buildHooks(binDir, home string, homeIsDefault, execForm bool, path func(dir, name string) string) EventGroups {
	cmd := func(name, args string) HookCommand {
		if execForm {
			a := append([]string{"--home", home}, strings.Fields(args)...)
			return HookCommand{Type: "command", Command: path(binDir, name), Args: a}
		}
		c := hookArg(path(binDir, name))
		if !homeIsDefault {
			c += " --home " + hookArg(home)
		}
		if args != "" {
			c += " " + args
		}
		return HookCommand{Type: "command", Command: c}
	}
	with := func(h HookCommand, timeout int, async bool) []HookCommand {
		h.Timeout, h.Async = timeout, async
		return []HookCommand{h}
	}
	return EventGroups{
		{Event: "SessionStart", Groups: []HookGroup{
			// compact: Claude Code 2.1.330 fires SessionStart with source
			// compact after a compaction and puts the output in the fresh
			// context; without it the memory block is gone after /compact.
			{Matcher: "startup|resume|clear|compact", Hooks: with(cmd(BinInject, ""), injectTimeout, false)},
			// --background: the sync detaches and the hook returns at once;
			// Claude Code waits for a hook still running at exit, so one
			// stuck on a silent remote would delay every exit.
			{Matcher: "startup|resume", Hooks: with(cmd(BinSync, "--background"), 0, true)},
		}},
		{Event: "SessionEnd", Groups: []HookGroup{
			{Hooks: with(cmd(BinCapture, ""), captureTimeout, false)},
		}},
		{Event: "PreCompact", Groups: []HookGroup{
			{Hooks: with(cmd(BinCapture, "--source precompact --no-sync"), precompactTimeout, false)},
		}},
		// Last, so a file written by an earlier init keeps its event order.
		{Event: "UserPromptSubmit", Groups: []HookGroup{
			{Hooks: with(cmd(BinRecall, ""), recallTimeout, false)},
		}},
	}
}

// hookArg is a path as a word of a shell-form hook command (not on Windows):
// a plain path is written as it is, anything else quoted for the POSIX
// shell Claude Code runs hooks with.
func hookArg(p string) string { return cli.ShellQuote(p) }
