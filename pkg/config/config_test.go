package config

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
)

func envOf(m map[string]string) Env { return func(k string) string { return m[k] } }

func TestResolvePrecedence(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(Path(home), []byte(`{"machine_id":"from-file","remote":"/srv/r.git","reflection":{"provider":"local","timeout":5},"inject":{"max_chars":4000},"user_extra":1}`), 0o600)
	c := Resolve(home, envOf(map[string]string{"ANAMNESIS_MACHINE_ID": "from-env"}))
	if c.MachineID != "from-env" || c.Remote != "/srv/r.git" || c.InjectMaxChars != 4000 ||
		c.Reflection.Provider != "local" || c.Reflection.Timeout != 5*time.Second || c.FileErr != nil {
		t.Fatalf("%+v", c)
	}
	d := Resolve("", envOf(map[string]string{HomeVar(): home}))
	if d.Home != filepath.Join(home, ".anamnesis") || d.MachineID == "" || d.InjectMaxChars != 9500 || d.Reflection.Provider != "heuristic" {
		t.Fatalf("defaults %+v", d)
	}
	if e := Resolve("", envOf(map[string]string{HomeVar(): home, "ANAMNESIS_HOME": "~/mem"})); e.Home != filepath.Join(home, "mem") {
		t.Fatalf("~ not expanded: %q", e.Home)
	}
	// ~\x is a Windows user's spelling; elsewhere \ is a file name's letter.
	want := filepath.Join(home, "mem")
	if runtime.GOOS != "windows" {
		want = `~\mem`
	}
	if e := Resolve("", envOf(map[string]string{HomeVar(): home, "ANAMNESIS_HOME": `~\mem`})); e.Home != want {
		t.Fatalf(`~\mem is %q, want %q`, e.Home, want)
	}
}

func TestMalformedReadsEmpty(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(Path(home), []byte(`{"machine_id": `), 0o600)
	c := Resolve(home, envOf(map[string]string{}))
	if c.FileErr == nil || c.Remote != "" {
		t.Fatalf("%+v", c)
	}
}

func TestSetUnsetSave(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(Path(home), []byte(`{"keep_me": {"x": true}}`), 0o644)
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][2]string{{"nope", "1"}, {"reflection.provider", "gpt"}, {"remote", "--upload-pack=evil"},
		{"inject.max_chars", "-1"}, {"recall.enabled", "maybe"}, {"recall.max_chars", "50"}, {"reflection.base_url", "ftp://x"}, {"machine_id", "a b"}} {
		if err := f.Set(bad[0], bad[1]); err == nil {
			t.Errorf("Set%v accepted", bad)
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.Set("machine_id", "laptop"))
	must(f.Set("reflection.api_key", "sk-verysecretvalue1234"))
	must(f.Set("inject.max_chars", "3000"))
	must(f.Set("recall.enabled", "off"))
	must(f.Set("recall.max_chars", "1200"))
	must(f.Save())
	info, _ := os.Stat(Path(home))
	if !atomicfile.HasPerm(info, 0o600) {
		t.Fatalf("mode %v", info.Mode())
	}
	g, _ := Load(home)
	if v, _ := g.Get("keep_me.x"); v != "true" {
		t.Fatal("unknown key lost")
	}
	for _, kv := range g.List() {
		if kv[0] == "reflection.api_key" && kv[1] == "sk-verysecretvalue1234" {
			t.Fatal("api key not masked")
		}
	}
	if !g.Unset("reflection.api_key") || g.Unset("reflection.api_key") {
		t.Fatal("unset")
	}
	if c := Resolve(home, envOf(nil)); c.InjectMaxChars != 3000 || c.MachineID != "laptop" || c.RecallEnabled || c.RecallMaxChars != 1200 {
		t.Fatalf("%+v", c)
	}
}

