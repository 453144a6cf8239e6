package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// header starts every block (inject.Header; not imported, as that package
// links SQLite: see blockFor).
const header = "# Anamnesis memory (auto-injected)"

const usage = `usage: anamnesis-inject [--project KEY] [--k N] [--max-chars N] [--home DIR]

SessionStart hook: reads Claude Code's hook payload on stdin, resolves the
project from its cwd, and prints the memory block for that project.
`

// run never returns an error for a failure inside the hook (SPEC 4: hooks
// fail open); it logs to <home>/logs/anamnesis.log and prints nothing.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return hook.Run(ctx, hook.Hook{Name: "anamnesis-inject", Usage: usage,
		// Well inside the 15 s SessionStart hook timeout.
		Deadline: 10 * time.Second,
		Flags: func(fs *flag.FlagSet) hook.Work {
			projectFlag := fs.String("project", "", "project key (default: resolved from the payload's cwd)")
			k := fs.Int("k", 8, "project notes to include besides the global ones")
			// Unset is -1 (0 is a budget: unlimited); a Func flag's help
			// shows no default, which the usage words.
			maxChars := -1
			fs.Func("max-chars", "output budget in characters; 0 = unlimited (default $ANAMNESIS_INJECT_MAX_CHARS, config inject.max_chars, else 9500)", func(v string) error {
				n, err := strconv.Atoi(v)
				maxChars = n
				return err
			})
			return func(ctx context.Context, c hook.Call, out *strings.Builder) error {
				budget := c.Config.InjectMaxChars
				if maxChars >= 0 {
					budget = maxChars
				} else if maxChars != -1 {
					c.Log.Printf("--max-chars %d is negative; using %d", maxChars, budget)
				}
				text, err := blockFor(ctx, c.Config, *projectFlag, max(*k, 0), budget, c.Stdin, c.Log)
				out.WriteString(text)
				return err
			}
		},
	}, args, stdin, stdout, stderr)
}

// blockFor is the hook's work. The common path, a block saved by an
// earlier session and still current (pkg/blockcache says when it is), reads
// a few small files and links neither SQLite nor YAML, so the hook starts
// and ends at the speed of a bare process. Otherwise `anamnesis block`
// computes the block from the index and saves it for the next session.
func blockFor(ctx context.Context, cfg config.Config, projectKey string, k, budget int, stdin io.Reader, log *hook.Logger) (string, error) {
	home := cfg.Home
	p, perr := hook.ReadPayload(stdin)
	if perr == nil && alreadyInContext(ctx, p, log) {
		return "", nil
	}
	if projectKey == "" {
		cwd := "."
		switch {
		case perr != nil:
			log.Printf("no usable hook payload (%v); using cwd %q", perr, cwd)
		case p.Cwd == "":
			log.Printf("hook payload has no cwd; using %q", cwd)
		default:
			cwd = p.Cwd
		}
		projectKey = project.Here(cwd, cfg).Key
	}
	if !layout.Home(home).Initialized() {
		return "", nil
	}
	key := blockcache.Key{Project: projectKey, K: k, Budget: budget}
	if perr == nil && p.Source == "compact" && p.SessionID != "" {
		// The PreCompact capture has just written the session's own note;
		// the compacted context holds its summary already (SPEC 15), so
		// the block leaves it out: computed for this session, not cached.
		text, err := render(ctx, home, key, log, "--without-session", p.SessionID)
		if err != nil {
			return "", err
		}
		// `anamnesis block` saved what the block shows, and the watermark,
		// in the session's state.
		s, _ := session.Load(home, p.SessionID)
		record(home, p, projectKey, blockcache.Block{Text: text, IDs: s.IDs, Mark: s.Mark}, log)
		return text, nil
	}
	b, ok := blockcache.Open(home, key).Cached()
	if !ok {
		text, err := render(ctx, home, key, log)
		if err != nil {
			return "", err
		}
		// What the block shows was saved with it; a block another write
		// made stale in between is printed all the same, unrecorded.
		if b, ok = blockcache.Open(home, key).Cached(); !ok || b.Text != text {
			log.Printf("what the block shows is not recorded (the index changed while it was rendered)")
			b = blockcache.Block{Text: text}
		}
	}
	record(home, p, projectKey, b, log)
	return b.Text, nil
}

// render runs `anamnesis block` for key and returns what it printed.
func render(ctx context.Context, home string, key blockcache.Key, log *hook.Logger, extra ...string) (string, error) {
	self := bin.Find("anamnesis")
	if self == "" {
		return "", errors.New("the block is not cached and the anamnesis command, which computes it, is not installed beside anamnesis-inject or on PATH")
	}
	// The child stops itself a second early, so a rebuild that does not fit
	// is started in the background instead of being killed half done.
	limit := time.Second
	if dl, ok := ctx.Deadline(); ok {
		limit = max(time.Until(dl)-time.Second, limit)
	}
	args := append([]string{"block", "--home", home, "--project", key.Project,
		"--k", strconv.Itoa(key.K), "--max-chars", strconv.Itoa(key.Budget), "--timeout", limit.String()}, extra...)
	cmd := exec.CommandContext(ctx, self, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if msg := strings.TrimSpace(errOut.String()); msg != "" {
		log.Printf("anamnesis block: %s", msg)
	}
	if err != nil {
		return "", fmt.Errorf("anamnesis block: %w", err)
	}
	return out.String(), nil
}

// alreadyInContext reports a resumed session whose context already holds
// the block: Claude Code replays an earlier SessionStart hook's output from
// the transcript (see transcript.HookOutputLive), so printing it again would
// put it there twice. After startup and clear the context is new, and after
// a compaction the old block is gone (it came before the boundary), so only
// resume is checked; a transcript that cannot be read means inject.
func alreadyInContext(ctx context.Context, p hook.Payload, log *hook.Logger) bool {
	if p.Source != "resume" || p.TranscriptPath == "" {
		return false
	}
	live, err := transcript.HookOutputLive(ctx, p.TranscriptPath, header)
	if err != nil {
		log.Printf("resume: reading %s: %v; injecting the block", p.TranscriptPath, err)
		return false
	}
	if live {
		log.Printf("resume of session %s: the block is already in its context; not injected again", p.SessionID)
	}
	return live
}

// record tells per-prompt recall what the block put into the session's
// context (so recall never repeats it) and the index watermark it was
// rendered at (so the first prompt brings what a background pull indexed
// later), and appends the block to the injection trace. Best effort: a
// failure is logged and the block is printed anyway.
func record(home string, p hook.Payload, project string, b blockcache.Block, log *hook.Logger) {
	if p.SessionID != "" {
		if err := session.Started(home, p.SessionID, p.Source, b.IDs, b.Mark); err != nil {
			log.Printf("%v", err)
		}
	}
	e := session.Entry{Time: time.Now().UTC(), Hook: "inject", Session: p.SessionID, Project: project, IDs: b.IDs, Chars: hook.Width(b.Text)}
	if err := session.Trace(home, e); err != nil {
		log.Printf("injection trace: %v", err)
	}
}
