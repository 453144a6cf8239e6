package setup

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// DoctorOptions are `anamnesis doctor`'s flags.
type DoctorOptions struct {
	Paths
	Name    string        // MCP server name (default "anamnesis")
	JSON    bool          // print the checks as a JSON array
	Timeout time.Duration // per network/process check (default 20 s)
	// Deep reads every page of the index and every note file whatever the
	// index's size (they are read by default only below readAllBelow).
	Deep bool
}

// readAllBelow is the index size under which doctor reads every index page
// (quick_check) and every note file by default: about 70,000 notes, whose
// reading takes seconds; above it a million notes' take minutes.
const readAllBelow = 256 << 20

// Check is one line of doctor's report.
type Check struct {
	Name   string `json:"check"`
	Status string `json:"status"` // ok, warn, FAIL
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

const (
	statusOK   = "ok"
	statusWarn = "warn"
	statusFail = "FAIL"
)

// ErrChecksFailed is returned by Doctor when a check failed (exit 1).
var ErrChecksFailed = errors.New("doctor: some checks failed")

type doctor struct {
	p       Paths
	name    string
	timeout time.Duration
	// readAllBelow: the index size under which the store's check reads
	// everything (readAllBelow, or any size with --deep).
	readAllBelow int64
	checks       []Check
	// plugin is the enabled Anamnesis Claude Code plugin, "" when none:
	// it then provides the hooks and the MCP server.
	plugin string
	// cfg is the configuration as every binary resolves it (config).
	cfg config.Config
}

func (d *doctor) add(name, status, detail, fix string) {
	d.checks = append(d.checks, Check{Name: name, Status: status, Detail: detail, Fix: fix})
}

// Doctor checks the installation and prints one line per check, each failure
// with its fix. It returns ErrChecksFailed when any check failed.
func Doctor(ctx context.Context, opts DoctorOptions, stdout, stderr io.Writer) error {
	if opts.Name == "" {
		opts.Name = DefaultMCPName
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 20 * time.Second
	}
	p, err := opts.Paths.Resolve()
	if err != nil {
		return err
	}
	d := &doctor{p: p, name: opts.Name, timeout: opts.Timeout, readAllBelow: readAllBelow}
	if opts.Deep {
		d.readAllBelow = math.MaxInt64
	}
	d.binaries()
	d.homeVars()
	d.hooks()
	d.mcp(ctx)
	if d.plugin != "" {
		d.pluginRoute()
	}
	remote := d.config()
	d.store(ctx)
	d.project()
	d.git(ctx, remote)
	d.rewrites(ctx)
	d.locks()

	failed := false
	for _, c := range d.checks {
		failed = failed || c.Status == statusFail
	}
	if opts.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d.checks); err != nil {
			return err
		}
	} else {
		for _, c := range d.checks {
			line := fmt.Sprintf("%-4s %s: %s", c.Status, c.Name, c.Detail)
			if c.Fix != "" {
				line += "; fix: " + c.Fix
			}
			// One line per check: a detail may quote a file name or a
			// value a pulled repository chose (an escape sequence, a
			// line break).
			fmt.Fprintln(stdout, note.OneLine(line))
		}
	}
	if failed {
		return ErrChecksFailed
	}
	return nil
}

// homeVars warns on Windows when %HOME% (Git Bash and other Unix-like tools
// set it) names another folder than %USERPROFILE%, the home Claude Code and
// Anamnesis use: a hand-made ~/.claude under %HOME% is never read.
func (d *doctor) homeVars() {
	if !isWindows() {
		return
	}
	h, up := os.Getenv("HOME"), os.Getenv("USERPROFILE")
	if h == "" || up == "" || samePath(msysPath(h), up) {
		return
	}
	d.add("home", statusWarn, fmt.Sprintf("%%HOME%% is %s, not %%USERPROFILE%% (%s); Claude Code and Anamnesis use %%USERPROFILE%%", h, up),
		"nothing, unless your Claude Code settings are under %HOME%: then set CLAUDE_CONFIG_DIR to that .claude folder")
}

// msysPath turns Git Bash's /c/Users/x into C:\Users\x.
func msysPath(p string) string {
	if len(p) >= 3 && p[0] == '/' && p[2] == '/' && ('a' <= p[1]|0x20 && p[1]|0x20 <= 'z') {
		return strings.ToUpper(p[1:2]) + ":" + filepath.FromSlash(p[2:])
	}
	return p
}

