package main

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// outputSchema derives a tool's output schema from its result type T (json
// names; omitempty fields optional; descriptions from `jsonschema` tags),
// the type every handler returns, so the two cannot drift apart. The note
// fields whose values come from a closed set get their enums. Clients such
// as the TypeScript SDK validate structured content against these, the tests
// validate every result, and testdata/schemas.golden.json shows them whole.
func outputSchema[T any]() mcp.ToolOption {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		// A result type the generator cannot describe is a programming
		// error that every test of this package trips over at once.
		panic(fmt.Sprintf("output schema of %T: %v", *new(T), err))
	}
	pinEnums(s)
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("output schema of %T: %v", *new(T), err))
	}
	return mcp.WithRawOutputSchema(raw)
}

// pinEnums sets the allowed values of a note's type, scope and provenance
// wherever a note object appears.
func pinEnums(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	p := s.Properties
	if p["id"] != nil && p["type"] != nil && p["scope"] != nil && p["prov_source"] != nil {
		p["type"].Enum = anys(note.Types)
		p["scope"].Enum = anys(note.Scopes)
		p["prov_source"].Enum = anys(note.ProvSources)
	}
	for _, c := range p {
		pinEnums(c)
	}
	pinEnums(s.Items)
}

func anys(v []string) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out
}
