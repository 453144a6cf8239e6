package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

const schemaGolden = "testdata/schemas.golden.json"

// The output schemas, derived from the result types, whole: a change to a
// result type shows here as a diff (run with -update to accept it).
func TestOutputSchemasGolden(t *testing.T) {
	all := map[string]json.RawMessage{}
	for _, st := range (&app{}).tools() {
		tool := st.Tool
		if len(tool.RawOutputSchema) == 0 {
			t.Fatalf("%s has no output schema", tool.Name)
		}
		all[tool.Name] = tool.RawOutputSchema
	}
	got, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(schemaGolden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaGolden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output schemas differ from %s (run go test -run TestOutputSchemasGolden -update to accept):\n%s", schemaGolden, got)
	}
}
