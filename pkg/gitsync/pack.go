package gitsync

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// Loose objects past either bound are packed by Pack. Each commit writes a
// new tree object for every type directory it changed, listing every note
// of that type (the seed's flat layout), which git keeps whole, one loose
// file per commit, until a pack stores the versions as deltas of each
// other. The syncs disable git's own automatic gc (it would run inside a
// person's sync), so without Pack nothing ever packs them (docs/SYNC.md
// gives the sizes).
const (
	packLooseBytes = 64 << 20
	packLooseCount = 2000
)

// Pack packs the loose objects of the personal repository and of each team
// store o names that are past the bounds above, and returns a line for the
// log per repository it packed. Packing can take minutes (a first pack of
// a large store imported whole), so only the background sync calls it,
// after Sync has released the home's lock: git
// lets other processes commit, fetch and merge while it repacks. A failure
// changes nothing (the objects stay loose) and is the line's subject.
func Pack(ctx context.Context, o Options) []string {
	// A first pack of a million notes outlasts the next session's sync,
	// which would start a second one of the same objects: one at a time,
	// and a sync that finds another packing leaves it to that one.
	lk, err := acquire(ctx, PackLockPath(o.Home), 0)
	if err != nil {
		return nil
	}
	defer lk.release()
	home := layout.Home(o.Home)
	dirs := []string{home.Memory()}
	for _, t := range stillJoined(o.Home, o.Teams) {
		if config.ValidTeamName(t.Name) {
			dirs = append(dirs, home.Team(t.Name))
		}
	}
	var lines []string
	for _, dir := range dirs {
		if !exists(filepath.Join(dir, ".git")) {
			continue
		}
		if line := packLoose(ctx, &git{dir: dir, machine: o.MachineID}, packLooseCount, packLooseBytes); line != "" {
			lines = append(lines, fmt.Sprintf("pack %s: %s", dir, line))
		}
	}
	return lines
}

// packLoose packs g's loose objects when there are at least maxCount of
// them or maxBytes on disk, and says what it did ("" when nothing was due).
// A geometric repack (git 2.32 and later) also merges the small packs
// earlier runs made, so their number stays logarithmic and successive
// versions of a tree end up in one pack; an older git packs the loose
// objects alone.
func packLoose(ctx context.Context, g *git, maxCount int, maxBytes int64) string {
	out, err := g.run(ctx, "count-objects", "-v")
	if err != nil {
		return "counting objects: " + err.Error()
	}
	count, bytes := looseObjects(out)
	if count < maxCount && bytes < maxBytes {
		return ""
	}
	t0 := time.Now()
	// One thread: the person works on beside it.
	if _, err := g.run(ctx, "-c", "pack.threads=1", "repack", "--geometric=2", "-d", "-l", "-q"); err != nil {
		if _, err := g.run(ctx, "-c", "pack.threads=1", "repack", "-d", "-l", "-q"); err != nil {
			return fmt.Sprintf("%d loose objects (%d MiB) left loose: %v", count, bytes>>20, err)
		}
	}
	return fmt.Sprintf("packed %d loose objects (%d MiB) in %s", count, bytes>>20, time.Since(t0).Round(time.Millisecond))
}

// looseObjects reads git count-objects -v: how many loose objects there are
// and their size on disk in bytes.
func looseObjects(out string) (count int, bytes int64) {
	for _, l := range strings.Split(out, "\n") {
		k, v, _ := strings.Cut(l, ": ")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "count":
			count = int(n)
		case "size":
			bytes = n << 10
		}
	}
	return count, bytes
}
