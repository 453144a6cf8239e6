// Package transcript reads a Claude Code session transcript (JSONL) into the
// few facts a session note needs: what the user asked, what the assistant
// concluded, which files were edited, and where.
//
// Real transcripts hold many line kinds besides messages (attachments, queue
// operations, API request blobs that look like messages but are not), and
// user lines that are not prompts (tool results, command wrappers, compaction
// summaries, meta lines, subagent sidechains). Parse keeps only what a person
// typed as a prompt. It streams: memory stays bounded by MaxLine whatever the
// file's size, and no line, however malformed or long, stops the parse.
package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/input"
)

// Limits that keep memory bounded on hostile or enormous transcripts.
const (
	// MaxLine is the longest line decoded; longer lines (huge tool results,
	// pasted images) are skipped without being held in memory.
	MaxLine = 8 << 20
	// MaxText caps each kept text (prompt, outcome); the note clips far
	// shorter, the LLM summarizer reads a little more.
	MaxText = 16 << 10
	// MaxPrompts is how many prompts are kept for the LLM summarizer.
	MaxPrompts = 32
	// MaxFiles caps the distinct files remembered; FilesTotal keeps counting.
	MaxFiles = 1000
	// MaxRequests caps the requests kept with their outcomes.
	MaxRequests = 64
	// MaxCommands caps the distinct shell commands remembered.
	MaxCommands = 200
	// MaxFailures caps the failed commands remembered.
	MaxFailures = 50
	// maxCommand and maxError clip a command and an error message.
	maxCommand = 400
	maxError   = 400
)

// editTools name the tools whose input names a file the session changed.
var editTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}

// Session is what Parse extracts from one transcript.
type Session struct {
	SessionID string // first sessionId seen
	Cwd       string // first cwd seen
	GitBranch string // first gitBranch seen
	Started   string // first timestamp seen (RFC 3339), e.g. to date the session

	FirstPrompt string   // first real prompt (the ask); "" if none
	Prompts     []string // real prompts in order, at most MaxPrompts
	PromptCount int      // all real prompts, including those not kept

	// SlashCommands lists the slash commands the user ran (e.g. "/usage"),
	// at most MaxPrompts; a session with commands but no prompts is a
	// slash-command session for the trivial gate.
	SlashCommands []string

	LastOutcome string // last non-empty assistant text

	// Requests are the real prompts in order, each with the outcome the
	// assistant gave it (its last text before the next request); at most
	// MaxRequests.
	Requests []Request
	// Commands are the shell commands (Bash) that ran, deduplicated, in
	// first-run order; at most MaxCommands.
	Commands []Command
	// Failures are the shell commands that failed, in order, each marked
	// fixed when the same command later succeeded; at most MaxFailures.
	Failures []Failure

	Files      []string // edited files, first-seen order, deduplicated, at most MaxFiles
	FilesTotal int      // distinct edited files, including those not kept

	Lines        int // lines read
	BadLines     int // lines that were not JSON objects
	SkippedLines int // lines over MaxLine, skipped
}

// Request is one prompt of the session and the answer it got.
type Request struct {
	Prompt  string
	Outcome string
	Time    string // the prompt's timestamp (RFC 3339)
	// Work counts the files edited and commands run for it.
	Work int
}

// Command is a distinct shell command the session ran.
type Command struct {
	Text   string
	Runs   int  // how many times it ran
	Failed bool // at least one run failed
	OK     bool // at least one run succeeded
}

// Failure is one failed run of a shell command.
type Failure struct {
	Command string
	Error   string // the most telling line of its output
	// Fixed is set when the same command (or the same program and
	// subcommand, e.g. "go test") succeeded later in the session.
	Fixed bool
	// Request is the index in Requests of the request it happened in.
	Request int
}

// SlashOnly reports whether the user ran slash commands and typed no prompt.
func (s *Session) SlashOnly() bool { return s.PromptCount == 0 && len(s.SlashCommands) > 0 }

// ParseFileContext parses the transcript at path until ctx is done. Only
// regular files are read, and opening never blocks: a FIFO named as the
// transcript would otherwise hang the hook past every deadline.
func ParseFileContext(ctx context.Context, path string) (*Session, error) {
	f, err := input.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseContext(ctx, f)
}

// ParseContext reads a transcript from r until ctx is done. Malformed lines
// are counted and skipped; the only errors are a read error and ctx's,
// returned with what was parsed so far.
func ParseContext(ctx context.Context, r io.Reader) (*Session, error) {
	return parse(ctx, r, false)
}

