package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"io"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
)

// Claude Code's settings.json belongs to the user: besides our hook groups
// it holds permissions, env, other tools' hooks, and keys from versions we do
// not know. We therefore never decode it into Go types and re-encode it;
// we split it into ordered members with their raw bytes, touch only the
// hook groups we own, and re-indent with two spaces (what Claude Code itself
// writes), so everything else comes back byte for byte.

// member is one key of a JSON object, in file order.
type member struct {
	key []byte          // the raw key token, quotes and escapes as written
	val json.RawMessage // the raw value
}

// object is a JSON object as an ordered list of members (duplicates kept).
type object []member

func (o object) index(name string) int {
	for i, m := range o {
		var k string
		if json.Unmarshal(m.key, &k) == nil && k == name {
			return i
		}
	}
	return -1
}

// parseObject splits a JSON object into its members. It fails if raw is not
// exactly one JSON object.
func parseObject(raw []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var obj object
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if _, ok := tok.(string); !ok {
			return nil, errors.New("object key is not a string")
		}
		key := bytes.Trim(raw[start:dec.InputOffset()], " \t\r\n,:")
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		obj = append(obj, member{key: append([]byte(nil), key...), val: val})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level object")
	}
	return obj, nil
}

// parseArray splits a JSON array into its raw elements.
func parseArray(raw []byte) ([]json.RawMessage, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, err
	}
	return elems, nil
}

// compact renders an object without indentation; indentation is applied once
// over the whole document at the end.
func (o object) compact() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.key)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func compactArray(elems []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func keyBytes(name string) []byte {
	b, _ := marshalNoEscape(name)
	return b
}

// marshalNoEscape is json.Marshal without HTML escaping: hook commands
// routinely contain '&' and '>' and must read back exactly as written.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// HookCommand is one hook entry of a matcher group, in Claude Code's shape.
type HookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	// Args makes the hook exec form (no shell): init writes it on Windows.
	Args    []string `json:"args,omitempty"`
	Timeout int      `json:"timeout,omitempty"`
	Async   bool     `json:"async,omitempty"`
}

// HookGroup is one matcher group of a hook event.
type HookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// EventGroups is the set of groups Anamnesis installs, per event, in the order
// the events are added to a file that lacks them.
type EventGroups []struct {
	Event  string
	Groups []HookGroup
}

// SettingsError says why a settings.json cannot be edited safely.
type SettingsError struct{ Reason string }

func (e *SettingsError) Error() string { return e.Reason }

func settingsErrorf(format string, a ...any) error {
	return &SettingsError{Reason: fmt.Sprintf(format, a...)}
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// document is a parsed settings.json plus what is needed to write it back in
// the same outer form.
type document struct {
	bom     bool
	newline bool // ends with a newline
	top     object
}

func parseSettings(data []byte) (*document, error) {
	d := &document{newline: true}
	if bytes.HasPrefix(data, utf8BOM) {
		d.bom = true
		data = data[len(utf8BOM):]
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// An empty file holds no settings; Claude Code treats it as {}.
		return d, nil
	}
	d.newline = bytes.HasSuffix(data, []byte("\n"))
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, settingsErrorf("not valid JSON (%v)", err)
	}
	top, err := parseObject(data)
	if err != nil {
		return nil, settingsErrorf("the top level is not a JSON object")
	}
	d.top = top
	if i := d.top.index("hooks"); i >= 0 {
		hooks, err := parseObject(d.top[i].val)
		if err != nil {
			return nil, settingsErrorf(`"hooks" is not a JSON object`)
		}
		for _, ev := range hooks {
			if _, err := parseArray(ev.val); err != nil {
				return nil, settingsErrorf(`"hooks".%s is not a JSON array`, ev.key)
			}
		}
	}
	return d, nil
}

