package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
)

// shown is what a rendered block showed and the index watermark it was
// rendered at. It is kept beside the block cache so that a session served
// from the cache (which never opens the index) is recorded like one that
// rendered: while the cached block is current, nothing of the project was
// indexed since, so the watermark still marks what is news to recall.
type shown struct {
	IDs  []string `json:"ids"`
	Mark int64    `json:"mark"`
}

func shownPath(home, project string, k, budget int) string {
	sum := sha256.Sum256([]byte(project + "\x00" + strconv.Itoa(k) + "\x00" + strconv.Itoa(budget)))
	return filepath.Join(home, "state", "blocks", hex.EncodeToString(sum[:12])+".json")
}

// recordRendered records a freshly rendered block and keeps what it showed
// for the sessions the cached copy will serve.
func recordRendered(home string, p hook.Payload, project string, k, budget int, mark int64, ids []string, block string, log *hook.Logger) {
	if data, err := json.Marshal(shown{IDs: ids, Mark: mark}); err == nil {
		if err := atomicfile.WriteCache(shownPath(home, project, k, budget), data, 0o600); err != nil {
			log.Printf("saving what the block shows: %v", err)
		}
	}
	recordShown(home, p, project, mark, ids, block, log)
}

// recordCached records a block served from the cache.
func recordCached(home string, p hook.Payload, project string, k, budget int, block string, log *hook.Logger) {
	var sh shown
	data, err := os.ReadFile(shownPath(home, project, k, budget))
	if err == nil {
		err = json.Unmarshal(data, &sh)
	}
	if err != nil {
		// Unknown: recall may repeat a note of this block, and does not
		// look for notes a pull brings (no watermark).
		log.Printf("what the cached block shows is not recorded (%v)", err)
	}
	recordShown(home, p, project, sh.Mark, sh.IDs, block, log)
}

// recordShown tells per-prompt recall what the block put into the session's
// context (so recall never repeats it) and the index watermark it was
// rendered at (so the first prompt brings what a background pull indexed
// later), and appends the block to the injection trace. Best effort: a
// failure is logged and the block is printed anyway.
func recordShown(home string, p hook.Payload, project string, mark int64, ids []string, block string, log *hook.Logger) {
	if p.SessionID != "" {
		s, err := recall.LoadSession(home, p.SessionID)
		if err != nil {
			log.Printf("session %s state unreadable (%v); starting it afresh", p.SessionID, err)
		}
		if p.Source == "clear" || p.Source == "compact" {
			// The context was emptied: what recall showed before is gone too.
			s = recall.Session{}
		}
		s.Mark = mark
		s.Prompts = 0
		s.Add(ids...)
		if err := recall.SaveSession(home, p.SessionID, s); err != nil {
			log.Printf("saving session %s state: %v", p.SessionID, err)
		}
	}
	e := recall.Entry{Time: time.Now().UTC(), Hook: "inject", Session: p.SessionID, Project: project, IDs: ids, Chars: inject.Width(block)}
	if err := recall.Trace(home, e); err != nil {
		log.Printf("injection trace: %v", err)
	}
}