// parse is ParseContext; whole decodes every line in full (the reference
// skim is checked against).
func parse(ctx context.Context, r io.Reader, whole bool) (*Session, error) {
	s := &Session{}
	seen := &parseState{files: map[string]bool{}, tools: map[string]string{}, cmds: map[string]int{}, whole: whole}
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return s, err
			}
		}
		line, tooLong, err := readLine(br, buf[:0])
		buf = line
		if len(line) > 0 || tooLong {
			s.Lines++
			if tooLong {
				s.SkippedLines++
			} else {
				s.add(line, seen)
			}
		}
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		// Do not keep a large buffer alive after one big line.
		if cap(buf) > 1<<20 {
			buf = nil
		}
	}
}

// readLine appends the next line (without its newline) to buf. A line over
// MaxLine is consumed and discarded; tooLong reports it.
func readLine(br *bufio.Reader, buf []byte) (line []byte, tooLong bool, err error) {
	for {
		frag, e := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(frag) > MaxLine+1 {
				tooLong = true
				buf = buf[:0]
			} else {
				buf = append(buf, frag...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if n := len(buf); n > 0 && buf[n-1] == '\n' {
			buf = buf[:n-1]
		}
		return buf, tooLong, e
	}
}

// rawLine is the subset of a transcript line Parse reads. Fields not named
// here (tool result bodies, usage, request blobs) are skipped by the decoder
// without being allocated.
type rawLine struct {
	Type             string `json:"type"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	IsSidechain      bool   `json:"isSidechain"`
	IsAPIError       bool   `json:"isApiErrorMessage"`
	SessionID        string `json:"sessionId"`
	Cwd              string `json:"cwd"`
	GitBranch        string `json:"gitBranch"`
	Timestamp        string `json:"timestamp"`
	Origin           *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
	Message *struct {
		Model   string  `json:"model"`
		Content content `json:"content"`
	} `json:"message"`
}

type block struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Name  string `json:"name"`
	ID    string `json:"id"`
	Input *struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Command      string `json:"command"`
	} `json:"input"`
	// A tool_result's fields: which call it answers, whether it failed,
	// and its output (decoded only for a failure).
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// parseState is what Parse remembers between lines: the files and commands
// seen, and the shell command of each pending tool call.
type parseState struct {
	files map[string]bool
	tools map[string]string // tool_use id -> shell command
	cmds  map[string]int    // command text -> index in Session.Commands
	whole bool              // decode lines whole, without skim
}

// content is a message's content: a plain string or a list of blocks.
type content struct {
	str    string
	isStr  bool
	blocks []block
}

func (c *content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	switch b[0] {
	case '"':
		c.isStr = true
		return json.Unmarshal(b, &c.str)
	case '[':
		// A list with one malformed element should still yield the others.
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil
		}
		for _, r := range raw {
			var bl block
			if json.Unmarshal(r, &bl) == nil {
				c.blocks = append(c.blocks, bl)
			}
		}
	}
	// Any other shape (null, object, number) is treated as no content.
	return nil
}

// text joins the text blocks, the way the reference's _text_of does.
func (c *content) text() string {
	if c.isStr {
		return c.str
	}
	var parts []string
	for _, b := range c.blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// onlyToolResults reports a user line that carries tool output, not a prompt.
func (c *content) onlyToolResults() bool {
	if c.isStr || len(c.blocks) == 0 {
		return false
	}
	for _, b := range c.blocks {
		if b.Type != "tool_result" {
			return false
		}
	}
	return true
}

// wrapperPrefixes mark user-line text Claude Code writes itself: slash
// command records, local command output, background task notices, shell
// escapes, and interruption markers. None is a prompt.
var wrapperPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>",
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<task-notification>", "<system-reminder>",
	"<bash-input>", "<bash-stdout>", "<bash-stderr>",
	"<user-prompt-submit-hook>",
	"[Request interrupted by user",
	"Caveat: The messages below were generated by the user while running local commands",
}

func (s *Session) add(line []byte, st *parseState) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if line[0] != '{' {
		s.BadLines++
		return
	}
	var l rawLine
	dec := line
	var sk skimmed
	ok := false
	if !st.whole {
		sk, ok = skim(line)
	}
	if ok && sk.line != nil {
		dec = sk.line
	}
	if err := json.Unmarshal(dec, &l); err != nil {
		s.BadLines++
		return
	}
	if s.Started == "" {
		s.Started = l.Timestamp
	}
	// Only user and assistant lines are messages; api-request-blob and the
	// rest carry message-like content that is not part of the conversation.
	if l.Type != "user" && l.Type != "assistant" {
		return
	}
	if s.SessionID == "" {
		s.SessionID = l.SessionID
	}
	if s.Cwd == "" {
		s.Cwd = l.Cwd
	}
	if s.GitBranch == "" {
		s.GitBranch = l.GitBranch
	}
	// A sidechain is a subagent's conversation: its "prompt" is what the
	// main agent asked, not the user, and its edits are reported back.
	if l.IsSidechain || l.Message == nil {
		return
	}
	c := &l.Message.Content
	switch l.Type {
	case "user":
		s.results(c, st, &sk)
		if l.IsMeta || l.IsCompactSummary || c.onlyToolResults() {
			return
		}
		if l.Origin != nil && l.Origin.Kind == "task-notification" {
			return // a turn the harness started when a background task ended
		}
		text := strings.TrimSpace(c.text())
		if text == "" {
			return
		}
		if cmd, ok := slashCommand(text); ok {
			if len(s.SlashCommands) < MaxPrompts {
				s.SlashCommands = append(s.SlashCommands, cmd)
			}
			return
		}
		if isWrapper(text) {
			return
		}
		s.PromptCount++
		text = clip(text, MaxText)
		if s.FirstPrompt == "" {
			s.FirstPrompt = text
		}
		if len(s.Prompts) < MaxPrompts {
			s.Prompts = append(s.Prompts, text)
		}
		if len(s.Requests) < MaxRequests {
			s.Requests = append(s.Requests, Request{Prompt: text, Time: l.Timestamp})
		}
	case "assistant":
		if l.IsAPIError || l.Message.Model == "<synthetic>" {
			return // Claude Code's own placeholders, not the model's outcome
		}
		if text := strings.TrimSpace(c.text()); text != "" {
			s.LastOutcome = clip(text, MaxText)
			// Past MaxRequests the last kept request gets no later outcome:
			// its own answer came before the requests that were dropped.
			if n := len(s.Requests); n > 0 && n == s.PromptCount {
				s.Requests[n-1].Outcome = s.LastOutcome
			}
		}
		for _, b := range c.blocks {
			if n := len(s.Requests); n > 0 && n == s.PromptCount && b.Type == "tool_use" && (b.Name == "Bash" || editTools[b.Name]) {
				s.Requests[n-1].Work++
			}
			if b.Type == "tool_use" && b.Name == "Bash" && b.Input != nil && strings.TrimSpace(b.Input.Command) != "" {
				if len(st.tools) < 10*MaxCommands {
					st.tools[b.ID] = clip(strings.TrimSpace(b.Input.Command), maxCommand)
				}
				continue
			}
			if b.Type != "tool_use" || !editTools[b.Name] || b.Input == nil {
				continue
			}
			p := b.Input.FilePath
			if b.Name == "NotebookEdit" && b.Input.NotebookPath != "" {
				p = b.Input.NotebookPath
			}
			if p == "" || st.files[p] {
				continue
			}
			// Past MaxFiles the set stops growing (memory stays bounded) and
			// FilesTotal becomes a count of further edits, an upper bound.
			s.FilesTotal++
			if len(s.Files) < MaxFiles {
				st.files[p] = true
				s.Files = append(s.Files, p)
			}
		}
	}
}

// results records the outcome of the shell commands whose results a user
// line carries: each run counts, a failure is kept with its most telling
// line, and a success marks the earlier failures of that command fixed.
func (s *Session) results(c *content, st *parseState, sk *skimmed) {
	for _, b := range c.blocks {
		if b.Type != "tool_result" {
			continue
		}
		cmd, ok := st.tools[b.ToolUseID]
		if !ok {
			continue
		}
		delete(st.tools, b.ToolUseID)
		i, seen := st.cmds[cmd]
		if !seen {
			if len(s.Commands) == MaxCommands {
				continue
			}
			i = len(s.Commands)
			st.cmds[cmd] = i
			s.Commands = append(s.Commands, Command{Text: cmd})
		}
		s.Commands[i].Runs++
		if !b.IsError {
			s.Commands[i].OK = true
			for j := range s.Failures {
				if !s.Failures[j].Fixed && sameProgram(s.Failures[j].Command, cmd) {
					s.Failures[j].Fixed = true
				}
			}
			continue
		}
		s.Commands[i].Failed = true
		if len(s.Failures) < MaxFailures {
			s.Failures = append(s.Failures, Failure{Command: cmd, Error: errorLine(resultText(sk.result(b.Content))), Request: max(len(s.Requests)-1, 0)})
		}
	}
}

// resultText is a tool result's output: a string or a list of text blocks.
func resultText(raw json.RawMessage) string {
	var c content
	if c.UnmarshalJSON(raw) != nil {
		return ""
	}
	return c.text()
}

// errorLine picks the most telling lines of a failed command's output: the
// first two that name an error or failure (a test's FAIL line and its
// message), else the first that is not the exit-code line Claude Code puts
// first.
func errorLine(out string) string {
	var telling []string
	first := ""
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "Exit code ") {
			continue
		}
		if first == "" {
			first = l
		}
		low := strings.ToLower(l)
		for _, w := range []string{"error", "fail", "panic", "fatal", "cannot", "denied", "not found", "undefined", "refused", "timeout", "timed out", "exception"} {
			if strings.Contains(low, w) {
				telling = append(telling, l)
				break
			}
		}
		if len(telling) == 2 {
			break
		}
	}
	if len(telling) > 0 {
		return clip(strings.Join(telling, " / "), maxError)
	}
	if first == "" {
		first = strings.TrimSpace(out)
	}
	return clip(first, maxError)
}

// sameProgram reports whether two commands run the same program and
// subcommand ("go test ./x" and "go test ./..."): a later success of one
// shows the failure of the other was dealt with.
func sameProgram(a, b string) bool {
	if a == b {
		return true
	}
	fa, fb := ProgramWords(a), ProgramWords(b)
	return len(fa) > 0 && slices.Equal(fa, fb)
}

// ProgramWords are a command's program and first argument, after any
// "cd dir &&" and VAR=value prefixes.
func ProgramWords(cmd string) []string {
	if i := strings.LastIndex(cmd, "&&"); i >= 0 && strings.HasPrefix(strings.TrimSpace(cmd), "cd ") {
		cmd = cmd[i+2:]
	}
	var out []string
	for _, f := range strings.Fields(cmd) {
		if len(out) == 0 && strings.Contains(f, "=") {
			continue
		}
		out = append(out, f)
		if len(out) == 2 {
			break
		}
	}
	return out
}

// slashCommand recognises a slash command the user ran: Claude Code's
// <command-name>/x</command-name> record, or a bare "/x" prompt (the form the
// seed's gate was written for).
func slashCommand(text string) (string, bool) {
	if strings.HasPrefix(text, "<command-name>") {
		rest := text[len("<command-name>"):]
		if i := strings.Index(rest, "</command-name>"); i >= 0 {
			name := strings.TrimSpace(rest[:i])
			if name != "" && !strings.HasPrefix(name, "/") {
				name = "/" + name
			}
			return name, true
		}
		return "", false
	}
	if strings.HasPrefix(text, "<command-message>") {
		return "", false // handled as a wrapper; the name tag comes first
	}
	if strings.HasPrefix(text, "/") && !strings.ContainsAny(text, " \t\r\n") && len(text) > 1 {
		return text, true
	}
	return "", false
}

func isWrapper(text string) bool {
	for _, p := range wrapperPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// clip cuts s to at most n bytes on a rune boundary. A cut copy is cloned
// so it does not pin a multi-megabyte decoded string in memory.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}

// MergeFiles adds the files another transcript of the same session edited
// (a subagent's, which Claude Code keeps in its own file) after this one's.
func (s *Session) MergeFiles(o *Session) {
	seen := make(map[string]bool, len(s.Files))
	for _, f := range s.Files {
		seen[f] = true
	}
	for _, f := range o.Files {
		if seen[f] {
			continue
		}
		seen[f] = true
		s.FilesTotal++
		if len(s.Files) < MaxFiles {
			s.Files = append(s.Files, f)
		}
	}
}

// maxSubagents bounds how many subagent transcripts one session adds.
const maxSubagents = 100

// ParseSession parses a session's transcript and adds the files its
// subagents edited: Claude Code keeps each subagent's transcript beside the
// session's, as <session>/subagents/*.jsonl.
func ParseSession(ctx context.Context, path string) (*Session, error) {
	sess, err := ParseFileContext(ctx, path)
	if err != nil {
		return nil, err
	}
	dir := strings.TrimSuffix(path, ".jsonl")
	if dir == path {
		return sess, nil
	}
	subs, _ := filepath.Glob(filepath.Join(dir, "subagents", "*.jsonl"))
	for i, sp := range subs {
		if i == maxSubagents || ctx.Err() != nil {
			break
		}
		if sub, err := ParseFileContext(ctx, sp); err == nil {
			sess.MergeFiles(sub)
		}
	}
	return sess, nil
}
