//go:build unix

package store

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where a note should be is refused at once: opening it to read
// would wait for a writer that never comes.
func TestReadRegularFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := readRegular(fifo); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, errNotRegular) {
			t.Errorf("FIFO: %v, want errNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("readRegular waited on a FIFO")
	}
}
