package screen

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Lines: "H text" must hold, "O text" must pass.
func TestZZTry(t *testing.T) {
	f := os.Getenv("ZZTRY")
	if f == "" {
		t.Skip()
	}
	fh, _ := os.Open(f)
	sc := bufio.NewScanner(fh)
	bad := 0
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 3 || line[0] == '#' {
			continue
		}
		want, l := line[0], strings.ReplaceAll(line[2:], `\n`, "\n")
		r := Check(l)
		mark := "  "
		if (r != "") != (want == 'H') {
			mark = "XX"
			bad++
		}
		fmt.Printf("%s %c %-12q %.130s\n", mark, want, r, line[2:])
	}
	fmt.Println("bad", bad)
}
