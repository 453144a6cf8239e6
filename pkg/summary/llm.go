package summary

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// Limits on what goes to and comes back from the model.
const (
	maxInput      = 24 << 10
	maxPromptIn   = 2000
	maxOutcomeIn  = 4000
	maxListedIn   = 100
	maxBodyOut    = 4000
	systemMessage = `You write one episodic memory note about a finished Claude Code session, for the same user's future sessions.
Reply with only a JSON object, no prose and no code fence: {"skip": boolean, "title": string, "body": string}.
Set "skip" to true when the session holds nothing worth remembering (a greeting, a lone command, no result).
"title": at most 80 characters, what was done or decided.
"body": markdown under 2500 characters: each request and what came of it, what changed (files), the commands that matter, errors hit and how they were fixed, what was decided and why, and any follow-up left open.
Never include secrets, tokens, passwords or keys, even if the session shows them.`
)

// Summarize produces the note for s: the LLM's when cfg enables one and it
// answers well, otherwise the heuristic's. skip is true only when the model
// judged the session not worth a note. Any model failure is reported on
// warn (one line) and the heuristic result is returned.
func Summarize(ctx context.Context, s *transcript.Session, cfg model.Config, warn io.Writer) (res Result, skip bool) {
	if !cfg.Enabled() {
		return Heuristic(s), false
	}
	r, skip, err := LLM(ctx, s, cfg)
	if err != nil {
		if warn != nil {
			fmt.Fprintf(warn, "capture: LLM summary failed, using the heuristic: %s\n", model.OneLine(err.Error()))
		}
		return Heuristic(s), false
	}
	return r, skip
}

// LLM asks the configured model for the summary through the model seam
// (which redacts everything it sends and bounds the request by the timeout).
func LLM(ctx context.Context, s *transcript.Session, cfg model.Config) (Result, bool, error) {
	client, err := model.New(cfg)
	if err != nil {
		return Result{}, false, err
	}
	reply, err := client.Complete(ctx, systemMessage, Digest(s))
	if err != nil {
		return Result{}, false, err
	}
	res, skip, err := parseReply(reply)
	if err != nil || skip {
		return Result{}, skip, err
	}
	res.Model = client.Label()
	return res, false, nil
}

// parseReply reads {"skip","title","body"} from the model's message,
// tolerating a code fence or a sentence around the object.
func parseReply(content string) (Result, bool, error) {
	start, end := strings.Index(content, "{"), strings.LastIndex(content, "}")
	if start < 0 || end < start {
		return Result{}, false, fmt.Errorf("reply has no JSON object: %.120q", content)
	}
	var r struct {
		Skip  *bool   `json:"skip"`
		Title *string `json:"title"`
		Body  *string `json:"body"`
	}
	if err := json.Unmarshal([]byte(content[start:end+1]), &r); err != nil {
		return Result{}, false, fmt.Errorf("reply JSON: %w", err)
	}
	if r.Skip != nil && *r.Skip {
		return Result{}, true, nil
	}
	if r.Title == nil || r.Body == nil {
		return Result{}, false, errors.New(`reply lacks "title" or "body"`)
	}
	title := Title(redact.String(*r.Title))
	body := strings.TrimSpace(redact.String(*r.Body))
	if strings.TrimSpace(*r.Title) == "" || body == "" {
		return Result{}, false, errors.New("reply has an empty title or body")
	}
	return Result{Title: title, Body: Clip(body, maxBodyOut)}, false, nil
}

// Digest is the redacted, bounded account of a session sent to the model.
func Digest(s *transcript.Session) string {
	var b strings.Builder
	if s.Cwd != "" {
		fmt.Fprintf(&b, "Working directory: %s\n", s.Cwd)
	}
	if s.GitBranch != "" {
		fmt.Fprintf(&b, "Git branch: %s\n", s.GitBranch)
	}
	if len(s.SlashCommands) > 0 {
		fmt.Fprintf(&b, "Slash commands run: %s\n", strings.Join(s.SlashCommands, " "))
	}
	fmt.Fprintf(&b, "\nUser requests (%d, in order, each with the assistant's answer):\n", s.PromptCount)
	if len(s.Requests) == 0 {
		b.WriteString("(none)\n")
	}
	for i, r := range s.Requests {
		if b.Len() > maxInput/2 {
			fmt.Fprintf(&b, "… %d more requests\n", len(s.Requests)-i)
			break
		}
		fmt.Fprintf(&b, "%d. %s\n", i+1, Clip(redact.String(r.Prompt), maxPromptIn))
		if out := strings.TrimSpace(r.Outcome); out != "" {
			fmt.Fprintf(&b, "   Answer: %s\n", Clip(redact.String(out), maxPromptIn))
		}
	}
	if len(s.Commands) > 0 {
		b.WriteString("\nShell commands run:\n")
		for i, c := range tellingFirst(s.Commands) {
			if i == maxListedIn/5 {
				break
			}
			fmt.Fprintf(&b, "- %s\n", oneLine(redact.String(c.Text), maxCommandShown))
		}
	}
	for i, f := range s.Failures {
		if i == 0 {
			b.WriteString("\nErrors hit:\n")
		}
		if i == MaxListedFailures {
			break
		}
		fmt.Fprintf(&b, "%s\n", failureLine(redact.String(f.Command), redact.String(f.Error), f.Fixed))
	}
	total := max(s.FilesTotal, len(s.Files))
	fmt.Fprintf(&b, "\nFiles edited (%d):\n", total)
	for i, f := range s.Files {
		if i == maxListedIn {
			fmt.Fprintf(&b, "- … and %d more\n", total-i)
			break
		}
		fmt.Fprintf(&b, "- %s\n", redact.String(f))
	}
	b.WriteString("\nLast assistant message:\n")
	out := strings.TrimSpace(redact.String(s.LastOutcome))
	if out == "" {
		out = "(none)"
	}
	b.WriteString(Clip(out, maxOutcomeIn))
	b.WriteString("\n")
	return Clip(b.String(), maxInput)
}
