package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
)

const usage = `usage: anamnesis-recall [--home DIR] [--max-chars N]

UserPromptSubmit hook: reads Claude Code's hook payload on stdin and prints
the notes the prompt is about (at most 3, not already shown in this session)
when the best one clears the relevance floor; otherwise prints nothing.
`

// run never returns an error for a failure inside the hook (hooks fail
// open): it logs to <home>/logs/anamnesis.log and prints nothing.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return hook.Run(ctx, hook.Hook{Name: "anamnesis-recall", Usage: usage,
		// Well inside recall's 5 s hook timeout; a recall killed there
		// leaves nothing half done (its writes are atomic renames).
		Deadline: 3 * time.Second,
		Exit:     true,
		Quiet:    true,
		Flags: func(fs *flag.FlagSet) hook.Work {
			maxChars := fs.Int("max-chars", 0, "output budget in characters (default $ANAMNESIS_RECALL_MAX_CHARS, config recall.max_chars, else 2000)")
			return func(ctx context.Context, c hook.Call, out *strings.Builder) error {
				if !c.Config.RecallEnabled {
					return nil
				}
				budget := c.Config.RecallMaxChars
				if *maxChars > 0 {
					budget = *maxChars
				}
				p, err := hook.ReadPayload(c.Stdin)
				if err != nil {
					c.Log.Printf("no usable hook payload (%v); nothing recalled", err)
					return nil
				}
				text, err := recall.Prompt(ctx, c.Config, p, budget, c.Log)
				if err != nil {
					return fmt.Errorf("recall: %w", err)
				}
				out.WriteString(text)
				return nil
			}
		},
	}, args, stdin, stdout, stderr)
}
