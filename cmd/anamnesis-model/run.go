package main

import (
	"context"
	"errors"
	"io"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/model/web"
)

const usage = `usage: anamnesis-model < request.json

Sends one request to a model provider and prints the reply, for the
anamnesis commands that reach a model over HTTP (reflect, consolidate,
config test). The request is JSON on standard input:
  {"url": "...", "header": {"Authorization": "..."}, "body": "..."}
The reply is JSON on standard output:
  {"code": 200, "status": "200 OK", "body": "..."} or {"error": "..."}
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.FlagSet("anamnesis-model", stderr)
	fs.Usage = func() { io.WriteString(fs.Output(), usage) }
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("takes no arguments\n%s", usage)
	}
	err := web.Serve(ctx, web.Poster{}, stdin, stdout)
	if errors.Is(err, web.ErrBadRequest) {
		return cli.Usagef("%v\n%s", err, usage)
	}
	return err
}
