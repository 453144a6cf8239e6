// Package walktest tells a hook's tests whether the hook walks the store
// (SPEC 9: a hook's cost must not grow with the number of notes). It runs
// the real command under strace, following every process it starts, and
// reports the note directories listed and the note files looked at, so a
// test can fail on a directory listed and bound the files by what the
// hook's work needs, whatever the store holds. For tests only: no command
// imports it.
package walktest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Notes writes n note files into home's memory tree as another writer (git
// pull, the reference) leaves them: a third of each type, every other one
// global and the rest project's, all about the same service, one a minute
// from 2026-01-01 (older than any note a test writes next). Nothing is
// indexed: store.Open indexes them.
func Notes(t testing.TB, home, project string, n int) {
	t.Helper()
	for i := range n {
		typ := []string{note.Semantic, note.Procedural, note.Episodic}[i%3]
		x := note.New(typ, fmt.Sprintf("Fact %d about the quotes service", i), fmt.Sprintf("The quotes service caches rates for %d seconds.", i))
		x.Project = project
		if i%2 == 0 {
			x.Project = note.Global
		}
		x.MachineID = "dev"
		x.ID = note.NewID()
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		x.CreatedAt = note.FormatTime(at)
		x.UpdatedAt = x.CreatedAt
		p := filepath.Join(home, "memory", typ, x.ID+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, x.Marshal(), 0o600); err != nil {
			t.Fatal(err)
		}
		// Modified when written, long before the test: a git index written
		// in the same second would otherwise find them "racily clean" and
		// read every one again at its next write, git's cost, not the hook's.
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
}

// Trace is what a process tree did to the store's note files, each named
// by its Key.
type Trace struct {
	// Listed counts the listings of each note directory: a descriptor of
	// it opened and read (however many getdents calls its size takes).
	Listed map[string]int
	// ListedBy counts the listings of note directories each program made
	// (named as in By): git's own are git's cost, not ours.
	ListedBy map[string]int
	// Looked holds every note file a system call named (opened, stat'ed,
	// renamed...), by path or by descriptor.
	Looked map[string]bool
	// Opened holds the note files among them that were opened.
	Opened map[string]bool
	// Ran lists the programs started (execve), in order.
	Ran []string
	// By counts the note files each program looked at (by its base name;
	// a process that started none is the traced command), so a test that
	// fails can say which process walked.
	By map[string]int
}

// Key is how Trace names the note file or directory at path: a note
// directory by its tree and type ("memory/semantic", "local/episodic"), a
// note file by its type and name ("semantic/01J....md"): ids are unique
// across trees, and the store looks a note up in each tree it may be in,
// which is one note looked at, not two.
func Key(path string) string {
	m := notePath.FindStringSubmatch(filepath.ToSlash(path))
	switch {
	case m == nil:
		return ""
	case m[3] == "":
		return m[1] + "/" + m[2]
	}
	return m[2] + "/" + m[3]
}

// Keys are the Keys of paths.
func Keys(paths ...string) map[string]bool {
	out := map[string]bool{}
	for _, p := range paths {
		out[Key(p)] = true
	}
	return out
}

// notePath matches a note directory or a note file under one of a home's
// trees (memory, local, a team's store).
var notePath = regexp.MustCompile(`/(memory|local|teams/[^/]+)/(episodic|semantic|procedural)(?:/([^/]+\.md))?$`)

var (
	// The system call a line of strace -f shows (after the pid), resumed
	// or not.
	callName = regexp.MustCompile(`^(?:\d+ +)?(?:<\.\.\. )?(\w+)[( ]`)
	// A descriptor strace -y decorated with its path.
	decorated = regexp.MustCompile(`<(/[^<>]*)>`)
	// A call's first argument when it is a directory descriptor and its
	// second a path, which a relative path is resolved against.
	atPath = regexp.MustCompile(`^(?:\d+ +)?\w+\((?:AT_FDCWD|-?\d+)<([^<>]*)>, "([^"]*)"`)
	quoted = regexp.MustCompile(`"([^"]*)"`)
	listed = regexp.MustCompile(`\bgetdents(?:64)?\((\d+)<([^<>]*)>`)
	// The descriptor an open returned, decorated with its path.
	result = regexp.MustCompile(`= (\d+)<(/[^<>]*)>$`)
	// The pid strace -f puts before a line.
	pid = regexp.MustCompile(`^\d+ `)
	// A new process's or thread's id, as clone returns it.
	forked = regexp.MustCompile(`= (\d+)$`)
)

// Parse reads the output of `strace -f -y` (see Run for the calls traced).
// A relative path is resolved against the directory descriptor of the call
// (AT_FDCWD is decorated with the cwd), as every *at call has; the old
// calls without one (stat, open) exist only on some architectures and
// libraries, and their relative paths are not resolved.
func Parse(data []byte) Trace {
	tr := Trace{Listed: map[string]int{}, ListedBy: map[string]int{}, Looked: map[string]bool{}, Opened: map[string]bool{}, By: map[string]int{}}
	// The program each process runs, by pid; a line without a pid (strace
	// without -f) is the traced command's.
	prog := map[string]string{}
	byProg := map[string]bool{}
	// A descriptor ("fd<path>") of a note directory opened and not read
	// since, and every one read: a listing is the first getdents call on
	// a descriptor after its open.
	fresh, read := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		call := ""
		if m := callName.FindStringSubmatch(l); m != nil {
			call = m[1]
		}
		opens := call == "open" || call == "openat" || call == "openat2" || call == "creat"
		if m := result.FindStringSubmatch(l); opens && m != nil {
			fresh[m[1]+"<"+m[2]+">"] = true
		}
		if m := listed.FindStringSubmatch(l); m != nil {
			fd := m[1] + "<" + m[2] + ">"
			if k := Key(m[2]); k != "" && (fresh[fd] || !read[fd]) {
				tr.Listed[k]++
				tr.ListedBy[progOf(prog, l)]++
			}
			fresh[fd], read[fd] = false, true
		}
		var paths []string
		for _, m := range decorated.FindAllStringSubmatch(l, -1) {
			paths = append(paths, m[1])
		}
		at := atPath.FindStringSubmatch(l)
		for i, m := range quoted.FindAllStringSubmatch(l, -1) {
			p := m[1]
			if i == 0 && at != nil && p != "" && !strings.HasPrefix(p, "/") {
				p = at[1] + "/" + p
			}
			paths = append(paths, p)
		}
		for _, p := range paths {
			k := Key(p)
			if !strings.HasSuffix(k, ".md") {
				continue
			}
			tr.Looked[k] = true
			who := progOf(prog, l)
			if !byProg[who+"\x00"+k] {
				byProg[who+"\x00"+k] = true
				tr.By[who]++
			}
			if opens {
				tr.Opened[k] = true
			}
		}
		if m := forked.FindStringSubmatch(l); m != nil && (call == "clone" || call == "clone3" || call == "fork" || call == "vfork") {
			// A thread or a child runs its parent's program until it execs,
			// which strace may show before the clone returns.
			if _, ok := prog[m[1]+" "]; !ok {
				prog[m[1]+" "] = prog[pid.FindString(l)]
			}
		}
		if call == "execve" {
			if m := quoted.FindStringSubmatch(l); m != nil {
				tr.Ran = append(tr.Ran, m[1])
				prog[pid.FindString(l)] = filepath.Base(m[1])
			}
		}
	}
	return tr
}