// SPEC 10: for every key, the environment wins over config.json, which wins
// over the defaults.
func TestPrecedenceEveryKey(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(Path(home), []byte(`{"machine_id":"file-m","remote":"/srv/file.git","inject":{"max_chars":4000},
		"recall":{"enabled":false,"max_chars":1500},
		"reflection":{"provider":"local","model":"file-model","base_url":"http://file.example/v1","api_key":"file-key","timeout":5}}`), 0o600)
	env := map[string]string{
		"ANAMNESIS_MACHINE_ID": "env-m", "ANAMNESIS_GIT_REMOTE": "/srv/env.git", "ANAMNESIS_INJECT_MAX_CHARS": "0",
		"ANAMNESIS_REFLECTION_PROVIDER": "openai", "ANAMNESIS_REFLECTION_MODEL": "env-model",
		"ANAMNESIS_REFLECTION_BASE_URL": "http://env.example/v1", "ANAMNESIS_REFLECTION_API_KEY": "env-key",
		"ANAMNESIS_REFLECTION_TIMEOUT": "7", "ANAMNESIS_IMPORT_NATIVE": "0", "CLAUDE_CONFIG_DIR": "/cc",
		"ANAMNESIS_RECALL_ENABLED": "yes", "ANAMNESIS_RECALL_MAX_CHARS": "3000",
	}
	e := Resolve(home, envOf(env))
	want := Config{Home: home, MachineID: "env-m", Remote: "/srv/env.git", InjectMaxChars: 0, ImportNative: false,
		RecallEnabled: true, RecallMaxChars: 3000,
		Reflection: Reflection{Provider: "openai", Model: "env-model", BaseURL: "http://env.example/v1", APIKey: "env-key", Timeout: 7 * time.Second},
		ClaudeDir:  "/cc", ClaudeJSON: filepath.Join("/cc", ".claude.json"), UserHome: UserHome(envOf(env))}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("env over file:\n got %+v\nwant %+v", e, want)
	}
	f := Resolve(home, envOf(map[string]string{HomeVar(): "/u"}))
	want = Config{Home: home, MachineID: "file-m", Remote: "/srv/file.git", InjectMaxChars: 4000, ImportNative: true,
		RecallEnabled: false, RecallMaxChars: 1500,
		Reflection: Reflection{Provider: "local", Model: "file-model", BaseURL: "http://file.example/v1", APIKey: "file-key", Timeout: 5 * time.Second},
		ClaudeDir:  filepath.Join("/u", ".claude"), ClaudeJSON: filepath.Join("/u", ".claude.json"), UserHome: "/u"}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("file over defaults:\n got %+v\nwant %+v", f, want)
	}
}

// A value that does not parse is passed over for the next source (an
// environment variable's for config.json's, then the default) and named for
// doctor: a mistyped variable used to put the default in place of a valid
// config.json value, silently.
func TestBadValueFallsThrough(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(Path(home), []byte(`{"inject":{"max_chars":5000},"recall":{"enabled":"perhaps","max_chars":10}}`), 0o600)
	c := Resolve(home, envOf(map[string]string{"ANAMNESIS_INJECT_MAX_CHARS": "abc", "ANAMNESIS_RECALL_MAX_CHARS": "-4"}))
	if c.InjectMaxChars != 5000 || !c.RecallEnabled || c.RecallMaxChars != defaultRecallMaxChars {
		t.Errorf("inject %d, recall %v %d", c.InjectMaxChars, c.RecallEnabled, c.RecallMaxChars)
	}
	want := []string{`ANAMNESIS_INJECT_MAX_CHARS="abc"`, `recall.enabled="perhaps"`, `ANAMNESIS_RECALL_MAX_CHARS="-4"`, `recall.max_chars="10"`}
	if !reflect.DeepEqual(c.Ignored, want) {
		t.Errorf("ignored %q, want %q", c.Ignored, want)
	}
}

// config.json is rewritten in its own order: known and unknown keys keep
// their places, numbers their spelling, new keys go last; unset removes a
// key and an emptied block.
func TestFileKeepsOrder(t *testing.T) {
	home := t.TempDir()
	in := `{"zeta": 1.50, "remote": "/srv/a.git", "reflection": {"timeout": 5, "provider": "local"}, "machine_id": "m", "x": "<&>"}`
	os.WriteFile(Path(home), []byte(in), 0o600)
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("remote", "/srv/b.git"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("inject.max_chars", "4000"); err != nil {
		t.Fatal(err)
	}
	f.Unset("reflection.provider")
	f.Unset("reflection.timeout")
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(Path(home))
	want := "{\n  \"zeta\": 1.50,\n  \"remote\": \"/srv/b.git\",\n  \"machine_id\": \"m\",\n  \"x\": \"<&>\",\n  \"inject\": {\n    \"max_chars\": 4000\n  }\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if fi, _ := os.Stat(Path(home)); !atomicfile.HasPerm(fi, 0o600) {
		t.Errorf("mode %o", fi.Mode().Perm())
	}
}

