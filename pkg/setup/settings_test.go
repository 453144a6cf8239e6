package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testGroups = shellHooks("/opt/anamnesis/bin", "/home/u/.anamnesis", true)

// shellHooks are init's shell-form hooks (what it writes outside Windows)
// with Unix paths on every platform: the merge tests are about the merge.
func shellHooks(binDir, home string, homeIsDefault bool) EventGroups {
	return buildHooks(binDir, home, homeIsDefault, false, func(dir, name string) string { return dir + "/" + name })
}

// topLevel decodes a settings document into ordered raw members for
// comparisons that must ignore only our hooks.
func topLevel(t *testing.T, b []byte) object {
	t.Helper()
	o, err := parseObject(bytes.TrimPrefix(b, utf8BOM))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, b)
	}
	return o
}

func keys(o object) []string {
	var ks []string
	for _, m := range o {
		ks = append(ks, string(m.key))
	}
	return ks
}

type groupView struct {
	Matcher string        `json:"matcher"`
	Hooks   []HookCommand `json:"hooks"`
}

func hookEvents(t *testing.T, b []byte) (order []string, events map[string][]groupView) {
	t.Helper()
	top := topLevel(t, b)
	i := top.index("hooks")
	if i < 0 {
		return nil, nil
	}
	h, err := parseObject(top[i].val)
	if err != nil {
		t.Fatal(err)
	}
	events = map[string][]groupView{}
	for _, m := range h {
		var name string
		json.Unmarshal(m.key, &name)
		order = append(order, name)
		var gs []groupView
		if err := json.Unmarshal(m.val, &gs); err != nil {
			t.Fatal(err)
		}
		events[name] = gs
	}
	return order, events
}

func commands(gs []groupView) []string {
	var out []string
	for _, g := range gs {
		for _, h := range g.Hooks {
			out = append(out, h.Command)
		}
	}
	return out
}

