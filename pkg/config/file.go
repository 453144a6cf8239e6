package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
)

// File is config.json as written: unknown keys are kept on rewrite, members
// keep their order (new ones go last), numbers keep their spelling. It is the
// only writer of config.json (`config set|unset`, init).
type File struct {
	path string
	m    map[string]any
	// order lists each object's keys as the file had them, by dotted
	// prefix ("" for the top level, "reflection" for its block).
	order map[string][]string
}

// Path of config.json under home.
func Path(home string) string { return filepath.Join(home, "config.json") }

// Load reads config.json. A missing file is empty; a malformed one is empty
// and its error returned (callers report it; nothing fails because of it).
func Load(home string) (*File, error) {
	data, err := os.ReadFile(Path(home))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		f, _ := Parse(Path(home), nil)
		return f, err
	}
	return Parse(Path(home), data)
}

// Parse reads the bytes of the config.json at path. Malformed input gives
// an empty File and the error.
func Parse(path string, data []byte) (*File, error) {
	f := &File{path: path, m: map[string]any{}, order: map[string][]string{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return f, fmt.Errorf("%s is not valid JSON: %v", path, err)
	}
	if dec.More() {
		return f, fmt.Errorf("%s is not valid JSON: data after the top-level object", path)
	}
	if m != nil {
		f.m = m
	}
	f.order = keyOrder(data)
	return f, nil
}

// keyOrder records the order of every object's keys in valid JSON data.
func keyOrder(data []byte) map[string][]string {
	order := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(prefix string) error
	walk = func(prefix string) error {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		d, ok := t.(json.Delim)
		if !ok {
			return nil // a scalar
		}
		for dec.More() {
			next := prefix + "[]"
			if d == '{' {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k := kt.(string)
				if !slices.Contains(order[prefix], k) {
					order[prefix] = append(order[prefix], k)
				}
				next = join(prefix, k)
			}
			if err := walk(next); err != nil {
				return err
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	walk("")
	return order
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// Bytes is the file's content: two-space indented JSON and a newline, keys
// in their order, nothing HTML-escaped.
func (f *File) Bytes() ([]byte, error) {
	var compact bytes.Buffer
	if err := f.encode(&compact, f.m, ""); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Shown is Bytes with the credentials masked, for printing the file (init's
// plan): each URL that may carry userinfo or a token (remote,
// reflection.base_url, every teams.NAME.url) through maskURL, the API key
// as Display masks it. f itself is unchanged.
func (f *File) Shown(maskURL func(string) string) ([]byte, error) {
	c := &File{path: f.path, m: cloneMap(f.m), order: f.order}
	mask := func(m map[string]any, key string, by func(string) string) {
		if v, ok := m[key].(string); ok {
			m[key] = by(v)
		}
	}
	mask(c.m, "remote", maskURL)
	if r, ok := c.m["reflection"].(map[string]any); ok {
		mask(r, "base_url", maskURL)
		mask(r, "api_key", func(v string) string { return Display("reflection.api_key", v) })
	}
	if ts, ok := c.m[teamsKey].(map[string]any); ok {
		for _, t := range ts {
			if obj, ok := t.(map[string]any); ok {
				mask(obj, "url", maskURL)
			}
		}
	}
	return c.Bytes()
}

// cloneMap copies the objects of a decoded JSON value; other values are
// shared (Shown replaces strings, never edits them).
func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = cloneMap(sub)
		}
		out[k] = v
	}
	return out
}

func (f *File) encode(w *bytes.Buffer, m map[string]any, prefix string) error {
	keys := slices.DeleteFunc(slices.Clone(f.order[prefix]), func(k string) bool { _, ok := m[k]; return !ok })
	var added []string
	for k := range m {
		if !slices.Contains(keys, k) {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	w.WriteByte('{')
	for i, k := range append(keys, added...) {
		if i > 0 {
			w.WriteByte(',')
		}
		if err := scalar(w, k); err != nil {
			return err
		}
		w.WriteByte(':')
		if sub, ok := m[k].(map[string]any); ok {
			if err := f.encode(w, sub, join(prefix, k)); err != nil {
				return err
			}
		} else if err := scalar(w, m[k]); err != nil {
			return err
		}
	}
	w.WriteByte('}')
	return nil
}

func scalar(w *bytes.Buffer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	w.Truncate(w.Len() - 1) // Encode's newline
	return nil
}

// Empty reports whether the file holds no key at all.
func (f *File) Empty() bool { return len(f.m) == 0 }

// Save writes config.json atomically with mode 0600.
func (f *File) Save() error {
	data, err := f.Bytes()
	if err != nil {
		return err
	}
	return atomicfile.Write(atomicfile.LinkTarget(f.path), data, 0o600)
}

// markersKey holds the .anamnesis/project markers a person trusted: marker
// path -> content hash (pkg/project decides when one is needed).
const markersKey = "trusted_markers"

// TrustedMarkers returns the trusted markers (path -> content hash).
func (f *File) TrustedMarkers() map[string]string {
	var out map[string]string
	if m, ok := f.m[markersKey].(map[string]any); ok {
		out = map[string]string{}
		for k, v := range m {
			if s, ok := v.(string); ok {
				out[k] = s
			}
		}
	}
	return out
}

// TrustMarker records that a person trusted the marker at path with content
// hash; Save writes it.
func (f *File) TrustMarker(path, hash string) {
	m, ok := f.m[markersKey].(map[string]any)
	if !ok {
		m = map[string]any{}
		f.m[markersKey] = m
	}
	m[path] = hash
}