func (d *document) bytes() []byte {
	var out bytes.Buffer
	if d.bom {
		out.Write(utf8BOM)
	}
	if err := json.Indent(&out, d.top.compact(), "", "  "); err != nil {
		// Every piece came from a validated document or from our own
		// marshalling; failing here is a bug, not bad input.
		panic("setup: re-indenting settings: " + err.Error())
	}
	if d.newline {
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// stripGroup removes Anamnesis hook entries from one matcher group. It
// returns the group's new raw value (nil when nothing of it is left) and
// whether it contained any Anamnesis hook. Groups it does not understand are
// left alone.
func stripGroup(raw json.RawMessage) (json.RawMessage, bool) {
	g, err := parseObject(raw)
	if err != nil {
		return raw, false
	}
	hi := g.index("hooks")
	if hi < 0 {
		return raw, false
	}
	entries, err := parseArray(g[hi].val)
	if err != nil {
		return raw, false
	}
	var kept []json.RawMessage
	found := false
	for _, e := range entries {
		var h struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(e, &h) == nil && hook.IsAnamnesisCommand(h.Command) {
			found = true
			continue
		}
		kept = append(kept, e)
	}
	if !found {
		return raw, false
	}
	if len(kept) == 0 {
		return nil, true
	}
	g[hi].val = compactArray(kept)
	return g.compact(), true
}

// editHooks removes every Anamnesis hook from d and, when add is non-nil,
// puts add's groups where the first removed ones were (else at the end of the
// event's list), so re-running init leaves the file byte-identical. Event
// lists and the hooks object that become empty only because of the removal
// are dropped. It reports whether anything was removed.
func (d *document) editHooks(add EventGroups) (removed bool, err error) {
	hi := d.top.index("hooks")
	var hooks object
	if hi >= 0 {
		hooks, _ = parseObject(d.top[hi].val) // validated by parseSettings
	}
	fresh := map[string][]json.RawMessage{}
	for _, eg := range add {
		for _, g := range eg.Groups {
			b, err := marshalNoEscape(g)
			if err != nil {
				return false, err
			}
			fresh[eg.Event] = append(fresh[eg.Event], b)
		}
	}
	placed := map[string]bool{}
	var newHooks object
	for _, ev := range hooks {
		var name string
		_ = json.Unmarshal(ev.key, &name)
		groups, _ := parseArray(ev.val)
		var out []json.RawMessage
		evRemoved := false
		for _, g := range groups {
			ng, found := stripGroup(g)
			if found && !placed[name] && fresh[name] != nil {
				out = append(out, fresh[name]...)
				placed[name] = true
			}
			if found {
				evRemoved = true
			}
			if ng != nil {
				out = append(out, ng)
			}
		}
		if fresh[name] != nil && !placed[name] {
			out = append(out, fresh[name]...)
			placed[name] = true
		}
		removed = removed || evRemoved
		if len(out) == 0 && evRemoved {
			continue // emptied by us: drop the event
		}
		if evRemoved || placed[name] {
			ev.val = compactArray(out)
		}
		newHooks = append(newHooks, ev)
	}
	for _, eg := range add {
		if !placed[eg.Event] && len(fresh[eg.Event]) > 0 {
			newHooks = append(newHooks, member{key: keyBytes(eg.Event), val: compactArray(fresh[eg.Event])})
			placed[eg.Event] = true
		}
	}
	switch {
	case hi >= 0 && len(newHooks) == 0 && len(hooks) > 0:
		d.top = append(d.top[:hi:hi], d.top[hi+1:]...) // emptied by us
	case hi >= 0:
		d.top[hi].val = newHooks.compact()
	case len(newHooks) > 0:
		d.top = append(d.top, member{key: keyBytes("hooks"), val: newHooks.compact()})
	}
	return removed, nil
}

// MergeHooks returns settings with every earlier Anamnesis hook replaced by
// groups, everything else kept in order. An empty or missing file (nil) is
// treated as {}. A file that is not a JSON object yields a *SettingsError.
func MergeHooks(settings []byte, groups EventGroups) ([]byte, error) {
	d, err := parseSettings(settings)
	if err != nil {
		return nil, err
	}
	if _, err := d.editHooks(groups); err != nil {
		return nil, err
	}
	out := d.bytes()
	if bytes.Equal(out, settings) {
		return settings, nil
	}
	return out, nil
}

// RemoveHooks returns settings without any Anamnesis hook, and whether there
// was one. When there was none, settings is returned unchanged.
func RemoveHooks(settings []byte) ([]byte, bool, error) {
	d, err := parseSettings(settings)
	if err != nil {
		return nil, false, err
	}
	removed, err := d.editHooks(nil)
	if err != nil || !removed {
		return settings, false, err
	}
	return d.bytes(), true, nil
}

// InstalledHook is an Anamnesis hook found in a settings file.
type InstalledHook struct {
	Event   string
	Matcher string
	HookCommand
}

// FindHooks lists the Anamnesis hooks in settings, in file order.
func FindHooks(settings []byte) ([]InstalledHook, error) {
	d, err := parseSettings(settings)
	if err != nil {
		return nil, err
	}
	hi := d.top.index("hooks")
	if hi < 0 {
		return nil, nil
	}
	hooks, _ := parseObject(d.top[hi].val)
	var found []InstalledHook
	for _, ev := range hooks {
		var name string
		_ = json.Unmarshal(ev.key, &name)
		groups, _ := parseArray(ev.val)
		for _, g := range groups {
			var hg HookGroup
			if json.Unmarshal(g, &hg) != nil {
				continue
			}
			for _, h := range hg.Hooks {
				if hook.IsAnamnesisCommand(h.Command) {
					found = append(found, InstalledHook{Event: name, Matcher: hg.Matcher, HookCommand: h})
				}
			}
		}
	}
	return found, nil
}

// Line is the hook as one line for people: the command string, or an
// argument list's words quoted.
func (h HookCommand) Line() string {
	if h.Args == nil {
		return h.Command
	}
	return cli.ShellLine(append([]string{h.Command}, h.Args...)...)
}
