package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
)

// Request is one POST of an HTTP provider.
type Request struct {
	URL    string            `json:"url"`
	Header map[string]string `json:"header,omitempty"`
	Body   string            `json:"body"`
}

// Reply is what came back: the status code and line, and the body cut at
// MaxReply+1 bytes (the caller refuses a longer one).
type Reply struct {
	Code   int    `json:"code"`
	Status string `json:"status"`
	Body   string `json:"body"`
}

// Poster sends a Request over HTTP. This package does not link the HTTP
// stack: net/http and crypto/tls take about 0.4 ms to start up in every
// process that links them, a twentieth of `anamnesis search` as a command.
// Binaries that link them anyway (capture, the dashboard) pass
// pkg/model/web's Poster; the dispatcher, which every command starts, leaves
// Config.Post nil and sends through the anamnesis-model binary (Helper).
type Poster interface {
	Post(ctx context.Context, r Request) (Reply, error)
}

// HelperName is the binary Helper runs.
const HelperName = "anamnesis-model"

// HelperOutput is what the helper prints: the reply, or why there is none.
type HelperOutput struct {
	Reply
	Error string `json:"error,omitempty"`
}

// Helper sends a Request through the anamnesis-model binary: the request as
// JSON on its standard input (the API key in it never reaches a command
// line, where other users could read it), a HelperOutput on its standard
// output. Cancelling ctx stops the helper.
type Helper struct {
	// Bin is the binary ("" = anamnesis-model next to the running binary,
	// else on PATH, as pkg/bin finds every binary of the toolkit).
	Bin string
}

// Post runs the helper once.
func (h Helper) Post(ctx context.Context, r Request) (Reply, error) {
	path := h.Bin
	if path == "" {
		if path = bin.Find(HelperName); path == "" {
			return Reply{}, fmt.Errorf("%s was not found next to this binary or on PATH (it sends the requests of the openai, deepseek and local providers)", HelperName)
		}
	}
	in, err := json.Marshal(r)
	if err != nil {
		return Reply{}, err
	}
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	// The helper cuts the body at MaxReply+1 bytes; JSON escaping at most
	// sextuples it.
	cmd.Stdout, cmd.Stderr = &limited{w: &stdout, n: 6*MaxReply + 64<<10}, &limited{w: &stderr, n: 64 << 10}
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return Reply{}, ctx.Err()
	}
	if err != nil {
		return Reply{}, fmt.Errorf("%s failed (%v): %.300s", HelperName, err, strings.TrimSpace(stderr.String()))
	}
	var out HelperOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return Reply{}, fmt.Errorf("%s did not print a reply: %w", HelperName, err)
	}
	if out.Error != "" {
		return Reply{}, errors.New(out.Error)
	}
	return out.Reply, nil
}
