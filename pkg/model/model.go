// Package model is the one seam through which anything reaches a language
// model (SPEC 14.1): capture's summary, reflect, consolidate and eval build.
// Providers are an OpenAI-compatible /chat/completions endpoint (openai,
// deepseek, local) or the user's own Claude Code CLI run headless (claude).
// Every text sent passes the redactor first.
package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
)

// DefaultTimeout bounds one request when the configuration names none.
const DefaultTimeout = 30 * time.Second

// MaxReply bounds what is read back from any provider.
const MaxReply = 1 << 20

// Providers besides "heuristic" and where each is reached by default.
var defaultBaseURL = map[string]string{
	"openai":   "https://api.openai.com/v1",
	"deepseek": "https://api.deepseek.com/v1",
	"local":    "",
	"claude":   "",
}

// ErrNoProvider is returned by New when the provider is heuristic (no model).
var ErrNoProvider = errors.New("no model provider is configured: set ANAMNESIS_REFLECTION_PROVIDER (or `anamnesis config set reflection.provider`) to claude, openai, deepseek or local")

// Config selects and reaches a model. Provider "" or "heuristic" means none.
type Config struct {
	Provider, Model, BaseURL, APIKey string
	Timeout                          time.Duration
	// Claude is the Claude Code executable for the claude provider ("" = "claude" on PATH).
	Claude string
	// HTTP sends the HTTP providers' requests (nil = a fresh http.Client).
	HTTP *http.Client
}

// FromConfig is the seam's configuration as the shared config resolves it.
func FromConfig(r config.Reflection) Config {
	return Config{Provider: r.Provider, Model: r.Model, BaseURL: r.BaseURL, APIKey: r.APIKey, Timeout: r.Timeout}
}

// Enabled reports whether a model provider was asked for.
func (c Config) Enabled() bool {
	p := strings.ToLower(strings.TrimSpace(c.Provider))
	return p != "" && p != "heuristic"
}

// Client sends one system+user exchange and returns the model's text.
type Client interface {
	Complete(ctx context.Context, system, user string) (string, error)
	// Label is prov_model: "<provider>/<model>".
	Label() string
	// Budget is how many characters of input the caller may send.
	Budget() int
}

// New checks the configuration and returns its client.
func New(c Config) (Client, error) {
	if !c.Enabled() {
		return nil, ErrNoProvider
	}
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	def, known := defaultBaseURL[c.Provider]
	if !known {
		return nil, fmt.Errorf("unknown reflection provider %q (want heuristic, claude, openai, deepseek or local)", c.Provider)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Provider == "claude" {
		bin := c.Claude
		if bin == "" {
			bin = "claude"
		}
		return &claude{bin: bin, model: c.Model, timeout: c.Timeout}, nil
	}
	if c.BaseURL == "" {
		c.BaseURL = def
	}
	c.BaseURL = strings.TrimRight(strings.TrimSpace(c.BaseURL), "/")
	switch {
	case c.Model == "":
		return nil, fmt.Errorf("reflection provider %s needs a model (ANAMNESIS_REFLECTION_MODEL)", c.Provider)
	case c.BaseURL == "":
		return nil, fmt.Errorf("reflection provider %s needs a base URL (ANAMNESIS_REFLECTION_BASE_URL)", c.Provider)
	case c.APIKey == "" && c.Provider != "local":
		return nil, fmt.Errorf("reflection provider %s needs an API key (ANAMNESIS_REFLECTION_API_KEY)", c.Provider)
	}
	return &chat{cfg: c}, nil
}

// clean is what every provider sends: the redacted text.
func clean(s string) string { return redact.String(s) }

// JSON returns the JSON inside a model's reply: the reply itself, or the
// content of the first ``` fence in it, whatever prose comes before or after
// the fence ("Here are the notes:" then a fenced array). Unfenced prose is
// left for the caller's decoder to refuse.
func JSON(reply string) string {
	s := strings.TrimSpace(reply)
	i := strings.Index(s, "```")
	if i < 0 {
		return s
	}
	s = s[i+3:]
	if j := strings.IndexByte(s, '\n'); j >= 0 && !strings.ContainsAny(s[:j], "[{") {
		s = s[j+1:] // the fence's language tag
	}
	if j := strings.Index(s, "```"); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

// Ping sends one minimal request (config test) and returns how long it took.
func Ping(ctx context.Context, c Client) (time.Duration, string, error) {
	start := time.Now()
	out, err := c.Complete(ctx, "You are a health check. Reply with the single word OK.", "Reply with OK.")
	return time.Since(start), strings.TrimSpace(out), err
}

// OneLine flattens an error for a single printed line.
func OneLine(s string) string {
	s = strings.Join(strings.Fields(redact.String(s)), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:299]) + "…"
	}
	return s
}