// A machine id is printed raw: in every note's front-matter, the inject
// block the model reads ("origin: …"), status and list. One holding a
// control character (a terminal escape that clears the screen or sets the
// title) or a bidirectional override is refused, as its message says;
// hostnames and names with dots, underscores and non-ASCII letters pass.
func TestMachineIDRefusesControlCharacters(t *testing.T) {
	for _, bad := range []string{"box\x1b[2J", "box\x1b]0;pwned\x07", "a\x00b", "a\u202eb", "a\x7fb", "a\u0085b"} {
		if err := Validate("machine_id", bad); err == nil {
			t.Errorf("machine_id %q accepted", bad)
		}
	}
	for _, good := range []string{"laptop", "build-01.example.com", "dev_box", "Müller-PC", "ci-runner-7"} {
		if err := Validate("machine_id", good); err != nil {
			t.Errorf("machine_id %q refused: %v", good, err)
		}
	}
}

// A span too large for a time.Duration, or not a number at all ("Inf",
// "NaN", which ParseFloat reads), is refused: the conversion gave a
// negative or zero timeout (an instant failure) where a long one was
// asked for.
func TestParseSecondsRefusesOverflow(t *testing.T) {
	for _, v := range []string{"99999999999999", "1e300", "Inf", "+Inf", "NaN", "infinity"} {
		if d, err := ParseSeconds(v); err == nil {
			t.Errorf("ParseSeconds(%q) = %v, want an error", v, d)
		}
	}
	for v, want := range map[string]time.Duration{"30": 30 * time.Second, "2.5": 2500 * time.Millisecond, "86400": 24 * time.Hour, "2m": 2 * time.Minute} {
		if d, err := ParseSeconds(v); err != nil || d != want {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v", v, d, err, want)
		}
	}
}

// A remote given as a relative path ('config set remote ./backup.git',
// 'init --remote ../notes.git') means the directory the user stood in;
// git runs in <home>/memory, where it named nothing (every sync failed with
// "does not appear to be a git repository"). It is stored absolute; URLs,
// scp-style remotes and absolute paths stay as given.
func TestSetRemoteMakesARelativePathAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	f, _ := Parse(filepath.Join(dir, "config.json"), nil)
	for in, want := range map[string]string{
		"./backup.git":            filepath.Join(dir, "backup.git"),
		"../notes.git":            filepath.Join(filepath.Dir(dir), "notes.git"),
		"backup.git":              filepath.Join(dir, "backup.git"),
		"git@github.com:me/n.git": "git@github.com:me/n.git",
		"host:notes.git":          "host:notes.git",
		"https://h.example/n.git": "https://h.example/n.git",
		"ssh://git@h.example/n":   "ssh://git@h.example/n",
		"file:///srv/n.git":       "file:///srv/n.git",
		filepath.Join(dir, "abs"): filepath.Join(dir, "abs"),
	} {
		if err := f.Set("remote", in); err != nil {
			t.Fatalf("Set(remote, %q): %v", in, err)
		}
		if got, _ := f.Get("remote"); got != want {
			t.Errorf("remote %q stored as %q, want %q", in, got, want)
		}
	}
}

// config.json kept in a dotfiles repository and linked into the home stays
// a link: Save writes the file it points to (it replaced the link with a
// regular file, leaving the dotfiles copy stale).
func TestSaveKeepsASymlinkedConfig(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(filepath.Join(root, "dotfiles"), 0o700)
	target := filepath.Join(root, "dotfiles", "anamnesis.json")
	os.WriteFile(target, []byte(`{"machine_id": "m5"}`), 0o600)
	if err := os.Symlink("../dotfiles/anamnesis.json", Path(home)); err != nil {
		t.Skip("no symbolic links here")
	}
	if fi, err := os.Lstat(Path(home)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("this file system makes no symbolic links (Wine)")
	}
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("inject.max_chars", "5000"); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(Path(home)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("config.json is no longer a symlink")
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "5000") || !strings.Contains(string(b), "m5") {
		t.Errorf("target not updated: %s", b)
	}
}

