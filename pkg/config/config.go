// Package config resolves the settings every binary shares: environment
// first, then <home>/config.json (machine-local, never synced), then defaults.
package config

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Keys config.json may hold, in the order `config list` shows them.
var Keys = []string{"machine_id", "remote", "reflection.provider", "reflection.model",
	"reflection.base_url", "reflection.api_key", "reflection.timeout", "inject.max_chars",
	"recall.enabled", "recall.max_chars", AuthorKey}

// Providers of the reflection (LLM summary) seam.
var Providers = []string{"heuristic", "openai", "deepseek", "local", "claude"}

// Reflection configures the optional LLM summarizer.
type Reflection struct {
	Provider, Model, BaseURL, APIKey string
	Timeout                          time.Duration
}

// Config is the resolved configuration of one process.
type Config struct {
	Home      string
	MachineID string
	Remote    string
	// InjectMaxChars is the inject budget; 0 means unlimited.
	InjectMaxChars int
	// RecallEnabled turns per-prompt recall on (the default) or off.
	RecallEnabled bool
	// RecallMaxChars is per-prompt recall's output budget.
	RecallMaxChars int
	ImportNative   bool
	Reflection     Reflection
	ClaudeDir      string
	// ClaudeJSON is where Claude Code keeps user-scope MCP servers.
	ClaudeJSON string
	// UserHome is the user's home (UserHome), where a project marker may not be.
	UserHome string
	// HomeFromEnv is set when ANAMNESIS_HOME chose the home.
	HomeFromEnv bool
	// ReflectMin and ConsolidateMin are how many notes a project needs
	// before reflect (episodics) or consolidate (durable notes) asks the
	// model; 0 means the command's default.
	ReflectMin, ConsolidateMin int
	// MaxNewNotes bounds the notes one reflect or consolidate reply may
	// create per project per run (ANAMNESIS_MAX_NEW_NOTES); 0 means the
	// default.
	MaxNewNotes int
	// TrustedMarkers are the .anamnesis/project markers a person trusted
	// (path -> content hash; see pkg/project).
	TrustedMarkers map[string]string
	// Teams are the team stores this person joined (SPEC 18).
	Teams []Team
	// Author names this person on their team notes (ANAMNESIS_AUTHOR or
	// config's author); "" means their git identity, else the machine id
	// (pkg/team decides).
	Author string
	// FileErr is set when config.json exists but could not be read.
	FileErr error
	// Ignored names the values that did not parse (each passed over for the
	// next source: the environment's for config.json's, then the default),
	// for doctor to report.
	Ignored []string
}

// Env looks up an environment variable; os.Getenv in production.
type Env func(string) string

// DefaultHome is ANAMNESIS_HOME (with ~ expanded) or ~/.anamnesis.
func DefaultHome(env Env) string {
	if h := env("ANAMNESIS_HOME"); h != "" {
		return expand(h, env)
	}
	return filepath.Join(userHome(env), ".anamnesis")
}

// UserHome is the home Claude Code uses: $HOME, else the OS's idea of the
// user's home; on Windows %USERPROFILE% (Node's os.homedir(), which Claude
// Code reads its settings under), never %HOME%, which Git Bash and other
// Unix-like shells set to somewhere else.
func UserHome(env Env) string { return userHome(env) }

// HomeVar is the variable UserHome reads: USERPROFILE on Windows, else HOME.
func HomeVar() string {
	if runtime.GOOS == "windows" {
		return "USERPROFILE"
	}
	return "HOME"
}

