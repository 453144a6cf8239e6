// Package layout is the home's layout: where each kind of file lives under
// an Anamnesis home (~/.anamnesis) and the modes the home's files and
// directories are created with. Every surface asks it; nothing else spells a
// directory of the home.
//
//	<home>/memory/<type>/<id>.md   portable notes, the git repository sync shares
//	<home>/local/<type>/<id>.md    machine-local notes, never synced
//	<home>/teams/<name>/           team stores (SPEC 18), one git clone each
//	<home>/state/                  what must survive a restart: sessions, plans, journals
//	<home>/cache/                  derived data any process may rebuild (SessionStart blocks)
//	<home>/logs/                   the hooks' log, the injection trace, the last sync
//
// Files in the home's root keep their owners: config.json (pkg/config),
// index.db (pkg/store), the sync locks (pkg/gitsync).
package layout

import (
	"os"
	"path/filepath"
	"strings"
)

// The home is readable by its owner only (SPEC 17): every directory in it
// is created DirMode and every file FileMode, note files included, whoever
// writes them (the store, a sync's merge or conflict copy, a rollback).
const (
	DirMode  os.FileMode = 0o700
	FileMode os.FileMode = 0o600
)

// machineLocal is note.MachineLocal: this package links nothing, since the
// SessionStart hook, which must not link YAML, asks it (pkg/note does).
// Its test holds the two equal.
const machineLocal = "machine-local"

// Home is the root of one home, as given (callers pass it absolute).
type Home string

// Memory is the tree of portable notes and the memory git repository.
func (h Home) Memory() string { return filepath.Join(string(h), TreeName("")) }

// Local is the tree of machine-local notes.
func (h Home) Local() string { return filepath.Join(string(h), TreeName(machineLocal)) }

// TreeName is the name of scope's tree inside the home ("local" for
// note.MachineLocal, "memory" for everything else): the first element of
// the home-relative paths the index records (memory/<type>/<id>.md).
func TreeName(scope string) string {
	if scope == machineLocal {
		return "local"
	}
	return "memory"
}

// Initialized reports whether the home holds a note tree. A hook that finds
// none has nothing to show, and must not open the store, which would create
// the home as a side effect of a session or a prompt.
func (h Home) Initialized() bool {
	for _, t := range h.Trees() {
		if _, err := os.Stat(t); err == nil {
			return true
		}
	}
	return false
}

// Trees are the two note trees, portable first.
func (h Home) Trees() []string { return []string{h.Memory(), h.Local()} }

// Tree is the tree notes of scope live in: Local for note.MachineLocal,
// Memory for everything else.
func (h Home) Tree(scope string) string { return filepath.Join(string(h), TreeName(scope)) }

// Note is the file of note id of type typ in scope's tree. id and typ must
// already be valid (note.ValidID, note.Types): Note does not check them.
func (h Home) Note(scope, typ, id string) string {
	return filepath.Join(h.Tree(scope), filepath.FromSlash(NoteRel(typ, id)))
}

// NoteRel is a note's path inside its tree, with forward slashes
// (<type>/<id>.md), as git and the index record it.
func NoteRel(typ, id string) string { return typ + "/" + id + ".md" }

// State is <home>/state joined with elem.
func (h Home) State(elem ...string) string { return h.join("state", elem) }

// Cache is <home>/cache joined with elem.
func (h Home) Cache(elem ...string) string { return h.join("cache", elem) }

// Logs is <home>/logs joined with elem.
func (h Home) Logs(elem ...string) string { return h.join("logs", elem) }

// Teams is the directory of team stores.
func (h Home) Teams() string { return filepath.Join(string(h), "teams") }

// Team is team name's store. name must already be a valid team name: Team
// does not check it.
func (h Home) Team(name string) string { return filepath.Join(h.Teams(), name) }

func (h Home) join(dir string, elem []string) string {
	return filepath.Join(append([]string{string(h), dir}, elem...)...)
}

// WindowsDevice reports whether name is a device name on Windows: CON, PRN,
// AUX, NUL, COM1-9 or LPT1-9, in any case, alone or before an extension
// ("nul.json"). No file or directory of that name can be made there, and
// opening one opens the device. A name the home takes from outside (a team
// name, a session id) is checked on every system, so that it works on each
// of the person's machines.
func WindowsDevice(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToLower(strings.TrimRight(base, " "))
	switch base {
	case "con", "prn", "aux", "nul":
		return true
	}
	return len(base) == 4 && (strings.HasPrefix(base, "com") || strings.HasPrefix(base, "lpt")) && base[3] >= '1' && base[3] <= '9'
}

// MkdirAll creates dir and its parents with DirMode.
func MkdirAll(dir string) error { return os.MkdirAll(dir, DirMode) }
