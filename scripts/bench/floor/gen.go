package floor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Gen describes a synthetic store, the Go port of gen_store.py (same
// distribution and note shape; not the same bytes, Python's generator is
// not reproduced): a 30,000-word pseudo-vocabulary drawn with a Zipf law
// (s = 1.07), English function words at about 40% of tokens, a few hundred
// technical terms, titles of 3-8 words, bodies of 40-MaxWords words, Projects
// projects plus about 2% global notes, the three types, 0-3 tags, ULID ids
// with increasing time, deterministic (seed 42). With Queries, also NQ
// natural-language queries (JSONL {"query", "project"}), each naming words of
// one existing note.
type Gen struct {
	Home     string
	N        int
	Projects int
	MaxWords int
	Queries  string
	NQ       int
	// Seed, when set, draws the notes (ids, types, projects, words) from
	// another sequence over the same vocabulary: a second store (a team's)
	// whose ids do not collide with the first's.
	Seed uint64
}

const (
	genAlph = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	genStop = "the of and to a in is that for it as with was on be by this are or from at an but not " +
		"have has had we you they he she will would can could should how what when where which who " +
		"why do does did if then so than there their them its our your my me i"
	genTech = "sqlite wal busy timeout lock connection index markdown frontmatter yaml git rebase push pull " +
		"remote conflict merge branch commit hook session inject capture transcript episodic semantic " +
		"procedural project global scope portable machine tailscale dashboard grid tailwind css react " +
		"server client tool search bm25 token query recall ranking recency confidence reflect summary " +
		"provider model retry error panic goroutine mutex context deadline build test race lint " +
		"module docker deploy nginx postgres redis cache queue worker cron migrate schema column table " +
		"endpoint route handler middleware auth secret config env flag path"
)

// Generate writes the store g describes (memory/<type>/<id>.md and an empty
// local/) and its queries file.
func Generate(g Gen) error {
	if g.Projects <= 0 {
		g.Projects = 20
	}
	if g.MaxWords <= 0 {
		g.MaxWords = 400
	}
	if g.NQ <= 0 {
		g.NQ = 200
	}
	rng := rand.New(rand.NewPCG(42, 42))
	stop, tech := strings.Fields(genStop), strings.Fields(genTech)
	var syl []string
	for _, c := range "bcdfghjklmnprstvwz" {
		for _, v := range "aeiou" {
			syl = append(syl, string(c)+string(v))
		}
	}
	for _, v := range "aeiou" {
		for _, c := range "nrstl" {
			syl = append(syl, string(v)+string(c))
		}
	}
	var vocab []string
	seen := map[string]bool{}
	for len(vocab) < 30000 {
		var b strings.Builder
		for range []int{2, 2, 3, 3, 4}[rng.IntN(5)] {
			b.WriteString(syl[rng.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	vocab = append(vocab, tech...)
	cdf := make([]float64, len(vocab))
	tot := 0.0
	for i := range vocab {
		tot += 1 / math.Pow(float64(i+1), 1.07)
		cdf[i] = tot
	}
	word := func() string {
		if rng.Float64() < 0.40 {
			return stop[rng.IntN(len(stop))]
		}
		return vocab[min(sort.SearchFloat64s(cdf, rng.Float64()*tot), len(vocab)-1)]
	}
	if g.Seed != 0 {
		rng = rand.New(rand.NewPCG(g.Seed, g.Seed))
	}
	// The notes queries are drawn from are chosen up front (uniformly, as
	// gen_store.py does after the fact), so a million bodies are never held.
	qrng := rand.New(rand.NewPCG(7, 7))
	picked := map[int]int{} // note index -> how many queries name it
	if g.Queries != "" {
		for range g.NQ {
			picked[qrng.IntN(g.N)]++
		}
	}
	type kept struct{ proj, title, body string }
	var keep []kept
	types := []string{"procedural", "semantic", "episodic"}
	for _, t := range types {
		if err := os.MkdirAll(filepath.Join(g.Home, "memory", t), 0o755); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(g.Home, "local"), 0o755); err != nil {
		return err
	}
	type file struct {
		path string
		data []byte
	}
	files := make(chan file, 256)
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range files {
				if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	var b strings.Builder
	for i := range g.N {
		ms := uint64(1_750_000_000_000 + int64(i)*60_000)
		r80hi, r80lo := rng.Uint64()&0xffff, rng.Uint64()
		hi, lo := ms<<16|r80hi, r80lo
		id := make([]byte, 26)
		for k := 0; k < 26; k++ {
			p := uint(5 * (25 - k))
			var v uint64
			switch {
			case p >= 64:
				v = hi >> (p - 64)
			case p+5 <= 64:
				v = lo >> p
			default:
				v = lo>>p | hi<<(64-p)
			}
			id[k] = genAlph[v&31]
		}
		var typ string
		switch x := rng.IntN(10); {
		case x < 3:
			typ = types[0]
		case x < 7:
			typ = types[1]
		default:
			typ = types[2]
		}
		proj := fmt.Sprintf("github.com/acme/proj%02d", rng.IntN(g.Projects))
		if rng.Float64() < 0.02 {
			proj = "global"
		}
		tw := make([]string, 3+rng.IntN(6))
		for j := range tw {
			tw[j] = word()
		}
		title := strings.Join(tw, " ")
		title = strings.ToUpper(title[:1]) + strings.ToLower(title[1:])
		bw := make([]string, min(40, g.MaxWords)+rng.IntN(g.MaxWords-min(40, g.MaxWords)+1))
		for j := range bw {
			bw[j] = word()
		}
		body := strings.Join(bw, " ")
		ts := fmt.Sprintf("2026-%02d-%02dT%02d:%02d:00+00:00", 1+(i/40000)%12, 1+(i/1400)%28, (i/60)%24, i%60)
		perm := rng.Perm(len(tech))[:rng.IntN(4)]
		b.Reset()
		fmt.Fprintf(&b, "---\nid: %s\ntype: %s\ntitle: %s\nproject: %s\nmachine_id: synth\nscope: portable\nprov_source: human\nconfidence: 1.0\ncreated_at: '%s'\nupdated_at: '%s'\n",
			id, typ, title, proj, ts, ts)
		if len(perm) == 0 {
			b.WriteString("tags: []\n")
		} else {
			b.WriteString("tags:\n")
			for _, t := range perm {
				b.WriteString("- " + tech[t] + "\n")
			}
		}
		b.WriteString("---\n" + body + "\n")
		select {
		case err := <-errs:
			close(files)
			wg.Wait()
			return err
		case files <- file{filepath.Join(g.Home, "memory", typ, string(id)+".md"), []byte(b.String())}:
		}
		for range picked[i] {
			keep = append(keep, kept{proj, title, body})
		}
	}
	close(files)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	if g.Queries == "" {
		return nil
	}
	isStop := map[string]bool{}
	for _, w := range stop {
		isStop[w] = true
	}
	qrng.Shuffle(len(keep), func(i, j int) { keep[i], keep[j] = keep[j], keep[i] })
	f, err := os.Create(g.Queries)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, k := range keep {
		var content []string
		for _, x := range strings.Fields(strings.ToLower(k.title) + " " + k.body) {
			if !isStop[x] {
				content = append(content, x)
			}
		}
		n := min(len(content), 2+qrng.IntN(3))
		var picks []string
		for _, j := range qrng.Perm(len(content))[:n] {
			picks = append(picks, content[j])
		}
		q := strings.Join(append([]string{
			[]string{"how", "what", "why", "where"}[qrng.IntN(4)],
			[]string{"do", "did", "is"}[qrng.IntN(3)], "the"}, picks...), " ")
		line, _ := json.Marshal(map[string]string{"query": q, "project": k.proj})
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