func samePath(a, b string) bool {
	return strings.EqualFold(filepath.Clean(filepath.FromSlash(a)), filepath.Clean(filepath.FromSlash(b)))
}

func (d *doctor) binaries() {
	var missing []string
	for _, b := range AllBinaries {
		if !bin.IsExecutable(bin.Path(d.p.BinDir, b)) {
			missing = append(missing, b)
		}
	}
	switch {
	case len(missing) == 0:
		d.add("binaries", statusOK, fmt.Sprintf("all %d in %s", len(AllBinaries), d.p.BinDir), "")
	case len(missing) == 1 && missing[0] == BinDashboard:
		d.add("binaries", statusWarn, BinDashboard+" missing from "+d.p.BinDir+" (only `anamnesis dashboard` needs it)", "./scripts/install.sh")
	default:
		d.add("binaries", statusFail, strings.Join(missing, ", ")+" missing from "+d.p.BinDir, "./scripts/install.sh (installs every binary into one directory)")
	}
}

// hookRole names an expected hook for messages.
var hookRoles = map[string]string{
	BinInject:  "inject",
	BinRecall:  "recall",
	BinSync:    "background sync",
	BinCapture: "capture",
}

func (d *doctor) hooks() {
	path := d.p.SettingsPath()
	data, had, err := readOptional(atomicfile.LinkTarget(path))
	if err != nil {
		d.add("hooks", statusFail, fmt.Sprintf("cannot read %s: %v", path, err), "check the file's permissions")
		return
	}
	found, err := FindHooks(data)
	if err != nil {
		d.add("hooks", statusFail, fmt.Sprintf("%s: %v", path, err), "repair the JSON by hand (or restore settings.json.bak), then `anamnesis init`")
		return
	}
	if !had {
		d.add("hooks", statusFail, path+" does not exist, so no hooks are installed", "anamnesis init")
		return
	}
	if d.plugin = EnabledPlugin(data); d.plugin != "" && len(found) == 0 {
		d.add("hooks", statusOK, "provided by the Claude Code plugin "+d.plugin+" (its hooks run the binaries on PATH)", "")
		return
	}
	if len(found) == 0 {
		for id, on := range PluginStates(data) {
			if !on {
				d.add("hooks", statusFail, "the Claude Code plugin "+id+" is installed but disabled, and `anamnesis init` installed no hooks, so nothing runs",
					"claude plugin enable "+id+" (or `anamnesis init` for hooks without the plugin)")
				return
			}
		}
	}
	want := BuildHooks(d.p.BinDir, d.p.Home, d.p.HomeIsDefault)
	matched := make([]bool, len(found))
	for _, eg := range want {
		for _, g := range eg.Groups {
			for _, h := range g.Hooks {
				role := hookRoleOf(h.Command)
				if eg.Event == "PreCompact" {
					role = "pre-compact capture"
				}
				label := fmt.Sprintf("%s %s hook", eg.Event, role)
				ok := false
				for i, f := range found {
					if f.Event == eg.Event && f.Matcher == g.Matcher && f.Command == h.Command && slices.Equal(f.Args, h.Args) && f.Timeout == h.Timeout && f.Async == h.Async {
						matched[i], ok = true, true
					}
				}
				if ok {
					d.add("hooks", statusOK, label+" installed", "")
				} else {
					d.add("hooks", statusFail, label+" missing from "+path, "anamnesis init (adds it back and keeps your other settings)")
				}
			}
		}
	}
	for i, f := range found {
		if !matched[i] {
			d.add("hooks", statusFail, fmt.Sprintf("stale Anamnesis hook in %s: %s %s", path, f.Event, hookText(f.Matcher, f.HookCommand)),
				"anamnesis init (replaces earlier Anamnesis hooks)")
		}
	}
}

func hookRoleOf(cmd string) string {
	for bin, role := range hookRoles {
		if strings.Contains(cmd, bin) {
			return role
		}
	}
	return "anamnesis"
}