// progOf names the program of the process that made the call on line l.
func progOf(prog map[string]string, l string) string {
	if who := prog[pid.FindString(l)]; who != "" {
		return who
	}
	return "(command)"
}

// Started reports whether the trace ran a program named name.
func (tr Trace) Started(name string) bool {
	for _, p := range tr.Ran {
		if filepath.Base(p) == name {
			return true
		}
	}
	return false
}

// Outside lists the note files looked at that are not in allowed (Keys),
// nor of the type of a directory in dirs (Keys of note directories).
func (tr Trace) Outside(allowed map[string]bool, dirs ...string) []string {
	var out []string
	for k := range tr.Looked {
		if allowed[k] || dirs != nil && inDirs(k, dirs) {
			continue
		}
		out = append(out, k)
	}
	return out
}

func inDirs(k string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(k, d[strings.LastIndexByte(d, '/')+1:]+"/") {
			return true
		}
	}
	return false
}

var (
	straceOnce sync.Once
	stracePath string
	straceErr  error
)

// strace finds strace and checks it can trace here (a container may
// forbid ptrace).
func strace() (string, error) {
	straceOnce.Do(func() {
		stracePath, straceErr = exec.LookPath("strace")
		if straceErr != nil {
			straceErr = fmt.Errorf("strace is not installed: %w", straceErr)
			return
		}
		if err := exec.Command(stracePath, "-f", "-o", os.DevNull, "true").Run(); err != nil {
			straceErr = fmt.Errorf("strace cannot trace here: %w", err)
		}
	})
	return stracePath, straceErr
}

// Available skips t when the system calls cannot be counted here (no
// strace, or tracing forbidden); call it before building the store.
func Available(t testing.TB) {
	t.Helper()
	if _, err := strace(); err != nil {
		t.Skipf("the system calls cannot be counted here: %v", err)
	}
}

// Run runs cmd under strace, following every process it starts (the trace
// ends when the last of them does, a detached child included), and returns
// what cmd printed on stdout and the trace. It fails t when cmd fails, and
// skips it when strace cannot run (Available). cmd's Stdout and Stderr must
// be unset.
func Run(t testing.TB, cmd *exec.Cmd) (string, Trace) {
	t.Helper()
	Available(t)
	path, _ := strace()
	file := filepath.Join(t.TempDir(), "strace")
	name := strings.Join(cmd.Args, " ")
	cmd.Args = append([]string{path, "-f", "-qq", "-y", "-o", file,
		"-e", "trace=%file,getdents64,getdents,clone,clone3,fork,vfork", "--", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = path
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s%s", name, err, out, stderr.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), Parse(data)
}
