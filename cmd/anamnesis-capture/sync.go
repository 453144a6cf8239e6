package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
)

// syncWait bounds an inline (--wait) sync inside the hook's own timeout.
const syncWait = 45 * time.Second

// The sync's own limits sit inside syncWait, so it finishes (or gives up)
// by itself and is never killed half way; a detached sync may wait longer
// for a sync already running, so the new note is not skipped, and is a
// background sync (--detached: stages what the store recorded, logs stamped
// lines, packs git's loose objects once they have grown).
var (
	inlineSyncArgs   = []string{"--recorded", "--timeout", "30", "--lock-wait", "10"}
	detachedSyncArgs = []string{"--detached", "--lock-wait", "90"}
)

// commitLockWait is how long the local commit waits for another local git
// step (a sync's merge, another capture's commit) before leaving the note to
// the next sync.
const commitLockWait = 3 * time.Second

// sync starts anamnesis-sync for this home. By default it is detached (its
// own session, stdio to the hook log) and capture returns at once: Claude
// Code holds the user's terminal until SessionEnd hooks return, so an inline
// sync would make every exit wait on the network (SPEC 5). --wait runs it
// inline under a deadline. Either way the note is already committed locally.
func (c *capture) sync(ctx context.Context) {
	bin := bin.Find("anamnesis-sync")
	if bin == "" {
		c.say("capture: sync not started (anamnesis-sync not found); the note is committed locally for the next sync")
		return
	}
	env := append(os.Environ(), "ANAMNESIS_HOME="+c.cfg.Home)
	if c.o.wait {
		ctx, cancel := context.WithTimeout(ctx, syncWait)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, inlineSyncArgs...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" {
				c.say("%s", l)
			}
		}
		if err != nil {
			c.say("capture: sync did not complete (%v); the note is committed locally for the next sync", err)
		}
		return
	}
	pid, err := hook.StartDetached(c.cfg.Home, nil, bin, detachedSyncArgs...)
	if err != nil {
		c.say("capture: sync not started (%v); the note is committed locally for the next sync", err)
		return
	}
	c.say("capture: sync started in the background (pid %d)", pid)
}
