package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/redact/redacttest"
)

// TestWriteRedactsCorpus: every secret shape given to anamnesis write (as
// --body and as stdin) is gone from the file, and stderr says so; every
// benign look-alike is stored as given without a word.
func TestWriteRedactsCorpus(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_MACHINE_ID", "corpus")
	write := func(body string, viaStdin bool) (string, string) {
		var out, errb bytes.Buffer
		args := []string{"write", "--home", home, "--type", "semantic", "--title", "t"}
		stdin := strings.NewReader(body)
		if !viaStdin {
			args = append(args, "--body", body)
		}
		if err := run(context.Background(), args, stdin, &out, &errb); err != nil {
			t.Fatalf("write: %v (%s)", err, errb.String())
		}
		id := strings.TrimSpace(out.String())
		data, err := os.ReadFile(filepath.Join(home, "memory", "semantic", id+".md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data), errb.String()
	}
	for _, c := range redacttest.Sample(redacttest.Secrets(t)) {
		for _, viaStdin := range []bool{false, true} {
			file, stderr := write(c.Text, viaStdin)
			if strings.Contains(file, c.Secret) || !strings.Contains(stderr, "write: redacted secrets (") {
				t.Errorf("%s (stdin %v): stderr %q, file:\n%s", c.Shape, viaStdin, stderr, file)
			}
		}
	}
	for _, b := range redacttest.Sample(redacttest.BenignTexts(t)) {
		file, stderr := write(b.Text, false)
		if !strings.HasSuffix(file, "\n"+b.Text+"\n") || stderr != "" {
			t.Errorf("benign %s altered: stderr %q, file:\n%s", b.Name, stderr, file)
		}
	}
}

// The reflection provider's base URL may carry credentials (a proxy in front
// of the model behind basic auth, a key in the query string): config get and
// config list mask them as they mask the sync remote's; the file keeps them.
func TestConfigMasksBaseURLCredentials(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("HOME", t.TempDir())
	const url = "https://llmuser:pw4proxy7Q@llm.example/v1?api-key=Zq8xT2mLr9vB4nK7wP3sYc5"
	if _, _, err := anamnesis(t, "config", "set", "reflection.base_url", url); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"config", "get", "reflection.base_url"}, {"config", "list"}, {"config", "list", "--json"}} {
		out, errOut, err := anamnesis(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if strings.Contains(out+errOut, "pw4proxy7Q") || strings.Contains(out+errOut, "Zq8xT2mLr9vB4nK7wP3sYc5") {
			t.Errorf("%v shows the base URL's credentials:\n%s%s", args, out, errOut)
		}
		if !strings.Contains(out, "llm.example/v1") {
			t.Errorf("%v does not show the base URL:\n%s", args, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(home, "config.json"))
	if err != nil || !strings.Contains(string(data), url) {
		t.Errorf("config.json lost the URL: %v\n%s", err, data)
	}
}

// A project key typed with spaces around it is the key (as MCP's
// memory_write and the dashboard take it): the note is in that project's
// list, not under a key no directory resolves to. One of spaces only is
// refused, nothing written.
func TestWriteTrimsTheProject(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_MACHINE_ID", "box")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"write", "--home", home, "--type", "semantic", "--title", "t", "--body", "b", "--project", " github.com/acme/api "}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("write: %v (%s)", err, errb.String())
	}
	id := strings.TrimSpace(out.String())
	out.Reset()
	if err := run(context.Background(), []string{"list", "--home", home, "--project", "github.com/acme/api"}, strings.NewReader(""), &out, &errb); err != nil || !strings.Contains(out.String(), id) {
		t.Fatalf("list of the project: %v %q, want note %s", err, out.String(), id)
	}
	// The same key pasted with its spaces into a filter is the key too:
	// list, search and block found nothing under ' github.com/acme/api '.
	for _, args := range [][]string{{"list"}, {"search", "t"}, {"block", "--k", "8"}} {
		out.Reset()
		args = append(args, "--home", home, "--project", " github.com/acme/api ")
		if err := run(context.Background(), args, strings.NewReader(""), &out, &errb); err != nil || !strings.Contains(out.String(), id) && !strings.Contains(out.String(), "## [semantic] t") {
			t.Errorf("%v: %v %q, want note %s", args, err, out.String(), id)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"write", "--home", home, "--type", "semantic", "--title", "t", "--body", "b", "--project", "  "}, strings.NewReader(""), &out, &errb); err == nil {
		t.Fatalf("a project of spaces was accepted: %q", out.String())
	}
	if files, _ := filepath.Glob(filepath.Join(home, "memory", "semantic", "*.md")); len(files) != 1 {
		t.Fatalf("files: %v, want the first note's only", files)
	}
}

// config get of a section (reflection, teams, one team) prints its keys
// masked as list does: printed whole, it showed the API key and a team URL's
// token as config.json holds them.
func TestConfigGetSectionMasks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("HOME", t.TempDir())
	const key, token = "sk-abcdefghijklmnopqrstuvwx1234", "Zq8xT2mLr9vB4nK7wP3sYc5"
	cfg := `{"reflection": {"provider": "local", "api_key": "` + key + `"}, "teams": {"acme": {"url": "https://oauth2:` + token + `@git.example/acme/memory.git"}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"config", "get", "reflection"}, {"config", "get", "reflection", "--json"}, {"config", "get", "teams"}, {"config", "get", "teams.acme", "--json"}} {
		out, errOut, err := anamnesis(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if strings.Contains(out+errOut, key) || strings.Contains(out+errOut, token) {
			t.Errorf("%v shows a secret:\n%s%s", args, out, errOut)
		}
		if !strings.Contains(out, "1234") && !strings.Contains(out, "git.example/acme") {
			t.Errorf("%v shows nothing of the section:\n%s", args, out)
		}
	}
	if out, _, err := anamnesis(t, "config", "get", "reflection.provider"); err != nil || out != "local\n" {
		t.Errorf("a key's value: %q %v", out, err)
	}
}

// config unset takes the keys config set takes: unset teams dropped every
// team's entry from config.json, leaving its clone and any unpushed notes
// behind (team remove refuses that), and unset reflection the section with
// its API key. Refused, config.json unchanged.
func TestConfigUnsetOnlyKnownKeys(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("HOME", t.TempDir())
	cfg := `{"reflection": {"provider": "local", "api_key": "sk-abcdefghijklmnopqrstuvwx1234"}, "teams": {"acme": {"url": "/srv/git/acme.git"}}}`
	path := filepath.Join(home, "config.json")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"teams", "teams.acme", "reflection", "nope"} {
		if _, errOut, err := anamnesis(t, "config", "unset", key); err == nil || !strings.Contains(errOut+err.Error(), "nothing changed") {
			t.Errorf("config unset %s: %v %s", key, err, errOut)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != cfg {
		t.Errorf("config.json changed:\n%s", data)
	}
	if _, _, err := anamnesis(t, "config", "unset", "reflection.provider"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "provider") || !strings.Contains(string(data), "acme") {
		t.Errorf("config unset reflection.provider:\n%s", data)
	}
}
