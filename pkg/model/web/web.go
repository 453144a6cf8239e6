// Package web sends pkg/model's requests over HTTP with net/http: the Poster
// of the binaries that link the HTTP stack anyway, and the body of the
// anamnesis-model helper through which the others send (model.Helper).
package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
)

// Poster posts with Client (nil = a fresh http.Client).
type Poster struct{ Client *http.Client }

// Post sends r and reads at most model.MaxReply+1 bytes of the reply.
func (p Poster) Post(ctx context.Context, r model.Request) (model.Reply, error) {
	if u, err := url.Parse(r.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return model.Reply{}, fmt.Errorf("not an http(s) URL: %.200q", r.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, strings.NewReader(r.Body))
	if err != nil {
		return model.Reply{}, err
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	hc := p.Client
	if hc == nil {
		hc = &http.Client{}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return model.Reply{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, model.MaxReply+1))
	if err != nil {
		return model.Reply{}, fmt.Errorf("reading reply: %w", err)
	}
	return model.Reply{Code: resp.StatusCode, Status: resp.Status, Body: string(data)}, nil
}

// maxRequest bounds the request read from the helper's standard input (a
// provider's input budget is 120,000 characters).
const maxRequest = 8 << 20

// ErrBadRequest is returned by Serve when its input is not one request.
var ErrBadRequest = errors.New("expected one request as JSON on standard input")

// Serve is the helper's body: one model.Request as JSON from in, posted
// with p, and a model.HelperOutput to out. A request that cannot be sent or
// answered is reported in the output (the error field); only input that is
// not a request is an error of Serve.
func Serve(ctx context.Context, p Poster, in io.Reader, out io.Writer) error {
	data, err := io.ReadAll(io.LimitReader(in, maxRequest+1))
	if err != nil {
		return err
	}
	var r model.Request
	if len(data) > maxRequest {
		return fmt.Errorf("%w: over %d bytes", ErrBadRequest, maxRequest)
	}
	if err := json.Unmarshal(data, &r); err != nil || r.URL == "" {
		if err == nil {
			err = errors.New("no url")
		}
		return fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	var o model.HelperOutput
	if o.Reply, err = p.Post(ctx, r); err != nil {
		o.Error = err.Error()
	}
	return json.NewEncoder(out).Encode(o)
}
