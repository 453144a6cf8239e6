package redact

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// All redacts each of texts as Redact does, on every CPU (a long session's
// prompts and outcomes are megabytes, and capture holds the user's
// terminal), and returns them in order with the kinds removed from all.
func All(texts []string) ([]string, []string) {
	out := make([]string, len(texts))
	kinds := make([][]string, len(texts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(texts)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(texts); i = int(next.Add(1)) - 1 {
				out[i], kinds[i] = Redact(texts[i])
			}
		}()
	}
	wg.Wait()
	return out, slices.Concat(kinds...)
}
