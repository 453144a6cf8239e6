package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
)

// HookOutputLive reports whether the live part of the transcript at path,
// after its last compaction, holds the output of an earlier SessionStart
// hook that contains marker. Claude Code (2.1.330) keeps each hook's output
// in the transcript as a hook_success attachment and replays it into the
// context of a resumed session, so a SessionStart hook that prints the same
// block again on resume puts it there twice; a compaction drops what came
// before its boundary. It streams the file and decodes only the few lines
// that can matter.
func HookOutputLive(ctx context.Context, path, marker string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, errors.New("transcript: " + path + " is not a regular file")
	}
	found := false
	br := bufio.NewReaderSize(f, 64<<10)
	var buf []byte
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return found, err
			}
		}
		line, tooLong, err := readLine(br, buf[:0])
		buf = line
		if !tooLong && len(line) > 0 {
			switch {
			case bytes.Contains(line, []byte(`"compact_boundary"`)) && isCompactBoundary(line):
				found = false
			case !found && bytes.Contains(line, []byte(`"hook_success"`)) && sessionStartOutput(line, marker):
				found = true
			}
		}
		if err == io.EOF {
			return found, nil
		}
		if err != nil {
			return found, err
		}
		if cap(buf) > 1<<20 {
			buf = nil
		}
	}
}

func isCompactBoundary(line []byte) bool {
	var l struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
	}
	return json.Unmarshal(line, &l) == nil && l.Type == "system" && l.Subtype == "compact_boundary"
}

func sessionStartOutput(line []byte, marker string) bool {
	var l struct {
		Type        string `json:"type"`
		IsSidechain bool   `json:"isSidechain"`
		Attachment  *struct {
			Type      string `json:"type"`
			HookEvent string `json:"hookEvent"`
			Content   string `json:"content"`
		} `json:"attachment"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "attachment" || l.IsSidechain || l.Attachment == nil {
		return false
	}
	a := l.Attachment
	return a.Type == "hook_success" && a.HookEvent == "SessionStart" && strings.Contains(a.Content, marker)
}