func (d *doctor) mcp(ctx context.Context) {
	want := MCPServer{Type: "stdio", Command: bin.Path(d.p.BinDir, BinMCP)}
	if !d.p.HomeIsDefault {
		want.Env = map[string]string{"ANAMNESIS_HOME": d.p.Home}
	}
	addLine := cli.UserLine(append([]string{"claude"}, mcpAddArgs(d.name, want)...)...)
	servers, err := readMCPServers(d.p.ClaudeJSON)
	if err != nil {
		d.add("mcp", statusFail, fmt.Sprintf("cannot read Claude Code's MCP configuration: %v", err), addLine)
		return
	}
	have, ok := servers[d.name]
	if d.plugin != "" {
		if ok {
			d.add("mcp", statusWarn, fmt.Sprintf("%q is registered at user scope and the plugin %s runs its own: Claude Code starts both", d.name, d.plugin),
				cli.UserLine("claude", "mcp", "remove", "--scope", "user", d.name)+" (or `claude plugin uninstall "+d.plugin+"`)")
		} else {
			d.add("mcp", statusOK, "provided by the Claude Code plugin "+d.plugin, "")
		}
		return
	}
	if !ok {
		d.add("mcp", statusFail, fmt.Sprintf("%q is not registered with Claude Code", d.name), addLine+" (or `anamnesis init`)")
		return
	}
	if !have.same(want) {
		d.add("mcp", statusFail, fmt.Sprintf("%q is registered as %s, not this installation's %s", d.name, cli.ShellLine(append([]string{have.Command}, have.Args...)...), want.Command),
			cli.UserLine("claude", "mcp", "remove", "--scope", "user", d.name)+" && "+addLine+" (or `anamnesis init`)")
		return
	}
	if err := probeMCP(ctx, have, d.timeout); err != nil {
		d.add("mcp", statusFail, fmt.Sprintf("%q is registered but the server does not answer: %v", d.name, err), "./scripts/install.sh, then `anamnesis doctor` again")
		return
	}
	d.add("mcp", statusOK, fmt.Sprintf("%q registered at user scope and answering", d.name), "")
}

// probeMCP starts the server the way Claude Code would and completes the
// MCP initialize handshake.
func probeMCP(ctx context.Context, srv MCPServer, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, srv.Command, srv.Args...)
	cmd.Env = os.Environ()
	for k, v := range srv.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"anamnesis-doctor","version":"1"}}}` + "\n"
	if _, err := io.WriteString(stdin, req); err != nil {
		return err
	}
	type reply struct {
		line []byte
		err  error
	}
	ch := make(chan reply, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result *struct {
					ServerInfo struct {
						Name string `json:"name"`
					} `json:"serverInfo"`
				} `json:"result"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && string(m.ID) == "1" {
				if m.Result == nil {
					ch <- reply{err: fmt.Errorf("initialize failed: %s", sc.Bytes())}
				} else {
					ch <- reply{line: sc.Bytes()}
				}
				return
			}
		}
		ch <- reply{err: fmt.Errorf("no answer to initialize (%s)", strings.TrimSpace(stderr.String()))}
	}()
	select {
	case r := <-ch:
		return r.err
	case <-ctx.Done():
		return fmt.Errorf("no answer to initialize within %s", timeout)
	}
}

// config checks config.json and returns the remote in effect (environment,
// then config.json, as every binary resolves it).
func (d *doctor) config() string {
	path := d.p.ConfigPath()
	_, had, err := readOptional(path)
	eff := config.Resolve(d.p.Home, os.Getenv)
	d.cfg = eff
	for _, v := range eff.Ignored {
		d.add("config", statusWarn, v+" is not a valid value and is ignored (the next source's, or the default, is used)",
			"correct it: `anamnesis config set KEY VALUE` checks a value; an ANAMNESIS_ variable is set where your shell or Claude Code's settings set it")
	}
	switch {
	case err != nil:
		d.add("config", statusFail, fmt.Sprintf("cannot read %s: %v", path, err), "check the file's permissions")
		return eff.Remote
	case !had:
		// Nothing fails without it (a plugin install has none until
		// `anamnesis init` or `config set` writes one): say what is in effect.
		remote := "no remote (local only)"
		if eff.Remote != "" {
			remote = "remote from the environment"
		}
		d.add("config", statusOK, fmt.Sprintf("%s does not exist: defaults in effect (machine id %q, %s); `anamnesis config list` shows them",
			path, eff.MachineID, remote), "")
		return eff.Remote
	case eff.FileErr != nil:
		d.add("config", statusFail, fmt.Sprintf("%v, so it reads as empty", eff.FileErr),
			"correct it by hand, or run `anamnesis init` (keeps the old file as config.json.bak)")
		return eff.Remote
	}
	if fi, err := os.Stat(path); err == nil && !isWindows() && fi.Mode().Perm()&0o077 != 0 {
		d.add("config", statusWarn, fmt.Sprintf("%s is readable by others (mode %o); it may hold an API key", path, fi.Mode().Perm()), cli.ShellLine("chmod", "600", path))
	}
	f, _ := config.Load(d.p.Home)
	if _, set := f.Get("machine_id"); !set && eff.MachineID == hostnameOr("unknown") {
		d.add("config", statusWarn, path+" has no machine_id (the host name is used)", "anamnesis config set machine_id NAME")
	} else {
		d.add("config", statusOK, fmt.Sprintf("%s (machine id %q)", path, eff.MachineID), "")
	}
	return eff.Remote
}