func userHome(env Env) string {
	if h := env(HomeVar()); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// expand expands a leading ~ (~/x, and on Windows also ~\x) to UserHome.
func expand(p string, env Env) string {
	if p == "~" || strings.HasPrefix(p, "~/") || (runtime.GOOS == "windows" && strings.HasPrefix(p, `~\`)) {
		return filepath.Join(userHome(env), p[1:])
	}
	return p
}

// ClaudeDir is $CLAUDE_CONFIG_DIR, else ~/.claude.
func ClaudeDir(env Env) string {
	if d := env("CLAUDE_CONFIG_DIR"); d != "" {
		return expand(d, env)
	}
	return filepath.Join(userHome(env), ".claude")
}

// ClaudeJSON is Claude Code's own state file, which holds user-scope MCP
// servers: .claude.json inside $CLAUDE_CONFIG_DIR when that is set, else
// ~/.claude.json.
func ClaudeJSON(env Env) string {
	if d := env("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(expand(d, env), ".claude.json")
	}
	return filepath.Join(userHome(env), ".claude.json")
}

// Resolve builds the configuration for home ("" = the default home).
func Resolve(home string, env Env) Config {
	fromEnv := false
	if home == "" {
		home, fromEnv = DefaultHome(env), env("ANAMNESIS_HOME") != ""
	}
	home = expand(home, env)
	f, ferr := Load(home)
	c := Config{Home: home, FileErr: ferr, TrustedMarkers: f.TrustedMarkers(), ClaudeDir: ClaudeDir(env), ClaudeJSON: ClaudeJSON(env), HomeFromEnv: fromEnv, UserHome: userHome(env),
		InjectMaxChars: defaultInjectMaxChars, ImportNative: true, RecallEnabled: true, RecallMaxChars: defaultRecallMaxChars}
	pick := func(envKey, fileKey string) string {
		if v := env(envKey); v != "" {
			return v
		}
		v, _ := f.Get(fileKey)
		return v
	}
	c.MachineID = pick("ANAMNESIS_MACHINE_ID", "machine_id")
	if c.MachineID == "" || hasControl(c.MachineID) {
		// Printed raw in every note's front-matter, the inject block the
		// model reads and status: one from the environment or a hand-edited
		// config.json holding a control or bidirectional-override character
		// is not used (config set refuses it).
		c.MachineID, _ = os.Hostname()
	}
	if c.MachineID == "" || hasControl(c.MachineID) {
		c.MachineID = "unknown"
	}
	c.Remote = pick("ANAMNESIS_GIT_REMOTE", "remote")
	c.Teams = f.Teams()
	c.Author = strings.TrimSpace(pick("ANAMNESIS_AUTHOR", AuthorKey))
	// first gives the first of the environment's and config.json's values
	// that use takes (a value it refuses is named in Ignored).
	first := func(envKey, fileKey string, use func(string) bool) {
		fv, _ := f.Get(fileKey)
		for _, src := range [][2]string{{envKey, env(envKey)}, {fileKey, fv}} {
			if src[1] == "" {
				continue
			}
			if use(src[1]) {
				return
			}
			c.Ignored = append(c.Ignored, fmt.Sprintf("%s=%q", src[0], src[1]))
		}
	}
	number := func(min int, dst *int) func(string) bool {
		return func(v string) bool {
			n, err := strconv.Atoi(v)
			if err == nil && n >= min {
				*dst = n
			}
			return err == nil && n >= min
		}
	}
	first("ANAMNESIS_INJECT_MAX_CHARS", "inject.max_chars", number(0, &c.InjectMaxChars))
	first("ANAMNESIS_RECALL_ENABLED", "recall.enabled", func(v string) bool {
		b, err := parseBool(v)
		if err == nil {
			c.RecallEnabled = b
		}
		return err == nil
	})
	first("ANAMNESIS_RECALL_MAX_CHARS", "recall.max_chars", number(minRecallChars, &c.RecallMaxChars))
	for v, dst := range map[string]*int{"ANAMNESIS_REFLECT_MIN_EPISODICS": &c.ReflectMin, "ANAMNESIS_MERGE_MIN_DURABLE": &c.ConsolidateMin, "ANAMNESIS_MAX_NEW_NOTES": &c.MaxNewNotes} {
		if n, err := strconv.Atoi(env(v)); err == nil && n > 0 {
			*dst = n
		}
	}
	if v := env("ANAMNESIS_IMPORT_NATIVE"); v == "0" || strings.EqualFold(v, "false") || strings.EqualFold(v, "no") {
		c.ImportNative = false
	}
	c.Reflection = Reflection{
		Provider: pick("ANAMNESIS_REFLECTION_PROVIDER", "reflection.provider"),
		Model:    pick("ANAMNESIS_REFLECTION_MODEL", "reflection.model"),
		BaseURL:  pick("ANAMNESIS_REFLECTION_BASE_URL", "reflection.base_url"),
		APIKey:   pick("ANAMNESIS_REFLECTION_API_KEY", "reflection.api_key"),
		Timeout:  defaultReflectionTimeout,
	}
	if c.Reflection.Provider == "" {
		c.Reflection.Provider = defaultProvider
	}
	if v := pick("ANAMNESIS_REFLECTION_TIMEOUT", "reflection.timeout"); v != "" {
		if d, err := ParseSeconds(v); err == nil {
			c.Reflection.Timeout = d
		}
	}
	return c
}

const (
	defaultInjectMaxChars    = 9500
	defaultRecallMaxChars    = 2000
	defaultReflectionTimeout = 30 * time.Second
	defaultProvider          = "heuristic"
)

// Default is the value key takes when neither the environment nor
// config.json sets it, and false for a key with no default (remote, the
// model's name, URL and key; machine_id defaults to the host name).
func Default(key string) (string, bool) {
	switch key {
	case "machine_id":
		h, _ := os.Hostname()
		return h, h != ""
	case "reflection.provider":
		return defaultProvider, true
	case "reflection.timeout":
		return defaultReflectionTimeout.String(), true
	case "inject.max_chars":
		return strconv.Itoa(defaultInjectMaxChars), true
	case "recall.enabled":
		return "true", true
	case "recall.max_chars":
		return strconv.Itoa(defaultRecallMaxChars), true
	}
	return "", false
}

// minRecallChars is the smallest recall budget that still holds one note's
// heading and a line of it.
const minRecallChars = 200

// parseBool accepts the spellings people use in config files and env.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q: want true or false", v)
}

// ParseSeconds is the one reading of a time span everywhere (timeouts in
// config.json and the environment, --timeout and --lock-wait flags): seconds
// ("20", "2.5") or a Go duration ("20s", "500ms"), positive.
func ParseSeconds(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if !(f > 0) { // NaN too
			return 0, fmt.Errorf("%q: want a positive number of seconds", v)
		}
		// Past what a Duration holds (about 292 years; Inf) the conversion
		// gives a negative span: an instant timeout.
		if f >= float64(math.MaxInt64)/float64(time.Second) {
			return 0, fmt.Errorf("%q: too many seconds", v)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want seconds (e.g. 30) or a duration (e.g. 30s, 2m)", v)
	}
	return d, nil
}

// Get returns a dotted key's value as a string.
func (f *File) Get(key string) (string, bool) {
	var cur any = f.m
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		if cur, ok = m[part]; !ok {
			return "", false
		}
	}
	return text(cur)
}

// text is a value of the file as get and list print it; false for null.
func text(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	case bool:
		return strconv.FormatBool(v), true
	case nil:
		return "", false
	default:
		b, _ := json.Marshal(v)
		return string(b), true
	}
}

// Validate checks a value for a known key.
func Validate(key, value string) error {
	if !slices.Contains(Keys, key) {
		return fmt.Errorf("unknown key %q (known: %s)", key, strings.Join(Keys, ", "))
	}
	switch key {
	case "machine_id":
		// Printed raw (front-matter, the inject block, status): no
		// control or bidirectional-override character.
		if value == "" || strings.ContainsAny(value, " \t\n/\\<>") || hasControl(value) {
			return fmt.Errorf("machine_id %q: use letters, digits, '.', '_' or '-'", value)
		}
	case "remote":
		if strings.HasPrefix(value, "-") || strings.ContainsAny(value, "\n\r") || value == "" {
			return fmt.Errorf("remote %q is not a git URL or path", maskUserinfo(value))
		}
		if len(value) >= 5 && strings.EqualFold(value[:5], "ext::") {
			// git's ext transport runs the rest as a command; the git
			// runner never allows it (gitsync), so no sync could use it.
			return fmt.Errorf("remote %q is a command for git's ext:: transport, not a repository; Anamnesis never runs one", maskUserinfo(value))
		}
	case AuthorKey:
		if strings.TrimSpace(value) == "" || len(value) > 100 || strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return fmt.Errorf("author %q: one line of at most 100 characters", value)
		}
	case "reflection.provider":
		if !slices.Contains(Providers, value) {
			return fmt.Errorf("provider %q: want one of %s", value, strings.Join(Providers, ", "))
		}
	case "reflection.base_url":
		u, err := url.Parse(value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("base_url %q: want an http(s) URL", maskUserinfo(value))
		}
	case "reflection.timeout":
		if _, err := ParseSeconds(value); err != nil {
			return err
		}
	case "inject.max_chars":
		if n, err := strconv.Atoi(value); err != nil || n < 0 {
			return fmt.Errorf("inject.max_chars %q: want a whole number >= 0 (0 = unlimited)", value)
		}
	case "recall.enabled":
		if _, err := parseBool(value); err != nil {
			return fmt.Errorf("recall.enabled %v", err)
		}
	case "recall.max_chars":
		if n, err := strconv.Atoi(value); err != nil || n < minRecallChars {
			return fmt.Errorf("recall.max_chars %q: want a whole number >= %d", value, minRecallChars)
		}
	}
	return nil
}

// Set validates and sets a dotted key (numbers are stored as numbers).
func (f *File) Set(key, value string) error {
	if err := Validate(key, value); err != nil {
		return err
	}
	var v any = value
	switch key {
	case "remote":
		v = AbsRemote(value)
	case "inject.max_chars", "recall.max_chars":
		v = json.Number(value)
	case "recall.enabled":
		v, _ = parseBool(value)
	}
	parts := strings.Split(key, ".")
	m := f.m
	for _, p := range parts[:len(parts)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[p] = sub
		}
		m = sub
	}
	m[parts[len(parts)-1]] = v
	return nil
}

// AbsRemote is remote with a relative local path made absolute against the
// working directory, the one the user meant: git runs in <home>/memory,
// where the relative path names nothing. A URL, an scp-style host:path
// (a colon before any slash), an absolute path or a ~ path is kept.
func AbsRemote(remote string) string {
	// A path from the root of the current drive (/srv/notes.git on
	// Windows) is as absolute as git needs.
	if strings.Contains(remote, "://") || filepath.IsAbs(remote) || strings.HasPrefix(remote, "~") || strings.HasPrefix(remote, "/") || strings.HasPrefix(remote, `\`) {
		return remote
	}
	if i := strings.Index(remote, ":"); i > 0 && !strings.ContainsAny(remote[:i], `/\`) {
		return remote
	}
	if abs, err := filepath.Abs(remote); err == nil {
		return abs
	}
	return remote
}

// maskUserinfo hides the user:password@ (or token@) of a URL named in an
// error; the URL may not parse, which is why it is refused.
func maskUserinfo(v string) string {
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return v
	}
	host := rest
	if i := strings.Index(rest, "/"); i >= 0 {
		host = rest[:i]
	}
	if at := strings.LastIndex(host, "@"); at >= 0 {
		return scheme + "://***" + rest[at:]
	}
	return v
}

// Unset removes a dotted key; it reports whether it was there.
func (f *File) Unset(key string) bool {
	parts := strings.Split(key, ".")
	m := f.m
	for _, p := range parts[:len(parts)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			return false
		}
		m = sub
	}
	_, ok := m[parts[len(parts)-1]]
	delete(m, parts[len(parts)-1])
	if len(parts) == 2 {
		if sub, _ := f.m[parts[0]].(map[string]any); len(sub) == 0 {
			delete(f.m, parts[0])
		}
	}
	return ok
}

// List returns every set key (known ones first, in order), with secrets
// masked. A key is the dotted path to its value, whose parts may hold dots
// themselves (trusted_markers' paths): the values are taken as the walk
// finds them, not looked up again by that path.
func (f *File) List() [][2]string {
	values := map[string]string{}
	var walk func(prefix string, m map[string]any)
	var all []string
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			if s, ok := text(v); ok {
				all = append(all, prefix+k)
				values[prefix+k] = s
			}
		}
	}
	walk("", f.m)
	sort.Strings(all)
	var out [][2]string
	seen := map[string]bool{}
	for _, k := range append(slices.Clone(Keys), all...) {
		if v, ok := values[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, [2]string{k, Display(k, v)})
		}
	}
	return out
}

// Display masks secrets for printing.
func Display(key, value string) string {
	if key != "reflection.api_key" || value == "" {
		return value
	}
	if len(value) <= 8 {
		return "****"
	}
	return value[:3] + "…" + value[len(value)-4:]
}

// hasControl reports a control or bidirectional-override character.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) })
}
