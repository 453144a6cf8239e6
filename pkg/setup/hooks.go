package setup

import (
	"path/filepath"
	"runtime"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
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
	BinModel      = model.HelperName
)

// AllBinaries lists every binary install.sh installs, dispatcher first.
var AllBinaries = []string{BinDispatcher, BinInject, BinRecall, BinCapture, BinSync, BinMCP, BinDashboard, BinModel}

// BuildHooks returns the five matcher groups init installs. Each command
// runs the dedicated binary by absolute path (not the dispatcher: one process
// fewer on every session start), with --home only when the home is not the
// default one. No shell syntax (no inline VAR=value, which PowerShell cannot
// run); arguments are quoted only when they need it (hookArg).
func BuildHooks(binDir, home string, homeIsDefault bool) EventGroups {
	cmd := func(name, args string) string {
		c := hookArg(bin.Path(binDir, name))
		if !homeIsDefault {
			c += " --home " + hookArg(home)
		}
		if args != "" {
			c += " " + args
		}
		return c
	}
	return EventGroups{
		{Event: "SessionStart", Groups: []HookGroup{
			// compact: Claude Code 2.1.330 fires SessionStart with source
			// compact after a compaction and puts the output in the fresh
			// context; without it the memory block is gone after /compact.
			{Matcher: "startup|resume|clear|compact", Hooks: []HookCommand{{Type: "command", Command: cmd(BinInject, ""), Timeout: injectTimeout}}},
			// --background: the sync detaches and the hook returns at once;
			// Claude Code waits for a hook still running at exit, so one
			// stuck on a silent remote would delay every exit.
			{Matcher: "startup|resume", Hooks: []HookCommand{{Type: "command", Command: cmd(BinSync, "--background"), Async: true}}},
		}},
		{Event: "SessionEnd", Groups: []HookGroup{
			{Hooks: []HookCommand{{Type: "command", Command: cmd(BinCapture, ""), Timeout: captureTimeout}}},
		}},
		{Event: "PreCompact", Groups: []HookGroup{
			{Hooks: []HookCommand{{Type: "command", Command: cmd(BinCapture, "--source precompact --no-sync"), Timeout: precompactTimeout}}},
		}},
		// Last, so a file written by an earlier init keeps its event order.
		{Event: "UserPromptSubmit", Groups: []HookGroup{
			{Hooks: []HookCommand{{Type: "command", Command: cmd(BinRecall, ""), Timeout: recallTimeout}}},
		}},
	}
}

// hookArg is a path as a hook command word. A plain path (letters, digits
// and . _ - / : @ + , =) is written as it is, which the POSIX shells, cmd and
// PowerShell all read the same way; Windows paths use forward slashes,
// which Windows accepts and shells do not eat. Anything else is quoted for
// the POSIX shell Claude Code runs hooks with.
func hookArg(p string) string {
	if runtime.GOOS == "windows" {
		p = filepath.ToSlash(p)
	}
	return cli.ShellQuote(p)
}