// store checks the notes on disk against the index: files the index does
// not reflect, and files that cannot be read as notes.
// project says when the working directory's .anamnesis/project marker is
// ignored (SPEC 17) and how to trust it.
func (d *doctor) project() {
	r := project.Here("", d.cfg)
	switch {
	case r.Marker == "":
	case r.Ignored == "":
		d.add("project", statusOK, fmt.Sprintf("%s (from %s)", r.Key, r.Marker), "")
	case strings.Contains(r.Ignored, "global"):
		d.add("project", statusWarn, fmt.Sprintf("%s ignored: %s; notes here go under %s", r.Marker, r.Ignored, r.Key), "remove the line, or name a project")
	default:
		d.add("project", statusWarn, fmt.Sprintf("%s ignored: %s; notes here go under %s", r.Marker, r.Ignored, r.Key),
			cli.UserLine("anamnesis", "project", "trust", filepath.Dir(filepath.Dir(r.Marker)))+" (if you chose this key)")
	}
}

func (d *doctor) store(ctx context.Context) {
	if fi, err := os.Stat(d.p.Home); errors.Is(err, os.ErrNotExist) {
		// Not a fault: the first capture (or write, or init) creates it.
		d.add("store", statusOK, d.p.Home+" does not exist yet; the first session's capture (or `anamnesis write`, or `anamnesis init`) creates it", "")
		return
	} else if err != nil || !fi.IsDir() {
		d.add("store", statusFail, d.p.Home+" is not a directory", "move it aside, then `anamnesis init`")
		return
	}
	seedEra := store.LastIndexedBy(d.p.Home) == store.SeedEraSchema
	// Every page and every file are read only when that takes seconds, not
	// minutes; the line says how to read them all.
	size := int64(0)
	if fi, err := os.Stat(filepath.Join(d.p.Home, "index.db")); err == nil {
		size = fi.Size()
	}
	readAll := size < d.readAllBelow
	open := store.Open
	if readAll {
		open = store.OpenChecked
	}
	st, err := open(ctx, d.p.Home)
	if err != nil {
		d.add("index", statusFail, err.Error(), "anamnesis reindex --full (the index is derived from the notes and safe to rebuild)")
		return
	}
	defer st.Close()
	if seedEra {
		d.seedEraSupersedes(ctx, st)
	}
	if moved, why := st.SetAside(); moved != "" {
		d.add("index", statusWarn, fmt.Sprintf("the index was unusable (%s); moved to %s and rebuilt from the notes", why, moved),
			"nothing to do (the notes are the truth); delete "+moved+" once you no longer need it")
	}
	var dr store.Drift
	if readAll {
		dr, err = st.Drift(ctx)
	} else {
		dr.Problems, err = st.Problems(ctx)
	}
	if err != nil {
		d.add("index", statusFail, err.Error(), "anamnesis reindex --full")
		return
	}
	for _, pr := range dr.Problems {
		d.add("notes", statusFail, fmt.Sprintf("%s cannot be read as a note: %s", filepath.Join(d.p.Home, filepath.FromSlash(pr.Path)), pr.Reason),
			"correct the file (or delete it), then `anamnesis reindex`")
	}
	if held, err := st.List(ctx, store.Filter{Held: true, Teams: true}); err == nil {
		for i, n := range held {
			if i == 5 {
				d.add("held", statusWarn, fmt.Sprintf("%d more held notes", len(held)-i), "anamnesis status lists them all")
				break
			}
			d.add("held", statusWarn, fmt.Sprintf("note %s (%q, %s) is held out of the model's context: it %s", n.ID, n.Title, n.ProvSource, screen.Describe(screen.Reason(n.Tags))),
				"read it (anamnesis get "+n.ID+"); if it is sound, anamnesis release "+n.ID+"; otherwise anamnesis rm "+n.ID)
		}
	}
	if n, err := st.Unslotted(ctx); err == nil && n > 0 {
		d.add("index", statusWarn, fmt.Sprintf("%d note(s) were indexed by an earlier version, before each project had its own rowids: a search in a project tests each of them for its project", n),
			"anamnesis reindex --full (once; it rebuilds the index from the notes)")
	}
	switch {
	case !readAll:
		d.add("index", statusOK, fmt.Sprintf("the index is %d MB: not all read, nor every note file (that takes minutes at this size; `anamnesis doctor --deep` reads them all); the unreadable files reported are the ones the index recorded", size>>20), "")
	case dr.Changed > 0 || dr.Removed > 0:
		d.add("index", statusWarn, fmt.Sprintf("%d note file(s) changed and %d removed since the last index update", dr.Changed, dr.Removed), "anamnesis reindex")
	default:
		d.add("index", statusOK, fmt.Sprintf("%d note file(s), index in step", dr.Files), "")
	}
}

