//go:build unix

package input

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestOpenRefusesWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(dir, "f")
	os.WriteFile(reg, []byte("hello"), 0o600)
	for _, p := range []string{fifo, dir, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(p, 10); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: %v", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: blocked", p)
		}
	}
	if data, err := ReadFile(reg, 5); err != nil || string(data) != "hello" {
		t.Fatalf("regular: %q %v", data, err)
	}
	if _, err := ReadFile(reg, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over limit: %v", err)
	}
}
