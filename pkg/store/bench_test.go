package store

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
)

// Benchmarks over a generated store: ANAMNESIS_BENCH_STORE=DIR (made by
// gen_store.py) and optionally ANAMNESIS_BENCH_QUERIES=FILE. scripts/bench runs them.
func benchStore(b *testing.B) *Store {
	dir := os.Getenv("ANAMNESIS_BENCH_STORE")
	if dir == "" {
		b.Skip("ANAMNESIS_BENCH_STORE not set")
	}
	s, err := Open(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func BenchmarkReindexFull(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		if _, err := s.Reindex(context.Background(), true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReindexNoChange(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		if _, err := s.Reindex(context.Background(), false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch times our ranking and, for comparison on the same
// machine at the same moment, the reference-compatible one.
func BenchmarkSearch(b *testing.B) {
	b.Run("ours", func(b *testing.B) { benchSearch(b, false) })
	b.Run("seed", func(b *testing.B) { benchSearch(b, true) })
}

func benchSearch(b *testing.B, seed bool) {
	s := benchStore(b)
	s.seedMode(seed, 3)
	f, err := os.Open(os.Getenv("ANAMNESIS_BENCH_QUERIES"))
	if err != nil {
		b.Skip("ANAMNESIS_BENCH_QUERIES not set")
	}
	defer f.Close()
	type q struct{ Query, Project string }
	var qs []q
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var x q
		json.Unmarshal(sc.Bytes(), &x)
		qs = append(qs, x)
	}
	i := 0
	var times []time.Duration
	for b.Loop() {
		x := qs[i%len(qs)]
		i++
		t0 := time.Now()
		if _, err := searchNotes(s, context.Background(), x.Query, Filter{Project: x.Project}, 8); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
}
