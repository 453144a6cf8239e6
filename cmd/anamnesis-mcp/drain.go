package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drain makes end of input mean "no more requests", not "drop what is in
// flight". mcp-go's stdio server cancels running tool calls and may skip
// queued ones as soon as stdin closes, so a client that sends a write and
// closes its end (a script, a pipe) could lose the write. drain holds back
// EOF from the server until every request read has been answered, or until
// ctx ends or patience runs out.
type drain struct {
	mu        sync.Mutex
	requests  int
	responses int
	changed   chan struct{}
	patience  time.Duration
}

func newDrain(patience time.Duration) *drain {
	return &drain{changed: make(chan struct{}), patience: patience}
}

// message is the part of a JSON-RPC message that tells requests (method and
// id) from responses (id, no method) and notifications (no id).
type message struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
}

func (m message) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// request reports a message the server answers: a method and an id, and no
// result (mcp-go takes a message with a non-null result for a client's
// response to the server, whatever else it holds, and answers nothing).
func (m message) request() bool {
	return m.Method != "" && m.hasID() && (len(m.Result) == 0 || string(m.Result) == "null")
}

func (d *drain) count(requests, responses int) {
	if requests == 0 && responses == 0 {
		return
	}
	d.mu.Lock()
	d.requests += requests
	d.responses += responses
	close(d.changed)
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

// wait blocks until every counted request has its response.
func (d *drain) wait(ctx context.Context) {
	timeout := time.After(d.patience)
	for {
		d.mu.Lock()
		done, ch := d.responses >= d.requests, d.changed
		d.mu.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-timeout:
			return
		}
	}
}

type drainReader struct {
	ctx     context.Context
	r       io.Reader
	d       *drain
	partial []byte
}

func (d *drain) reader(ctx context.Context, r io.Reader) io.Reader {
	return &drainReader{ctx: ctx, r: r, d: d}
}

func (dr *drainReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := dr.r.Read(p)
	if n > 0 {
		dr.scan(p[:n])
		if err == io.EOF {
			err = nil // delivered on the next call, after the wait
		}
		return n, err
	}
	if err == io.EOF {
		if len(dr.partial) > 0 {
			// mcp-go drops a last line that has no newline; end it so the
			// request is served like any other.
			dr.line(dr.partial)
			dr.partial = nil
			p[0] = '\n'
			return 1, nil
		}
		dr.d.wait(dr.ctx)
	}
	return n, err
}

func (dr *drainReader) scan(b []byte) {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			dr.partial = append(dr.partial, b...)
			return
		}
		if len(dr.partial) > 0 {
			dr.partial = append(dr.partial, b[:i]...)
			dr.line(dr.partial)
			dr.partial = dr.partial[:0]
		} else {
			dr.line(b[:i])
		}
		b = b[i+1:]
	}
}

func (dr *drainReader) line(l []byte) {
	var m message
	if json.Unmarshal(l, &m) == nil && m.request() {
		dr.d.count(1, 0)
	}
}

type drainWriter struct {
	w io.Writer
	d *drain
}

func (d *drain) writer(w io.Writer) io.Writer { return &drainWriter{w: w, d: d} }

// Write sees one whole message per call: mcp-go writes each response with a
// single Fprintf under its write lock.
func (dw *drainWriter) Write(p []byte) (int, error) {
	n, err := dw.w.Write(p)
	var m message
	if json.Unmarshal(bytes.TrimSpace(p), &m) == nil && m.Method == "" && m.hasID() {
		dw.d.count(0, 1)
	}
	return n, err
}