// A refused remote or base URL is named in the error with its credentials
// masked: the message goes to the terminal and to whatever logs a script's
// stderr ("base_url \"http://bob:<password>@host:badport/v1\": want an
// http(s) URL" printed the password).
func TestValidateErrorMasksCredentials(t *testing.T) {
	for key, value := range map[string]string{
		"reflection.base_url": "http://bob:Pr0xyPassw0rd@host:badport/v1",
		"remote":              "https://0123456789abcdef0123456789abcdef01234567@github.com/a/b.git\n",
	} {
		err := Validate(key, value)
		if err == nil {
			t.Fatalf("%s %q accepted", key, value)
		}
		for _, s := range []string{"Pr0xyPassw0rd", "0123456789abcdef0123456789abcdef01234567"} {
			if strings.Contains(err.Error(), s) {
				t.Errorf("%s: error shows the credential: %v", key, err)
			}
		}
	}
}

// A team's remote given as a relative path ('team add core ../core.git')
// is stored absolute, as the personal remote is: the team's sync runs git
// in teams/NAME, where the relative path names nothing.
func TestSetTeamMakesARelativePathAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	f, _ := Parse(filepath.Join(dir, "config.json"), nil)
	f.SetTeam(Team{Name: "core", URL: "../core.git"})
	f.SetTeam(Team{Name: "ops", URL: "git@github.com:acme/ops.git"})
	got := map[string]string{}
	for _, tm := range f.Teams() {
		got[tm.Name] = tm.URL
	}
	if want := filepath.Join(filepath.Dir(dir), "core.git"); got["core"] != want || got["ops"] != "git@github.com:acme/ops.git" {
		t.Fatalf("teams %v, want core at %s", got, want)
	}
}

// A machine id from the environment (or a hand-edited config.json) holding
// a control or bidirectional-override character is not used: it is printed
// raw in every note and in the block the model reads.
func TestMachineIDFromTheEnvironmentRefusesControlCharacters(t *testing.T) {
	home := t.TempDir()
	for _, bad := range []string{"box\x1b[2Jpwned", "box\u202eevil", "a\nb"} {
		c := Resolve(home, func(k string) string {
			if k == "ANAMNESIS_MACHINE_ID" {
				return bad
			}
			return ""
		})
		if c.MachineID == bad || hasControl(c.MachineID) || c.MachineID == "" {
			t.Errorf("%q: machine id %q", bad, c.MachineID)
		}
	}
	c := Resolve(home, func(k string) string {
		if k == "ANAMNESIS_MACHINE_ID" {
			return "laptop 2"
		}
		return ""
	})
	if c.MachineID != "laptop 2" {
		t.Errorf("a printable machine id from the environment is not used: %q", c.MachineID)
	}
}

// An ext:: remote is a command line, which the git runner never runs
// (gitsync pins protocol.ext.allow=never): config set remote and init
// --remote refuse it at once, rather than store a remote every sync then
// fails on.
func TestValidateRefusesExtRemote(t *testing.T) {
	for _, v := range []string{"ext::sh -c touch% /tmp/x", "EXT::ssh -p 22 host %S 'repo'"} {
		err := Validate("remote", v)
		if err == nil || !strings.Contains(err.Error(), "ext::") {
			t.Errorf("Validate(remote, %q) = %v", v, err)
		}
	}
	for _, v := range []string{"host:ext::x", "/srv/ext::notes.git", "ssh://host/ext::x"} {
		if err := Validate("remote", v); err != nil {
			t.Errorf("Validate(remote, %q) = %v", v, err)
		}
	}
}

// list shows a trusted marker: its path holds dots, so looking the listed
// key up again by its dotted path found nothing, and list left it out while
// get trusted_markers printed it.
func TestListShowsTrustedMarkers(t *testing.T) {
	home := t.TempDir()
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	f.TrustMarker("/home/dev/src/api/.anamnesis/project", "5f1c0ffee")
	if err := f.Set("machine_id", "laptop"); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range f.List() {
		got[kv[0]] = kv[1]
	}
	if got["trusted_markers./home/dev/src/api/.anamnesis/project"] != "5f1c0ffee" || got["machine_id"] != "laptop" {
		t.Fatalf("list: %v", got)
	}
}
