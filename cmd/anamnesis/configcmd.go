package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

// shown is a config value as printed: a URL's credentials masked, the sync
// remote's, a team's and the model provider's base URL (a proxy behind basic
// auth, a key in the query string); config.Display masks the API key.
func shown(key, value string) string {
	if key == "remote" || key == "reflection.base_url" || (strings.HasPrefix(key, "teams.") && strings.HasSuffix(key, ".url")) {
		return gitsync.MaskURL(value)
	}
	return value
}

// section is the set keys under a section's name, masked as list masks them;
// none for a key that is a value.
func section(f *config.File, name string) [][2]string {
	var out [][2]string
	for _, p := range f.List() {
		if strings.HasPrefix(p[0], name+".") {
			out = append(out, [2]string{p[0], shown(p[0], p[1])})
		}
	}
	return out
}

func runConfig(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "config")
	var c common
	c.register(fs, true)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.Usagef("usage: anamnesis config list|get KEY|set KEY VALUE|unset KEY|test")
	}
	if pos[0] == "test" {
		return configTest(ctx, e, c, pos[1:])
	}
	home := c.config(e).Home
	f, ferr := config.Load(home)
	verb, rest := pos[0], pos[1:]
	want := map[string]int{"list": 0, "get": 1, "set": 2, "unset": 1}
	n, ok := want[verb]
	if !ok {
		return cli.Usagef("unknown config verb %q (want list, get, set or unset)", verb)
	}
	if len(rest) != n {
		return cli.Usagef("config %s takes %d argument(s)", verb, n)
	}
	if ferr != nil && verb != "list" && verb != "get" {
		return fmt.Errorf("%v; fix or remove it first (nothing changed)", ferr)
	}
	switch verb {
	case "list":
		kv := f.List()
		for i := range kv {
			kv[i][1] = shown(kv[i][0], kv[i][1])
		}
		if c.json {
			// The set keys as before, and the unset keys' defaults under
			// "defaults" (no key has that name), as the text form marks them.
			m := map[string]any{}
			for _, p := range kv {
				m[p[0]] = p[1]
			}
			defaults := map[string]string{}
			for _, k := range config.Keys {
				if _, set := f.Get(k); !set {
					if v, ok := config.Default(k); ok {
						defaults[k] = v
					}
				}
			}
			m["defaults"] = defaults
			return printJSON(e.stdout, m)
		}
		if ferr != nil {
			fmt.Fprintf(e.stderr, "warning: %v (read as empty)\n", ferr)
		}
		for _, p := range kv {
			fmt.Fprintf(e.stdout, "%s=%s\n", p[0], p[1])
		}
		// Then what the unset keys are, marked: what a reader of the list
		// needs to know what this machine runs with.
		for _, k := range config.Keys {
			if _, set := f.Get(k); set {
				continue
			}
			if v, ok := config.Default(k); ok {
				fmt.Fprintf(e.stdout, "%s=%s (default)\n", k, v)
			}
		}
	case "get":
		// A section (reflection, teams, a team) is its keys, each shown as
		// list shows it: printed whole, it would carry the API key and a
		// URL's credentials unmasked.
		if leaves := section(f, rest[0]); len(leaves) > 0 {
			if c.json {
				m := map[string]string{}
				for _, p := range leaves {
					m[p[0]] = p[1]
				}
				return printJSON(e.stdout, m)
			}
			for _, p := range leaves {
				fmt.Fprintf(e.stdout, "%s=%s\n", p[0], p[1])
			}
			return nil
		}
		v, ok := f.Get(rest[0])
		if !ok {
			// An unset key with a default prints it (exit 0), and says on
			// stderr that it is the default.
			if d, has := config.Default(rest[0]); has {
				fmt.Fprintf(e.stderr, "config: %s is not set in %s; this is the default\n", rest[0], config.Path(home))
				if c.json {
					return printJSON(e.stdout, map[string]string{rest[0]: d})
				}
				fmt.Fprintln(e.stdout, d)
				return nil
			}
			// Exit 1 as git config does, but say why.
			if !slices.Contains(config.Keys, rest[0]) {
				return fmt.Errorf("config: unknown key %q (known: %s)", rest[0], strings.Join(config.Keys, ", "))
			}
			return fmt.Errorf("config: %s is not set in %s", rest[0], config.Path(home))
		}
		v = shown(rest[0], config.Display(rest[0], v))
		if c.json {
			return printJSON(e.stdout, map[string]string{rest[0]: v})
		}
		fmt.Fprintln(e.stdout, v)
	case "set":
		if err := f.Set(rest[0], rest[1]); err != nil {
			return cli.Usagef("%v", err)
		}
		return f.Save()
	case "unset":
		// Only a key set can set: unset teams dropped every team's entry
		// (its clone and unpushed notes left behind, which team remove
		// refuses), unset reflection the whole section.
		if !slices.Contains(config.Keys, rest[0]) {
			if rest[0] == "teams" || strings.HasPrefix(rest[0], "teams.") {
				return cli.Usagef("teams are left with anamnesis team remove NAME (it refuses while notes are unpushed); nothing changed")
			}
			return cli.Usagef("unknown key %q (known: %s); nothing changed", rest[0], strings.Join(config.Keys, ", "))
		}
		if !f.Unset(rest[0]) {
			return nil // already unset
		}
		return f.Save()
	}
	return nil
}
