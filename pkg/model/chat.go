package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// inputBudget is the characters of input any one request may carry: about
// 30k tokens, under every provider's context and cheap enough to send often.
const inputBudget = 120_000

// chat is an OpenAI-compatible /chat/completions endpoint.
type chat struct {
	cfg Config
}

func (c *chat) Label() string { return c.cfg.Provider + "/" + c.cfg.Model }
func (c *chat) Budget() int   { return inputBudget }

func (c *chat) Complete(ctx context.Context, system, user string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	reqBody, err := json.Marshal(map[string]any{
		"model": c.cfg.Model,
		"messages": []map[string]string{
			{"role": "system", "content": clean(system)},
			{"role": "user", "content": clean(user)},
		},
		"temperature": 0,
		"stream":      false,
	})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint(c.cfg.BaseURL), strings.NewReader(string(reqBody)))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	hc := c.cfg.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return "", timeoutErr(c.cfg.Provider, c.cfg.Timeout)
		}
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxReply+1))
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return "", timeoutErr(c.cfg.Provider, c.cfg.Timeout)
		}
		return "", fmt.Errorf("reading reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s: %.200s", c.cfg.Provider, resp.Status, c.hideCredentials(strings.TrimSpace(string(data))))
	}
	if len(data) > MaxReply {
		return "", errors.New("reply over 1 MiB")
	}
	var completion struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &completion); err != nil {
		return "", fmt.Errorf("reply is not a chat completion: %w", err)
	}
	if len(completion.Choices) == 0 {
		return "", errors.New("reply has no choices")
	}
	return completion.Choices[0].Message.Content, nil
}

// hideCredentials masks the API key and the base URL's password where an
// error reply echoes them (a proxy's "invalid key: <key>"): the reply is
// printed by config test and reflect, and a key of no known shape passes
// the redactor.
func (c *chat) hideCredentials(s string) string {
	secrets := []string{c.cfg.APIKey}
	if u, err := url.Parse(c.cfg.BaseURL); err == nil && u.User != nil {
		p, _ := u.User.Password()
		secrets = append(secrets, p)
	}
	for _, k := range secrets {
		if len(k) >= 4 {
			s = strings.ReplaceAll(s, k, "****")
		}
	}
	return s
}

func timeoutErr(provider string, d time.Duration) error {
	return fmt.Errorf("%s did not answer within %s", provider, d)
}

// endpoint is base's /chat/completions: the path goes before a query the
// base URL carries (a gateway's ?api-version=…), which stays as given.
func endpoint(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.RawQuery == "" && u.Fragment == "" {
		return base + "/chat/completions"
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/chat/completions"
	u.RawPath = ""
	return u.String()
}