func TestMergeIntoMissingFile(t *testing.T) {
	out, err := MergeHooks(nil, testGroups)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/anamnesis/bin/anamnesis-inject",
            "timeout": 15
          }
        ]
      },
      {
        "matcher": "startup|resume",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/anamnesis/bin/anamnesis-sync --background",
            "async": true
          }
        ]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/anamnesis/bin/anamnesis-capture",
            "timeout": 120
          }
        ]
      }
    ],
    "PreCompact": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/anamnesis/bin/anamnesis-capture --source precompact --no-sync",
            "timeout": 60
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/anamnesis/bin/anamnesis-recall",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
`
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestMergeKeepsEverythingElse(t *testing.T) {
	orig := readTestdata(t, "rich-settings.json")
	out, err := MergeHooks(orig, testGroups)
	if err != nil {
		t.Fatal(err)
	}
	a, b := topLevel(t, orig), topLevel(t, out)
	if !reflect.DeepEqual(keys(a), keys(b)) {
		t.Fatalf("top-level keys changed: %v -> %v", keys(a), keys(b))
	}
	// Every top-level value except hooks keeps its exact bytes once both are
	// re-indented the same way (the file was already 2-space indented, so the
	// document bytes around them are identical too; see the removal check).
	for i := range a {
		if string(a[i].key) == `"hooks"` {
			continue
		}
		if !bytes.Equal(a[i].val, b[i].val) {
			t.Errorf("%s changed:\n%s\n%s", a[i].key, a[i].val, b[i].val)
		}
	}
	if !strings.Contains(string(out), `"FOO": "bar && baz <qux>"`) || !strings.Contains(string(out), `"caf\u00e9": "naïve"`) || !strings.Contains(string(out), `"ratio": 1.50`) {
		t.Errorf("escapes or numbers rewritten:\n%s", out)
	}
	order, ev := hookEvents(t, out)
	if want := []string{"PreToolUse", "SessionStart", "SessionEnd", "Stop", "PreCompact", "UserPromptSubmit"}; !reflect.DeepEqual(order, want) {
		t.Errorf("event order %v, want %v", order, want)
	}
	if got, want := commands(ev["SessionStart"]), []string{"echo 'hello from my own hook'", "/opt/anamnesis/bin/anamnesis-inject", "/opt/anamnesis/bin/anamnesis-sync --background"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SessionStart %q, want %q", got, want)
	}
	if got, want := commands(ev["SessionEnd"]), []string{"notify-send 'session over'", "/opt/anamnesis/bin/anamnesis-capture"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SessionEnd %q, want %q", got, want)
	}

	// Idempotent: the second merge changes nothing.
	again, err := MergeHooks(out, testGroups)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, out) {
		t.Errorf("second merge changed the file:\n%s\n---\n%s", out, again)
	}

	// Removal gives back the original bytes exactly.
	back, removed, err := RemoveHooks(out)
	if err != nil || !removed {
		t.Fatalf("RemoveHooks: removed=%v err=%v", removed, err)
	}
	if !bytes.Equal(back, orig) {
		t.Errorf("uninstall did not restore the original:\n%s", back)
	}
}

func TestMergeReplacesReferenceGroups(t *testing.T) {
	orig := readTestdata(t, "reference-settings.json")
	out, err := MergeHooks(orig, testGroups)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "uv run") || strings.Contains(string(out), "ANAMNESIS_MACHINE_ID") {
		t.Fatalf("reference hooks left behind:\n%s", out)
	}
	order, ev := hookEvents(t, out)
	if want := []string{"SessionStart", "SessionEnd", "PreCompact", "UserPromptSubmit"}; !reflect.DeepEqual(order, want) {
		t.Errorf("event order %v", order)
	}
	// Ours take the place of the first reference group; the user's own
	// group keeps its place relative to the others.
	if got, want := commands(ev["SessionStart"]), []string{"/opt/anamnesis/bin/anamnesis-inject", "/opt/anamnesis/bin/anamnesis-sync --background", "echo mine"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SessionStart %q, want %q", got, want)
	}
	// A group shared with a user's hook loses only the Anamnesis entry.
	if got, want := commands(ev["SessionEnd"]), []string{"/opt/anamnesis/bin/anamnesis-capture", "notify-send done"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SessionEnd %q, want %q", got, want)
	}
	if got := commands(ev["PreCompact"]); len(got) != 1 || !strings.Contains(got[0], "--source precompact --no-sync") {
		t.Errorf("PreCompact %q", got)
	}
	top := topLevel(t, out)
	if want := []string{`"model"`, `"hooks"`, `"theme"`}; !reflect.DeepEqual(keys(top), want) {
		t.Errorf("keys %v", keys(top))
	}
	again, _ := MergeHooks(out, testGroups)
	if !bytes.Equal(again, out) {
		t.Errorf("second merge changed the file")
	}
	// Uninstall after replacing the reference keeps the user's hooks only.
	back, removed, err := RemoveHooks(out)
	if err != nil || !removed {
		t.Fatal(removed, err)
	}
	_, ev = hookEvents(t, back)
	if got := append(commands(ev["SessionStart"]), commands(ev["SessionEnd"])...); !reflect.DeepEqual(got, []string{"echo mine", "notify-send done"}) || ev["PreCompact"] != nil {
		t.Errorf("after removal: %q %v\n%s", got, ev["PreCompact"], back)
	}
}

func TestMergeMovedBinariesReplacesOurGroups(t *testing.T) {
	first, err := MergeHooks(readTestdata(t, "rich-settings.json"), testGroups)
	if err != nil {
		t.Fatal(err)
	}
	moved := shellHooks("/new/bin", "/data/my memory", false)
	out, err := MergeHooks(first, moved)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "/opt/anamnesis/bin") {
		t.Fatalf("old groups kept:\n%s", out)
	}
	hooks, err := FindHooks(out)
	if err != nil || len(hooks) != 5 {
		t.Fatalf("FindHooks: %v %v", hooks, err)
	}
	if want := `/new/bin/anamnesis-inject --home '/data/my memory'`; hooks[0].Command != want {
		t.Errorf("inject command %q, want %q", hooks[0].Command, want)
	}
}

func TestMalformedSettingsRefused(t *testing.T) {
	for name, in := range map[string]string{
		"truncated":       `{"hooks": {"SessionStart": [`,
		"trailing comma":  "{\n  \"a\": 1,\n}\n",
		"comment":         "// mine\n{}",
		"array":           `[1, 2]`,
		"string":          `"hooks"`,
		"two objects":     `{} {}`,
		"hooks not obj":   `{"hooks": []}`,
		"event not array": `{"hooks": {"SessionStart": {"matcher": "x"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := MergeHooks([]byte(in), testGroups)
			var se *SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("MergeHooks err = %v, want *SettingsError", err)
			}
			if _, _, err := RemoveHooks([]byte(in)); !errors.As(err, &se) {
				t.Fatalf("RemoveHooks err = %v, want *SettingsError", err)
			}
		})
	}
}

func TestRemoveWithoutOursIsNoop(t *testing.T) {
	orig := []byte("{\"a\":1,   \"hooks\": {\"Stop\": []}}")
	out, removed, err := RemoveHooks(orig)
	if err != nil || removed || !bytes.Equal(out, orig) {
		t.Fatalf("got %q removed=%v err=%v", out, removed, err)
	}
}

func TestMergeKeepsBOMAndReindents(t *testing.T) {
	orig := append(append([]byte(nil), utf8BOM...), []byte("{\n    \"a\": [1,2],\n    \"b\": {}\n}")...)
	out, err := MergeHooks(orig, testGroups)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, utf8BOM) {
		t.Error("BOM dropped")
	}
	if !strings.HasPrefix(string(out[3:]), "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"hooks\": {") {
		t.Errorf("unexpected layout:\n%s", out)
	}
	if bytes.HasSuffix(out, []byte("\n")) {
		t.Error("a file without a final newline gained one")
	}
	back, _, err := RemoveHooks(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}"; string(back[3:]) != want {
		t.Errorf("removal:\n%s", back)
	}
}

