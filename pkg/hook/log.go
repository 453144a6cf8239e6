package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// MaxLog is the size at which the log is rotated to anamnesis.log.1; two
// generations bound the disk used whatever a broken setup does every session.
const MaxLog = 1 << 20

// LogPath is <home>/logs/anamnesis.log.
func LogPath(home string) string { return layout.Home(home).Logs("anamnesis.log") }

// Logger appends timestamped lines to the shared hook log. Every method is
// best effort: a log that cannot be written must not break a hook.
type Logger struct {
	// mu serializes this process's writers, so the size check and the
	// rotation see each other's lines (separate hook processes can still
	// interleave; the rotation bounds what that costs).
	mu   sync.Mutex
	path string
	name string
	max  int64
	now  func() time.Time
}

// NewLogger logs as name (e.g. "anamnesis-inject") under home.
func NewLogger(home, name string) *Logger {
	return &Logger{path: LogPath(home), name: name, max: MaxLog, now: time.Now}
}

// Printf appends one line. Newlines in the message are flattened so each
// event stays one line for grep.
func (l *Logger) Printf(format string, args ...any) {
	if l == nil || l.path == "" {
		return
	}
	msg := strings.ReplaceAll(strings.TrimRight(fmt.Sprintf(format, args...), "\n"), "\n", " | ")
	line := fmt.Sprintf("%s %s[%d]: %s\n", l.now().UTC().Format(time.RFC3339), l.name, os.Getpid(), msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = layout.MkdirAll(filepath.Dir(l.path))
	if fi, err := os.Stat(l.path); err == nil && fi.Size()+int64(len(line)) > l.max {
		// Concurrent hooks may both rotate; the loser's rename moves a
		// nearly empty file, which costs at most a few lines.
		_ = os.Rename(l.path, l.path+".1")
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, layout.FileMode)
	if err != nil {
		return
	}
	// One write call per line: O_APPEND keeps lines from concurrent hooks whole.
	_, _ = f.Write([]byte(line))
	_ = f.Close()
}

// Write logs each line of p as Printf does (a detached child's output made
// log lines: stamped, named, rotated), and never fails.
func (l *Logger) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if strings.TrimSpace(line) != "" {
			l.Printf("%s", line)
		}
	}
	return len(p), nil
}
