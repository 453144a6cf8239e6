package recall

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func TestZZProf(t *testing.T) {
	home := os.Getenv("PROF_HOME")
	if home == "" {
		t.Skip()
	}
	ctx := context.Background()
	st0, _ := store.OpenReader(ctx, home)
	ns, _ := st0.List(ctx, store.Filter{Project: "github.com/acme/proj03", Type: "procedural", Limit: 20})
	prompt := "how did we handle the " + ns[len(ns)-1].Title + "?"
	t.Log(prompt)
	var total time.Duration
	for i := 0; i < 100; i++ {
		t0 := time.Now()
		st, err := store.OpenReader(ctx, home)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Find(ctx, st, prompt, "github.com/acme/proj03", DefaultFloor, nil)
		if err != nil || len(cs) == 0 {
			t.Fatal(err, len(cs))
		}
		total += time.Since(t0)
	}
	t.Logf("mean %v", total/100)
}