// seedEraSupersedes warns, for a home the seed-era reference indexed last,
// of notes whose supersedes lists several ids: that version's reindex
// stops at the first of them (so do its search and sync).
func (d *doctor) seedEraSupersedes(ctx context.Context, st *store.Store) {
	ns, err := st.List(ctx, store.Filter{})
	if err != nil {
		return
	}
	// Held notes too: the reference knows no holds and reads every file.
	// The index keeps no supersedes of a held note (it hides nothing), so
	// each is read from its file; a store holds few.
	held, err := st.List(ctx, store.Filter{Held: true})
	if err != nil {
		return
	}
	for _, h := range held {
		if n, err := st.Get(ctx, h.ID); err == nil {
			ns = append(ns, n)
		}
	}
	var ids []string
	for _, n := range ns {
		if len(n.Supersedes) > 1 {
			ids = append(ids, n.ID)
		}
	}
	if len(ids) > 0 {
		d.add("reference", statusWarn, fmt.Sprintf("the seed-era reference implementation indexed this home last, and %d note(s) list several superseded ids (%s), which its reindex cannot read: its reindex, search and sync stop there", len(ids), strings.Join(ids[:min(len(ids), 5)], " ")),
			"upgrade the reference implementation on that machine to its newest version (which reads the list), or stop using it on this home")
	}
}

// locks warns about a sync or commit lock left by a process that no longer
// runs (only where locks are files, not flocks: Windows).
func (d *doctor) locks() {
	for _, l := range gitsync.StaleLocks(d.p.Home) {
		d.add("lock", statusWarn, l.String(), "`anamnesis sync` (it takes the lock over)")
	}
}

// rewrites says, for memory/ and each team's clone, when its remote's
// history was rewritten (a purge, SPEC 18) and the sync that takes the new
// history up, re-committing this member's own changes on top, has not run
// yet: status says the same (gitsync owns the rule and the words). For a
// team, it also says when the last sync of it failed, as status's team
// line does: the hooks' syncs print it where nobody reads.
func (d *doctor) rewrites(ctx context.Context) {
	h := layout.Home(d.p.Home)
	if p := gitsync.RewritePending(ctx, h.Memory()); p != nil {
		d.add("remote", statusWarn, p.Detail, p.Fix)
	}
	last := gitsync.Last(d.p.Home)
	for _, t := range d.cfg.Teams {
		if p := gitsync.RewritePending(ctx, h.Team(t.Name)); p != nil {
			d.add("team "+t.Name, statusWarn, p.Detail, p.Fix)
			continue
		}
		if last == nil {
			continue
		}
		for _, r := range last.Result.Teams {
			if r.Name == t.Name && r.Error != "" {
				// Not RemoteFix: its fixes name the personal remote's setting.
				d.add("team "+t.Name, statusWarn, fmt.Sprintf("the last sync (%s) failed: %s", last.At, r.Detail),
					"check the team's URL (anamnesis team list), the network and your access to the repository; `anamnesis sync` tries again")
			}
		}
	}
}

