package store

import (
	"context"
	"strings"
	"testing"
)

// CountInjectable must not visit every note of a project: its plan may
// search memories by key but never scan it or walk a project's rows for
// the superseded and reflected terms.
func TestCountInjectablePlan(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all := queryPlan(t, st, countInjectable, []any{"global"})
	t.Log(all)
	if strings.Contains(all, "SCAN m") || strings.Contains(all, "SCAN memories") || strings.Contains(all, "SCAN t ") {
		t.Fatalf("plan scans a table:\n%s", all)
	}
	if !strings.Contains(all, "idx_tags_tag") {
		t.Fatalf("plan does not use the tag index:\n%s", all)
	}
	if n := strings.Count(all, "idx_mem_scope") + strings.Count(all, "idx_mem_project_recency"); n != 1 {
		t.Fatalf("want exactly one range over a project's notes (the total), have %d:\n%s", n, all)
	}
}
