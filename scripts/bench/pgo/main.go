// Command pgo writes the profile Go's profile-guided optimisation builds
// the search path with: default.pgo in cmd/anamnesis and
// cmd/anamnesis-recall, which `go build` (and go install, make, GoReleaser)
// picks up by itself. It profiles what those binaries spend their own time
// on, recall's word lookup and the search, over the generated 10k store's
// queries. PGO inlines and lays out the hot calls of that path (about 2% of
// `anamnesis search` as a process, measured against the same build without
// it); a profile that has gone stale as the code changes costs nothing but
// that gain. Run it with `make pgo` after changing the search.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-bench"), "where generated stores live (reused)")
	rounds := flag.Int("rounds", 20, "passes over the queries")
	flag.Parse()
	if err := run(*work, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "pgo:", err)
		os.Exit(1)
	}
}

func run(work string, rounds int) error {
	home, queries, err := floor.Store(work, 10000)
	if err != nil {
		return err
	}
	qs, err := floor.Queries(queries)
	if err != nil {
		return err
	}
	ctx := context.Background()
	s, err := store.OpenReader(ctx, home)
	if err != nil {
		return err
	}
	defer s.Close()
	out := filepath.Join(os.TempDir(), "anamnesis-default.pgo")
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	for range rounds {
		for _, q := range qs {
			if _, _, err := s.QueryTerms(ctx, q.Query); err != nil {
				return err
			}
			if _, err := s.Search(ctx, store.Query{Text: q.Query, Filter: store.Filter{Project: q.Project, AndGlobal: true}, K: 8}); err != nil {
				return err
			}
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		return err
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	os.Remove(out)
	for _, dir := range []string{"cmd/anamnesis", "cmd/anamnesis-recall"} {
		if err := os.WriteFile(filepath.Join(dir, "default.pgo"), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote default.pgo (%d bytes) into cmd/anamnesis and cmd/anamnesis-recall\n", len(data))
	return nil
}
