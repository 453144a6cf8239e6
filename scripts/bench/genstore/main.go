// Command genstore writes a synthetic store for the benchmarks, the Go port
// of gen_store.py (scripts/bench/floor.Gen says what it holds):
//
//	go run ./scripts/bench/genstore [-projects 20] [-queries FILE -nq 200] [-max-words 400] HOME N
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	g := floor.Gen{}
	flag.IntVar(&g.Projects, "projects", 20, "projects (plus about 2% global notes)")
	flag.StringVar(&g.Queries, "queries", "", "also write natural-language queries (JSONL) to this file")
	flag.IntVar(&g.NQ, "nq", 200, "how many queries")
	flag.IntVar(&g.MaxWords, "max-words", 400, "longest body in words")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: genstore [flags] HOME N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(flag.Arg(1))
	if err != nil || n <= 0 {
		fmt.Fprintln(os.Stderr, "genstore: N must be a positive number")
		os.Exit(2)
	}
	g.Home, g.N = flag.Arg(0), n
	if err := floor.Generate(g); err != nil {
		fmt.Fprintln(os.Stderr, "genstore:", err)
		os.Exit(1)
	}
}
