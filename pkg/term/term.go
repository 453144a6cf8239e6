// Package term answers the one question every surface asks of its stdin:
// is a person typing at it?
package term

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// IsTerminal reports whether r is an interactive terminal. A character
// device is not enough: /dev/null is one too, and a command run with
// </dev/null (cron, CI, install.sh piped into sh) must neither wait for
// answers nor take the empty input for one.
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}
