package summary

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// Providers ANAMNESIS_REFLECTION_PROVIDER accepts besides "heuristic"; each
// is any server speaking OpenAI's /chat/completions.
var defaultBaseURL = map[string]string{
	"openai":   "https://api.openai.com/v1",
	"deepseek": "https://api.deepseek.com/v1",
	"local":    "",
}

// DefaultTimeout bounds one summary request; the SessionEnd hook has 120 s
// and the PreCompact hook 60 s, and a summary is never worth most of either.
const DefaultTimeout = 30 * time.Second

// Limits on what goes to and comes back from the model.
const (
	maxInput      = 24 << 10
	maxPromptIn   = 2000
	maxOutcomeIn  = 4000
	maxListedIn   = 100
	maxReply      = 1 << 20
	maxBodyOut    = 4000
	systemMessage = `You write one episodic memory note about a finished Claude Code session, for the same user's future sessions.
Reply with only a JSON object, no prose and no code fence: {"skip": boolean, "title": string, "body": string}.
Set "skip" to true when the session holds nothing worth remembering (a greeting, a lone command, no result).
"title": at most 80 characters, what was done or decided.
"body": markdown under 1500 characters: what was asked, what changed (files), what was decided or found, and any follow-up left open.
Never include secrets, tokens, passwords or keys, even if the session shows them.`
)

// LLMConfig selects and reaches a model. Provider "" or "heuristic" means no model.
type LLMConfig struct {
	Provider string
	Model    string
	BaseURL  string
	APIKey   string
	Timeout  time.Duration
}

// Enabled reports whether a model provider was asked for.
func (c LLMConfig) Enabled() bool {
	p := strings.ToLower(strings.TrimSpace(c.Provider))
	return p != "" && p != "heuristic"
}

// ParseTimeout reads ANAMNESIS_REFLECTION_TIMEOUT-style values: seconds
// ("20", "2.5") or a Go duration ("20s", "500ms"). Empty means the default.
func ParseTimeout(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return DefaultTimeout, nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f <= 0 {
			return 0, fmt.Errorf("timeout %q must be positive", v)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout %q: want seconds or a duration like 20s", v)
	}
	return d, nil
}

// resolved fills defaults and checks the configuration is usable.
func (c LLMConfig) resolved() (LLMConfig, error) {
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	def, known := defaultBaseURL[c.Provider]
	if !known {
		return c, fmt.Errorf("unknown reflection provider %q (want heuristic, openai, deepseek or local)", c.Provider)
	}
	if c.BaseURL == "" {
		c.BaseURL = def
	}
	c.BaseURL = strings.TrimRight(strings.TrimSpace(c.BaseURL), "/")
	switch {
	case c.Model == "":
		return c, fmt.Errorf("reflection provider %s needs a model (ANAMNESIS_REFLECTION_MODEL)", c.Provider)
	case c.BaseURL == "":
		return c, fmt.Errorf("reflection provider %s needs a base URL (ANAMNESIS_REFLECTION_BASE_URL)", c.Provider)
	case c.APIKey == "" && c.Provider != "local":
		return c, fmt.Errorf("reflection provider %s needs an API key (ANAMNESIS_REFLECTION_API_KEY)", c.Provider)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	return c, nil
}

// Summarize produces the note for s: the LLM's when cfg enables one and it
// answers well, otherwise the heuristic's. skip is true only when the model
// judged the session not worth a note. Any model failure is reported on
// warn (one line) and the heuristic result is returned.
func Summarize(ctx context.Context, s *transcript.Session, cfg LLMConfig, client *http.Client, warn io.Writer) (res Result, skip bool) {
	if !cfg.Enabled() {
		return Heuristic(s), false
	}
	r, skip, err := LLM(ctx, s, cfg, client)
	if err != nil {
		if warn != nil {
			fmt.Fprintf(warn, "capture: LLM summary failed, using the heuristic: %s\n", oneLine(redact.String(err.Error())))
		}
		return Heuristic(s), false
	}
	return r, skip
}

// LLM asks an OpenAI-compatible /chat/completions endpoint for the summary.
// Everything sent is redacted first; the request is bounded by cfg.Timeout.
func LLM(ctx context.Context, s *transcript.Session, cfg LLMConfig, client *http.Client) (Result, bool, error) {
	cfg, err := cfg.resolved()
	if err != nil {
		return Result{}, false, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()

	reqBody, err := json.Marshal(map[string]any{
		"model": cfg.Model,
		"messages": []map[string]string{
			{"role": "system", "content": systemMessage},
			{"role": "user", "content": Digest(s)},
		},
		"temperature": 0,
		"stream":      false,
	})
	if err != nil {
		return Result{}, false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.BaseURL+"/chat/completions", bytes.NewReader(reqBody))
	if err != nil {
		return Result{}, false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return Result{}, false, fmt.Errorf("%s did not answer within %s", cfg.Provider, cfg.Timeout)
		}
		return Result{}, false, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		return Result{}, false, fmt.Errorf("reading reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return Result{}, false, fmt.Errorf("%s answered %s: %.200s", cfg.Provider, resp.Status, strings.TrimSpace(string(data)))
	}
	if len(data) > maxReply {
		return Result{}, false, errors.New("reply over 1 MiB")
	}
	var completion struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &completion); err != nil {
		return Result{}, false, fmt.Errorf("reply is not a chat completion: %w", err)
	}
	if len(completion.Choices) == 0 {
		return Result{}, false, errors.New("reply has no choices")
	}
	res, skip, err := parseReply(completion.Choices[0].Message.Content)
	if err != nil || skip {
		return Result{}, skip, err
	}
	res.Model = cfg.Provider + "/" + cfg.Model
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
	fmt.Fprintf(&b, "\nUser prompts (%d, in order):\n", s.PromptCount)
	if len(s.Prompts) == 0 {
		b.WriteString("(none)\n")
	}
	for i, p := range s.Prompts {
		if b.Len() > maxInput/2 {
			fmt.Fprintf(&b, "… %d more prompts\n", len(s.Prompts)-i)
			break
		}
		fmt.Fprintf(&b, "%d. %s\n", i+1, Clip(redact.String(p), maxPromptIn))
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

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return Clip(s, 300)
}
