package main

import (
	"context"
	"errors"
)

// runImport is wired to the native-memory importer by the sync work (issue 4).
func runImport(ctx context.Context, e *env, args []string) error {
	return errors.New("import: not built yet")
}
