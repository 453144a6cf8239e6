package floor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Store returns the generated store of n notes under work (WORK/store-N)
// and its queries file (WORK/store-N.queries.jsonl), generating both with
// Generate when the store was never made (a million notes take minutes). A
// store that exists but does not hold n notes, or has no queries, is an
// error to fix by hand (remove it to regenerate): timing a half-written store
// would report nonsense.
func Store(work string, n int) (home, queries string, err error) {
	home = filepath.Join(work, fmt.Sprintf("store-%d", n))
	queries = home + ".queries.jsonl"
	if _, err := os.Stat(home); os.IsNotExist(err) {
		fmt.Fprintf(os.Stderr, "generating a %d-note store in %s\n", n, home)
		if err := os.MkdirAll(work, 0o755); err != nil {
			return "", "", err
		}
		tmp := home + ".tmp"
		os.RemoveAll(tmp)
		if err := Generate(Gen{Home: tmp, N: n, Queries: queries + ".tmp", NQ: 200}); err != nil {
			return "", "", fmt.Errorf("generating the store: %w", err)
		}
		if err := os.Rename(queries+".tmp", queries); err != nil {
			return "", "", err
		}
		if err := os.Rename(tmp, home); err != nil {
			return "", "", err
		}
	}
	if _, err := os.Stat(queries); err != nil {
		return "", "", fmt.Errorf("generated store %s has no queries file %s; remove the store to regenerate it", home, queries)
	}
	got := 0
	filepath.WalkDir(filepath.Join(home, "memory"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			got++
		}
		return nil
	})
	if got != n {
		return "", "", fmt.Errorf("generated store %s holds %d notes, not %d; remove it to regenerate", home, got, n)
	}
	return home, queries, nil
}

// TeamName is the team of TeamStore's home.
const TeamName = "bench"

// TeamStore returns a home (WORK/team-store-N) holding two generated stores
// of n notes each: a personal one, as Store makes it, and the store of team
// TeamName (teams/bench, its notes drawn from another seed so no id is
// shared), joined in config.json (SPEC 18). It is made once and kept.
func TeamStore(work string, n int) (home string, err error) {
	home = filepath.Join(work, fmt.Sprintf("team-store-%d", n))
	if _, err := os.Stat(home); os.IsNotExist(err) {
		fmt.Fprintf(os.Stderr, "generating %d personal and %d team notes in %s\n", n, n, home)
		tmp, team := home+".tmp", home+".team.tmp"
		os.RemoveAll(tmp)
		os.RemoveAll(team)
		if err := Generate(Gen{Home: tmp, N: n}); err != nil {
			return "", err
		}
		if err := Generate(Gen{Home: team, N: n, Seed: 1807}); err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Join(tmp, "teams"), 0o755); err != nil {
			return "", err
		}
		if err := os.Rename(filepath.Join(team, "memory"), filepath.Join(tmp, "teams", TeamName)); err != nil {
			return "", err
		}
		os.RemoveAll(team)
		cfg := `{"teams": {"` + TeamName + `": {"url": "/nonexistent/bench-team.git"}}}` + "\n"
		if err := os.WriteFile(filepath.Join(tmp, "config.json"), []byte(cfg), 0o600); err != nil {
			return "", err
		}
		if err := os.Rename(tmp, home); err != nil {
			return "", err
		}
	}
	for _, tree := range []string{"memory", filepath.Join("teams", TeamName)} {
		got := 0
		filepath.WalkDir(filepath.Join(home, tree), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				got++
			}
			return nil
		})
		if got != n {
			return "", fmt.Errorf("generated store %s holds %d notes in %s, not %d; remove it to regenerate", home, got, tree, n)
		}
	}
	return home, nil
}

// Query is one line of a generated store's queries file.
type Query struct{ Query, Project string }

// Queries reads a queries file (see Store).
func Queries(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []Query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q Query
		if json.Unmarshal(sc.Bytes(), &q) == nil {
			qs = append(qs, q)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s holds no queries", path)
	}
	return qs, nil
}
