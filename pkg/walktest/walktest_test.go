package walktest

import (
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

const sample = `100 execve("/bin/anamnesis-inject", ["anamnesis-inject", "--home", "/h"], 0x7ffd /* 39 vars */) = 0
100 openat(AT_FDCWD</w>, "/h/memory/semantic/01AAA.md", O_RDONLY|O_CLOEXEC) = 3</h/memory/semantic/01AAA.md>
100 newfstatat(AT_FDCWD</w>, "/h/memory/procedural/01BBB.md", {st_mode=S_IFREG|0600, st_size=200, ...}, AT_SYMLINK_NOFOLLOW) = 0
100 clone3({flags=CLONE_VM|CLONE_FS, exit_signal=0}, 88 <unfinished ...>
100 <... clone3 resumed>) = 103
103 newfstatat(AT_FDCWD</w>, "/h/memory/semantic/01FFF.md", {st_mode=S_IFREG|0600, st_size=200, ...}, AT_SYMLINK_NOFOLLOW) = 0
101 execve("/bin/git", ["git", "status"], 0x7ffd /* 39 vars */) = 0
101 newfstatat(AT_FDCWD</h/memory>, "episodic/01CCC.md", {st_mode=S_IFREG|0600, st_size=200, ...}, AT_SYMLINK_NOFOLLOW) = 0
101 newfstatat(3</h/local/episodic/01DDD.md>, "", {st_mode=S_IFREG|0600, st_size=200, ...}, AT_EMPTY_PATH) = 0
101 openat(AT_FDCWD</h>, "memory/semantic", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 4</h/memory/semantic>
101 getdents64(4</h/memory/semantic>,  <unfinished ...>
100 openat(AT_FDCWD</w>, "/h/memory/semantic/01EEE.md", O_RDONLY|O_CLOEXEC <unfinished ...>
101 <... getdents64 resumed>0x1234 /* 3 entries */, 8192) = 80
100 <... openat resumed>) = 5</h/memory/semantic/01EEE.md>
101 getdents64(4</h/memory/semantic>, 0x1234 /* 0 entries */, 8192) = 0
101 getdents64(5</h/logs>, 0x1234 /* 2 entries */, 8192) = 48
102 openat(AT_FDCWD</w>, "/h/memory/semantic", O_RDONLY|O_CLOEXEC) = 4</h/memory/semantic>
102 getdents64(4</h/memory/semantic>, 0x1234 /* 3 entries */, 8192) = 80
102 getdents64(4</h/memory/semantic>, 0x1234 /* 0 entries */, 8192) = 0
102 getdents64(7</h/local/episodic>, 0x1234 /* 0 entries */, 8192) = 0
101 openat(AT_FDCWD</w>, "/h/cache/inject/abc.md", O_RDONLY) = 6</h/cache/inject/abc.md>
`

func TestParse(t *testing.T) {
	tr := Parse([]byte(sample))
	// Listed twice (two opens; 101's read in two calls), and once by a
	// descriptor whose open is not in the trace.
	if len(tr.Listed) != 2 || tr.Listed["memory/semantic"] != 2 || tr.Listed["local/episodic"] != 1 {
		t.Errorf("listed %v", tr.Listed)
	}
	// 102 runs no program the trace saw started: the command's.
	if want := map[string]int{"git": 1, "(command)": 2}; !maps.Equal(tr.ListedBy, want) {
		t.Errorf("listed by program %v, want %v", tr.ListedBy, want)
	}
	looked := slices.Sorted(maps.Keys(tr.Looked))
	want := []string{"episodic/01CCC.md", "episodic/01DDD.md", "procedural/01BBB.md", "semantic/01AAA.md", "semantic/01EEE.md", "semantic/01FFF.md"}
	if !slices.Equal(looked, want) {
		t.Errorf("looked at %v, want %v", looked, want)
	}
	// 103 is a thread of 100's program.
	if want := map[string]int{"anamnesis-inject": 4, "git": 2}; !maps.Equal(tr.By, want) {
		t.Errorf("by program %v, want %v", tr.By, want)
	}
	if len(tr.Opened) != 2 || !tr.Opened["semantic/01AAA.md"] || !tr.Opened["semantic/01EEE.md"] {
		t.Errorf("opened %v", tr.Opened)
	}
	if !tr.Started("git") || !tr.Started("anamnesis-inject") || tr.Started("anamnesis") || len(tr.Ran) != 2 {
		t.Errorf("ran %v", tr.Ran)
	}
	out := tr.Outside(Keys("/x/memory/semantic/01AAA.md", "/y/local/episodic/01DDD.md"), "memory/semantic")
	slices.Sort(out)
	if !slices.Equal(out, []string{"episodic/01CCC.md", "procedural/01BBB.md"}) {
		t.Errorf("outside %v", out)
	}
}

// A real trace: ls of a note directory and a glob in one are listings, cat
// of a note is an open, by an absolute path or one relative to the cwd.
func TestRun(t *testing.T) {
	Available(t)
	home := t.TempDir()
	Notes(t, home, "demo", 6)
	files, _ := filepath.Glob(filepath.Join(home, "memory", "semantic", "*.md"))
	if len(files) != 2 {
		t.Fatalf("semantic notes %v", files)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", `ls "$1/memory/semantic" >/dev/null && cat "$2" >/dev/null && cd "$1/memory" && cat procedural/*.md >/dev/null`, "sh", home, files[0])
	out, tr := Run(t, cmd)
	if out != "" {
		t.Errorf("output %q", out)
	}
	// ls, and the shell's glob.
	if tr.Listed["memory/semantic"] == 0 || tr.Listed["memory/procedural"] == 0 || len(tr.Listed) != 2 {
		t.Errorf("listed %v", tr.Listed)
	}
	if !tr.Opened[Key(files[0])] {
		t.Errorf("opened %v, not %s", tr.Opened, Key(files[0]))
	}
	procedural, _ := filepath.Glob(filepath.Join(home, "memory", "procedural", "*.md"))
	for _, p := range procedural {
		if !tr.Opened[Key(p)] {
			t.Errorf("cat by a relative path: %s not seen as opened (%v)", Key(p), tr.Opened)
		}
	}
	if !tr.Started("ls") || !tr.Started("cat") {
		t.Errorf("ran %v", tr.Ran)
	}
}
