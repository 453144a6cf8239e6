package main

import (
	"context"
	"fmt"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
)

// configTest sends one minimal request through the model seam (SPEC 14.1).
func configTest(ctx context.Context, e *env, c common, args []string) error {
	if len(args) != 0 {
		return cli.Usagef("config test takes no arguments")
	}
	cfg := c.config(e)
	client, err := model.New(model.FromConfig(cfg.Reflection))
	type result struct {
		Provider  string `json:"provider"`
		Model     string `json:"model,omitempty"`
		LatencyMS int64  `json:"latency_ms,omitempty"`
		Reply     string `json:"reply,omitempty"`
		Error     string `json:"error,omitempty"`
	}
	r := result{Provider: cfg.Reflection.Provider, Model: cfg.Reflection.Model}
	if err == nil {
		lat, reply, perr := model.Ping(ctx, client)
		r.LatencyMS, r.Reply, r.Model, err = lat.Milliseconds(), model.OneLine(reply), client.Label(), perr
	}
	if err != nil {
		r.Error = model.OneLine(err.Error())
	}
	if c.json {
		if perr := printJSON(e.stdout, r); perr != nil {
			return perr
		}
	} else {
		fmt.Fprintf(e.stdout, "provider: %s\nmodel: %s\n", r.Provider, r.Model)
		if err == nil {
			fmt.Fprintf(e.stdout, "latency: %d ms\nreply: %s\n", r.LatencyMS, r.Reply)
		} else {
			fmt.Fprintf(e.stdout, "error: %s\n", r.Error)
		}
	}
	if err != nil {
		return cli.ExitError{Code: 1}
	}
	return nil
}
