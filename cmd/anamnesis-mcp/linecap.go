package main

import (
	"bytes"
	"io"
)

// maxLine bounds one JSON-RPC message. The largest legitimate request is a
// memory_write with a 1 MiB body, which JSON escaping can at most inflate
// a few times; mcp-go reads a line without a limit, so a 100 MB line would
// otherwise be held whole in memory (several times over).
const maxLine = 8 << 20

// lineCap passes input through until a line passes max bytes, then drops
// the rest of that line and ends it: the server gets a cut, unparsable line,
// answers with a JSON-RPC parse error and reads the next message.
type lineCap struct {
	r    io.Reader
	max  int
	cur  int  // bytes of the current line passed on
	skip bool // dropping the rest of an over-long line
}

func (c *lineCap) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		out := 0
		for i := 0; i < n; {
			if c.skip {
				j := bytes.IndexByte(p[i:n], '\n')
				if j < 0 {
					i = n
					continue
				}
				i += j + 1
				c.skip, c.cur = false, 0
				p[out] = '\n'
				out++
				continue
			}
			j := bytes.IndexByte(p[i:n], '\n')
			end := n
			if j >= 0 {
				end = i + j + 1
			}
			if room := c.max - c.cur; end-i > room && (j < 0 || end-i-1 > room) {
				// Keep what fits, then drop until the newline.
				copy(p[out:], p[i:i+room])
				out += room
				c.cur += room
				c.skip = true
				i += room
				continue
			}
			copy(p[out:], p[i:end])
			out += end - i
			if j >= 0 {
				c.cur = 0
			} else {
				c.cur += end - i
			}
			i = end
		}
		if out > 0 || err != nil {
			return out, err
		}
	}
}
