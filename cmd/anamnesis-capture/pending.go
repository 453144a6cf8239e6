package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// A capture the hook hands off stays on record in <home>/state/captures
// until its child is done with it: a child the machine stops before it
// wrote the note (a shutdown right after the session ended) loses no
// session, since the child of a later capture starts it again. Capturing a
// session twice is harmless: its note is updated in place.

// resumeAfter is how old a record must be before another child starts its
// capture again: a child writes its note within seconds, and the hook's own
// deadline is 55 s.
const resumeAfter = time.Minute

// maxTries bounds the starts of one capture: a transcript that stops every
// child it is given is left alone after that.
const maxTries = 3

// pending is a handed-off capture: the child's arguments and stdin.
type pending struct {
	Transcript string   `json:"transcript"`
	Args       []string `json:"args"`
	Input      string   `json:"input"`
	Tries      int      `json:"tries"` // starts so far
}

// pendingPath is the record of the capture by source of transcript (an
// absolute path): the PreCompact and SessionEnd captures of one session
// are two.
func pendingPath(home, source, transcript string) string {
	h := sha256.Sum256([]byte(source + "\x00" + transcript))
	return layout.Home(home).State("captures", hex.EncodeToString(h[:8])+".json")
}

// writePending writes the record without a sync: SessionEnd holds the
// user's terminal, an fsync costs milliseconds on a virtual disk, and the
// stops it guards against (a shutdown, a killed process) leave the page
// cache to be written; a power cut may lose the record with the child.
func writePending(path string, p pending) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := layout.MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return atomicfile.WriteCache(path, data, layout.FileMode)
}

// resume starts again, detached, the captures handed off at least
// resumeAfter ago whose child never finished, but this one's (own); a
// capture whose transcript is gone or that was started maxTries times is
// dropped.
func (c *capture) resume(own string) {
	dir := layout.Home(c.cfg.Home).State("captures")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	self := bin.Find("anamnesis-capture")
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if path == own || !strings.HasSuffix(e.Name(), ".json") || err != nil || time.Since(info.ModTime()) < resumeAfter {
			continue
		}
		var p pending
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &p)
		}
		if _, serr := os.Stat(p.Transcript); err != nil || serr != nil || p.Tries >= maxTries || self == "" {
			if self != "" {
				c.log.Printf("capture: dropped the unfinished capture of %s (started %d times; transcript: %v; record: %v)", p.Transcript, p.Tries, serr, err)
				os.Remove(path)
			}
			continue
		}
		p.Tries++
		if err := writePending(path, p); err != nil {
			c.log.Printf("capture: the unfinished capture of %s was not started again (%v)", p.Transcript, err)
			continue
		}
		if pid, err := hook.StartDetached(c.cfg.Home, []byte(p.Input), self, p.Args...); err != nil {
			c.log.Printf("capture: the unfinished capture of %s was not started again (%v)", p.Transcript, err)
		} else {
			c.log.Printf("capture: started the unfinished capture of %s again (pid %d, start %d of %d)", p.Transcript, pid, p.Tries, maxTries)
		}
	}
}
