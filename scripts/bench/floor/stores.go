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
