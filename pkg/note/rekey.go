package note

import (
	"bytes"
	"errors"
	"strings"
)

// frontLines returns the byte range of the front-matter's lines (after the
// opening "---\n", up to the closing one) or ok=false.
func frontLines(data []byte) (start, end int, ok bool) {
	if !bytes.HasPrefix(data, []byte(delim)) {
		return 0, 0, false
	}
	rest := data[len(delim):]
	if i := bytes.Index(rest, []byte("\n"+delim)); i >= 0 {
		return len(delim), len(delim) + i + 1, true
	}
	return 0, 0, false
}

// HasKey reports whether the file's front-matter sets key at the top level.
func HasKey(data []byte, key string) bool {
	s, e, ok := frontLines(data)
	if !ok {
		return false
	}
	for _, line := range strings.SplitAfter(string(data[s:e]), "\n") {
		if strings.HasPrefix(line, key+":") {
			return true
		}
	}
	return false
}

// SetProject returns data with only the front-matter's project line
// replaced, every other byte kept (migrate's one-line git diff). The value is
// written the way Marshal writes it.
func SetProject(data []byte, project string) ([]byte, error) {
	if project == "" || strings.ContainsAny(project, "\r\n") {
		return nil, errors.New("a project key must be one non-empty line")
	}
	s, e, ok := frontLines(data)
	if !ok {
		return nil, ErrNoFrontMatter
	}
	front := string(data[s:e])
	off := 0
	for _, line := range strings.SplitAfter(front, "\n") {
		if strings.HasPrefix(line, "project:") {
			eol := "\n"
			if strings.HasSuffix(line, "\r\n") {
				eol = "\r\n"
			}
			var out bytes.Buffer
			out.Write(data[:s+off])
			out.WriteString("project: " + scalar(project) + eol)
			out.Write(data[s+off+len(line):])
			return out.Bytes(), nil
		}
		off += len(line)
	}
	return nil, errors.New("front-matter has no project line")
}
