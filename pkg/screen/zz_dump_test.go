package screen

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	name := os.Getenv("ZZSET")
	if name == "" {
		t.Skip()
	}
	for _, c := range corpus(t, name) {
		r := Check(c.Text)
		if c.Held && r == "" {
			fmt.Printf("MISS %s\n  %q\n", c.Name, c.Text)
		}
		if !c.Held && r != "" {
			fmt.Printf("HELD %s (%s)\n  %q\n", c.Name, r, c.Text)
		}
	}
}