func TestRemoveDropsOnlyWhatWeEmptied(t *testing.T) {
	orig := []byte("{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n")
	out, err := MergeHooks(orig, testGroups)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := RemoveHooks(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, orig) {
		t.Errorf("got\n%s", back)
	}
}

func TestIsAnamnesisCommand(t *testing.T) {
	yes := []string{
		"anamnesis inject",
		"ANAMNESIS_MACHINE_ID=x anamnesis capture --source precompact --no-sync",
		"uv run --project /p/server anamnesis sync",
		"'/home/u/.local/bin/anamnesis-inject'",
		`ANAMNESIS_HOME='/x' '/b/anamnesis-capture' --source precompact --no-sync`,
		`"C:\Program Files\anamnesis\anamnesis-sync.exe"`,
		"'/usr/bin/anamnesis' inject",
	}
	no := []string{"echo anamnesis", "anamnesis-dashboard", "notify-send 'capture done'", "anamnesis search foo", "/usr/bin/anamnesisinject"}
	for _, c := range yes {
		if !hook.IsAnamnesisCommand(c) {
			t.Errorf("%q not recognised", c)
		}
	}
	for _, c := range no {
		if hook.IsAnamnesisCommand(c) {
			t.Errorf("%q wrongly recognised", c)
		}
	}
}

// A user's own hook whose script is named after one of ours (a wrapper, a
// status script) is not ours: init and uninstall used to remove it, since
// the name only had to contain anamnesis-inject and end a word ('-' and '.'
// end one). Ours stand alone: the path's last element, or the plugin's bare
// name, then the end, a quote, a space or .exe.
func TestUsersLookAlikeHooksAreNotOurs(t *testing.T) {
	for _, c := range []string{
		"~/bin/anamnesis-sync-status.sh",
		"/opt/tools/anamnesis-inject.py --dry-run",
		"my-anamnesis-capture --notify",
		"bash ~/hooks/anamnesis-recall-log.sh",
	} {
		if hook.IsAnamnesisCommand(c) {
			t.Errorf("the user's hook %q is taken for ours", c)
		}
	}
	for _, c := range []string{"anamnesis-capture", "anamnesis-sync --plugin", `C:\a b\anamnesis-recall.exe`, "'/x y/anamnesis-inject' --home '/h'", `"/x/anamnesis-sync" --background`} {
		if !hook.IsAnamnesisCommand(c) {
			t.Errorf("%q not recognised", c)
		}
	}
	settings := []byte(`{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "~/bin/anamnesis-capture-notify.sh"}]}]}}`)
	if _, removed, err := RemoveHooks(settings); err != nil || removed {
		t.Errorf("uninstall removes the user's hook (removed %v, %v)", removed, err)
	}
}

// The commands really run through a shell with odd paths: spaces, quotes,
// dollar signs.
func TestHookCommandsSurviveTheShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := filepath.Join(t.TempDir(), "it's a $HOME dir")
	binDir := filepath.Join(dir, "bin dir")
	home := filepath.Join(dir, "my `home`")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{BinInject, BinRecall, BinCapture, BinSync} {
		script := "#!/bin/sh\nprintf '%s|%s\\n' \"$(basename \"$0\")\" \"$*\"\n"
		if err := os.WriteFile(bin.Path(binDir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, eg := range BuildHooks(binDir, home, false) {
		for _, g := range eg.Groups {
			for _, h := range g.Hooks {
				out, err := exec.Command(sh, "-c", h.Command).CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", h.Command, err, out)
				}
				got = append(got, strings.TrimSpace(string(out)))
			}
		}
	}
	want := []string{
		"anamnesis-inject|--home " + home,
		"anamnesis-sync|--home " + home + " --background",
		"anamnesis-capture|--home " + home,
		"anamnesis-capture|--home " + home + " --source precompact --no-sync",
		"anamnesis-recall|--home " + home,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// Hook commands carry no shell syntax beyond quoting: --home instead of an
// inline ANAMNESIS_HOME=… prefix (PowerShell cannot run that), and plain
// paths unquoted.
func TestHookCommandsHaveNoEnvPrefix(t *testing.T) {
	groups := shellHooks("/opt/anamnesis/bin", "/srv/notes home", false)
	plain := shellHooks("/opt/anamnesis/bin", "/home/u/.anamnesis", true)
	for _, ev := range groups {
		for _, g := range ev.Groups {
			for _, h := range g.Hooks {
				if strings.Contains(h.Command, "=") || !strings.HasPrefix(h.Command, "/opt/anamnesis/bin/anamnesis-") || !strings.Contains(h.Command, " --home '/srv/notes home'") {
					t.Errorf("%s: %q", ev.Event, h.Command)
				}
			}
		}
	}
	if c := plain[0].Groups[0].Hooks[0].Command; c != "/opt/anamnesis/bin/anamnesis-inject" {
		t.Errorf("default home: %q", c)
	}
}
