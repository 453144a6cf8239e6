//go:build ignore

// gen writes the benchmark's transcripts from the *.sessions scripts, in
// the shape Claude Code writes them (pkg/transcript/transcripttest):
//
//	go run testdata/eval/coding/gen.go
//
// The transcripts are committed; rerun this only after editing a script.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/transcript/transcripttest"
)

func main() {
	dir := "testdata/eval/coding"
	scripts, _ := filepath.Glob(filepath.Join(dir, "*.sessions"))
	for _, s := range scripts {
		if err := gen(s, filepath.Join(dir, "transcripts", strings.TrimSuffix(filepath.Base(s), ".sessions"))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func gen(script, out string) error {
	f, err := os.Open(script)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	project := strings.TrimSuffix(filepath.Base(script), ".sessions")
	var b *transcripttest.Builder
	flush := func() error {
		if b == nil {
			return nil
		}
		return os.WriteFile(filepath.Join(out, b.SessionID+".jsonl"), []byte(b.JSONL()), 0o644)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		text := func(p string) string { return strings.ReplaceAll(strings.TrimPrefix(line, p), `\n`, "\n") }
		two := func(p, sep string) (string, string) {
			a, c, _ := strings.Cut(text(p), sep)
			return strings.TrimSpace(a), strings.TrimSpace(c)
		}
		switch {
		case strings.HasPrefix(line, "## session "):
			if err := flush(); err != nil {
				return err
			}
			f := strings.Fields(line)
			start, err := time.Parse(time.RFC3339, f[3])
			if err != nil {
				return fmt.Errorf("%s:%d: %v", script, n, err)
			}
			b = transcripttest.New(f[2], "/home/dev/src/"+project, f[4], start)
		case line == "" || strings.HasPrefix(line, "#"):
		case b == nil:
			return fmt.Errorf("%s:%d: line before the first session", script, n)
		case strings.HasPrefix(line, "> "):
			b.Prompt(2*time.Minute, text("> "))
		case strings.HasPrefix(line, "$ "):
			cmd, outp := two("$ ", "||")
			b.Bash(cmd, outp, false)
		case strings.HasPrefix(line, "! "):
			cmd, outp := two("! ", "||")
			b.Bash(cmd, outp, true)
		case strings.HasPrefix(line, "E "):
			path, change := two("E ", "::")
			old, nw, _ := strings.Cut(change, "=>")
			b.Edit(path, strings.TrimSpace(old), strings.TrimSpace(nw))
		case strings.HasPrefix(line, "W "):
			path, content := two("W ", "::")
			b.Write(path, content+"\n")
		case strings.HasPrefix(line, "R "):
			b.Read(text("R "), "1\t// (file content)\n")
		case strings.HasPrefix(line, "= "):
			b.Say(text("= "))
		case strings.HasPrefix(line, "~ "):
			b.Compact(text("~ "))
		case strings.HasPrefix(line, "@ "):
			h, err := strconv.Atoi(strings.TrimSpace(text("@ ")))
			if err != nil {
				return fmt.Errorf("%s:%d: %v", script, n, err)
			}
			b.Pause(time.Duration(h) * time.Hour)
		default:
			return fmt.Errorf("%s:%d: unknown line %q", script, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}
