package layout

import (
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestTrees(t *testing.T) {
	if machineLocal != note.MachineLocal {
		t.Fatalf("machineLocal %q, note.MachineLocal %q", machineLocal, note.MachineLocal)
	}
	h := Home(filepath.FromSlash("/h"))
	for _, c := range []struct{ got, want string }{
		{h.Tree(note.Portable), "/h/memory"},
		{h.Tree(note.MachineLocal), "/h/local"},
		{h.Tree(""), "/h/memory"},
		{h.Note(note.MachineLocal, note.Semantic, "01ABC"), "/h/local/semantic/01ABC.md"},
		{h.Note(note.Portable, note.Episodic, "x"), "/h/memory/episodic/x.md"},
		{h.State("sessions", "s.json"), "/h/state/sessions/s.json"},
		{h.Cache(), "/h/cache"},
		{h.Logs("anamnesis.log"), "/h/logs/anamnesis.log"},
		{h.Team("acme"), "/h/teams/acme"},
	} {
		if c.got != filepath.FromSlash(c.want) {
			t.Errorf("got %s, want %s", c.got, filepath.FromSlash(c.want))
		}
	}
	if got := NoteRel(note.Procedural, "a"); got != "procedural/a.md" {
		t.Errorf("NoteRel = %s", got)
	}
}

func TestWindowsDevice(t *testing.T) {
	for name, want := range map[string]bool{
		"con": true, "CON": true, "Nul.json": true, "aux.team": true, "prn": true, "com1": true, "LPT9.x": true, "con .txt": true,
		"con-team": false, "com10": false, "lpt0": false, "nulls": false, "console": false, "": false, "a.con": false,
	} {
		if got := WindowsDevice(name); got != want {
			t.Errorf("WindowsDevice(%q) = %v, want %v", name, got, want)
		}
	}
}