func (d *doctor) git(ctx context.Context, remote string) {
	mem := layout.Home(d.p.Home).Memory()
	if _, err := exec.LookPath("git"); err != nil {
		d.add("git", statusFail, "git is not on PATH; sync needs it", "install git")
		return
	}
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, d.timeout)
		defer cancel()
		out, err := gitsync.Output(ctx, mem, args...)
		return strings.TrimSpace(out), err
	}
	top, err := run("rev-parse", "--show-toplevel")
	if _, serr := os.Stat(d.p.Home); errors.Is(serr, os.ErrNotExist) {
		d.add("git", statusOK, "no store yet; the first sync makes "+mem+" a git repository", "")
	} else if err != nil || !sameDir(top, mem) {
		// Not a failure: the notes are safe, and the next sync (every
		// session start runs one) makes the repository.
		d.add("git", statusWarn, mem+" is not a git repository yet (the next sync makes it; until then notes have no history)", "anamnesis sync (creates it and commits your notes)")
	} else {
		gitDir, _ := run("rev-parse", "--absolute-git-dir")
		var stuck []string
		for _, f := range []string{"rebase-merge", "rebase-apply", "MERGE_HEAD"} {
			if _, err := os.Stat(filepath.Join(gitDir, f)); err == nil {
				stuck = append(stuck, f)
			}
		}
		branch, _ := run("symbolic-ref", "--short", "-q", "HEAD")
		lk, locked := gitsync.FindIndexLock(mem)
		links, _ := gitsync.Symlinks(ctx, mem)
		switch {
		case len(links) > 0:
			d.add("git", statusFail, fmt.Sprintf("%s is a symbolic link (%d under %s); sync refuses to commit it (it would delete its notes on every other machine)", filepath.Join(mem, filepath.FromSlash(links[0])), len(links), mem),
				"replace the link with a real directory holding the notes, then `anamnesis sync`")
		case locked && lk.Stale:
			d.add("git", statusFail, fmt.Sprintf("%s was left by a git process that no longer runs (%s old); git commands fail while it is there", lk.Path, lk.Age.Round(time.Second)),
				"`anamnesis sync` removes it (or: "+cli.UserLine("rm", lk.Path)+")")
		case locked:
			d.add("git", statusWarn, lk.Path+" is held by a running git process", "wait for it to finish")
		case len(stuck) > 0:
			d.add("git", statusFail, fmt.Sprintf("%s is in the middle of a merge or rebase (%s)", mem, strings.Join(stuck, ", ")),
				cli.UserLine("git", "-C", mem, "rebase", "--abort")+" or "+cli.UserLine("git", "-C", mem, "merge", "--abort")+", then `anamnesis sync`")
		case branch != "main":
			d.add("git", statusWarn, fmt.Sprintf("%s is on branch %q, not main", mem, branch), cli.UserLine("git", "-C", mem, "checkout", "main"))
		default:
			d.add("git", statusOK, mem+" is a git repository on main", "")
		}
	}
	if remote == "" {
		d.add("remote", statusOK, "none configured (local only)", "")
		return
	}
	shown := gitsync.MaskURL(remote)
	heads, err := gitsync.RemoteHeads(ctx, remote, d.timeout)
	if err != nil {
		fix := gitsync.RemoteFix(err.Error())
		if fix == "" {
			fix = "check the URL, the network and your ssh key"
		}
		d.add("remote", statusFail, fmt.Sprintf("%s is not reachable (%v); new notes stay committed locally until it is", shown, err),
			fix+"; to change it: anamnesis init --remote URL (or --local-only)")
		return
	}
	d.remoteState(shown, heads)
}

// remoteState reports a reachable remote: one whose branches do not include
// main (Anamnesis syncs main; notes on another branch are never merged),
// and a last sync that failed for a reason RemoteFix knows (a remote that
// is not bare answers ls-remote and refuses only the push).
func (d *doctor) remoteState(shown string, heads []string) {
	if len(heads) > 0 && !slices.Contains(heads, "main") {
		d.add("remote", statusWarn, fmt.Sprintf("%s is reachable but has no main branch (it has %s); Anamnesis syncs main, so notes on those branches are not merged",
			shown, strings.Join(heads, ", ")), "if that branch holds the notes, rename it on the host: git -C PATH branch -m "+heads[0]+" main (a bare repository made without -b main starts on master); if it is another project's repository, use a new one: git init --bare -b main")
		return
	}
	if last := gitsync.Last(d.p.Home); last != nil && last.Error != "" {
		if fix := gitsync.RemoteFix(last.Error); fix != "" {
			d.add("remote", statusFail, fmt.Sprintf("%s is reachable, but the last sync (%s) failed: %s", shown, last.At, last.Error), fix)
			return
		}
	}
	d.add("remote", statusOK, shown+" reachable", "")
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
