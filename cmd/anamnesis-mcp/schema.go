package main

import (
	"encoding/json"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"
)

// outputSchema is a tool's output schema: its result type T, the type every
// handler returns, as jsonschema-go describes it (json names; omitempty
// fields optional; descriptions from `jsonschema` tags), with the enums of
// the note fields whose values come from a closed set. The description is
// derived by the tests, which keep it in schemas_gen.go and fail when a
// result type and its schema drift apart (go test -run TestOutputSchemas
// -update writes it): derived at every start, it was a quarter of the
// server's start-up. Clients such as the TypeScript SDK validate structured
// content against these, the tests validate every result, and
// testdata/schemas.golden.json shows them whole.
func outputSchema[T any]() mcp.ToolOption {
	name := reflect.TypeFor[T]().String()
	s, ok := outputSchemas[name]
	if !ok {
		// A result type without a derived schema is a programming error
		// that every test of this package trips over at once.
		panic("no output schema for " + name + ": add it to schemaTypes in schema_test.go and run go test -run TestOutputSchemas -update")
	}
	return mcp.WithRawOutputSchema(json.RawMessage(s))
}
