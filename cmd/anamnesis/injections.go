package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/session"
)

// statusInjections is how many injection trace lines `status` shows.
const statusInjections = 5

// lastInjections returns the newest entries of the injection trace, oldest
// first (an unreadable trace shows as none: status reports, it never fails).
func lastInjections(home string, n int) []session.Entry {
	if all := session.LastTrace(home, n); all != nil {
		return all
	}
	return []session.Entry{}
}

// printInjections shows what the hooks last put into sessions and, for
// recall, which prompt words each note matched.
func printInjections(w io.Writer, entries []session.Entry) {
	if len(entries) == 0 {
		fmt.Fprintln(w, "injections: none yet")
		return
	}
	fmt.Fprintf(w, "injections (last %d):\n", len(entries))
	for _, e := range entries {
		sess := e.Session
		if len(sess) > 8 {
			sess = sess[:8]
		}
		fmt.Fprintf(w, "  %s %-6s session %-8s %s: %d %s, %d chars\n", e.Time.Local().Format(time.DateTime), e.Hook, sess, e.Project,
			len(e.IDs), map[bool]string{true: "note", false: "notes"}[len(e.IDs) == 1], e.Chars)
		for _, id := range e.IDs {
			why := ""
			switch {
			case len(e.Terms[id]) > 0:
				why = " (matched: " + strings.Join(e.Terms[id], ", ") + ")"
			case slices.Contains(e.Arrived, id):
				why = " (synced after session start)"
			}
			if why != "" {
				fmt.Fprintf(w, "    %s%s\n", id, why)
			}
		}
	}
}
