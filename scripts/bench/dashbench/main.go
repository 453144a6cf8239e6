// Command dashbench measures the dashboard's server time on a generated store:
// each page is requested through the real handler (every security check
// included) and timed from request to last byte written, as medians and p95.
//
//	go run ./scripts/bench/dashbench [-work DIR] [-n 100000]
//
// The store is WORK/store-N, shared with the other drivers (generated with
// gen_store.py, with its natural-language queries, when it was never made).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/dashboard"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-bench"), "where generated stores live (reused)")
	n := flag.Int("n", 100000, "notes in the generated store")
	reps := flag.Int("reps", 30, "requests per page kind")
	flag.Parse()
	home, queries, err := floor.Store(*work, *n)
	if err == nil {
		err = bench(home, queries, *reps)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dashbench:", err)
		os.Exit(1)
	}
}

func bench(home, queries string, reps int) error {
	ctx := context.Background()
	t0 := time.Now()
	st, err := store.Open(ctx, home)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Reindex(ctx, false); err != nil {
		return err
	}
	total, _ := st.Count(ctx, store.Filter{})
	fmt.Printf("store: %s, %d notes (open + incremental reindex %s)\n", home, total, time.Since(t0).Round(time.Millisecond))
	srv, err := dashboard.New(dashboard.Options{Store: st, Addr: "127.0.0.1:7077", MachineID: "bench"})
	if err != nil {
		return err
	}
	h := srv.Handler()
	qs := loadQueries(queries)
	if len(qs) == 0 {
		qs = []string{"how did the sqlite busy timeout lock", "what is the rebase conflict", "where do we deploy docker nginx"}
	}
	some, err := st.List(ctx, store.Filter{Limit: 1, Offset: total / 2})
	if err != nil || len(some) == 0 {
		return fmt.Errorf("no notes: %v", err)
	}
	mid := some[0]
	tag := "sqlite"
	// Deep pages are named by a cursor, as the Older link names them.
	cursorAt := func(pos int) string {
		ns, err := st.List(ctx, store.Filter{Limit: 1, Offset: pos - 1})
		if err != nil || len(ns) == 0 {
			return "/notes"
		}
		return "/notes?from=" + url.QueryEscape(ns[0].UpdatedAt+"|"+ns[0].ID) + fmt.Sprintf("&pos=%d", pos)
	}
	page1000, lastPage := cursorAt(999*50), cursorAt((total-1)/50*50)
	// The history page of the note with the most commits among the newest (any note will do).
	hist := mid.ID
	if h := os.Getenv("DASHBENCH_HISTORY_ID"); h != "" {
		hist = h
	}
	kinds := []struct {
		name string
		path func(i int) string
	}{
		{"browse, page 1", func(int) string { return "/notes" }},
		{"browse, page 1000", func(int) string { return page1000 }},
		{"browse, last page", func(int) string { return lastPage }},
		{"browse, project filter", func(int) string { return "/notes?project=" + url.QueryEscape(mid.Project) }},
		{"browse, type+tag filter", func(int) string { return "/notes?type=semantic&tag=" + tag }},
		{"search (generated queries)", func(i int) string { return "/notes?q=" + url.QueryEscape(qs[i%len(qs)]) }},
		{"search + project filter", func(i int) string {
			return "/notes?q=" + url.QueryEscape(qs[i%len(qs)]) + "&project=" + url.QueryEscape(mid.Project)
		}},
		{"search, 100 results", func(i int) string { return "/notes?k=100&q=" + url.QueryEscape(qs[i%len(qs)]) }},
		{"note page", func(int) string { return "/notes/" + mid.ID }},
		{"edit page", func(int) string { return "/notes/" + mid.ID + "/edit" }},
		{"note history", func(int) string { return "/notes/" + hist + "/history" }},
		{"fleet", func(int) string { return "/fleet" }},
		{"overview", func(int) string { return "/" }},
		{"change poll", func(int) string { return "/api/changes" }},
	}
	fmt.Printf("\n%-28s %9s %9s %9s  %s\n", "page", "p50", "p95", "max", "bytes")
	for _, k := range kinds {
		do(h, k.path(0)) // warm caches (facets, prepared statements, page cache)
		var ds []time.Duration
		size := 0
		for i := range reps {
			t := time.Now()
			w := do(h, k.path(i))
			ds = append(ds, time.Since(t))
			if w.Code != http.StatusOK {
				return fmt.Errorf("%s: %s: %d %.300s", k.name, k.path(i), w.Code, w.Body)
			}
			size = w.Body.Len()
		}
		slices.Sort(ds)
		fmt.Printf("%-28s %9s %9s %9s  %d\n", k.name, ms(ds[len(ds)/2]), ms(ds[len(ds)*95/100]), ms(ds[len(ds)-1]), size)
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func do(h http.Handler, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Host = "127.0.0.1:7077"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func loadQueries(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct{ Query string }
		if json.Unmarshal(sc.Bytes(), &q) == nil && q.Query != "" {
			out = append(out, q.Query)
		}
	}
	return out
}
