// Package transcripttest writes Claude Code transcripts in the shape the
// real CLI writes them (testdata/fixtures/claude-code): queue operations,
// prompt lines, assistant lines with tool calls, tool results with
// toolUseResult, last-prompt records, compaction boundaries and summaries.
// Tests and the coding-memory benchmark build sessions with it.
package transcripttest

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Builder accumulates the lines of one session's transcript.
type Builder struct {
	SessionID, Cwd, Branch string
	now                    time.Time
	parent                 string
	promptID               string
	seq                    int
	lines                  []string
	lastPrompt             string
}

// New starts a session at start.
func New(sessionID, cwd, branch string, start time.Time) *Builder {
	return &Builder{SessionID: sessionID, Cwd: cwd, Branch: branch, now: start.UTC()}
}

func (b *Builder) id(kind string) string {
	b.seq++
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%s/%d", b.SessionID, kind, b.seq)))
	h := fmt.Sprintf("%x", sum[:16])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func (b *Builder) tick(d time.Duration) string {
	b.now = b.now.Add(d)
	return b.now.Format("2006-01-02T15:04:05.000Z")
}

func (b *Builder) emit(v map[string]any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	b.lines = append(b.lines, string(data))
}

func (b *Builder) common(v map[string]any) map[string]any {
	v["userType"] = "external"
	v["entrypoint"] = "cli"
	v["cwd"] = b.Cwd
	v["sessionId"] = b.SessionID
	v["version"] = "2.1.330"
	v["gitBranch"] = b.Branch
	return v
}

// Prompt is the user typing text; gap is the time since the last line.
func (b *Builder) Prompt(gap time.Duration, text string) *Builder {
	ts := b.tick(gap)
	b.emit(map[string]any{"type": "queue-operation", "operation": "enqueue", "timestamp": ts, "sessionId": b.SessionID, "content": text})
	b.emit(map[string]any{"type": "queue-operation", "operation": "dequeue", "timestamp": ts, "sessionId": b.SessionID})
	b.promptID = b.id("prompt")
	u := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": nullable(b.parent), "isSidechain": false, "promptId": b.promptID, "type": "user",
		"message": map[string]any{"role": "user", "content": text}, "uuid": u, "timestamp": ts, "permissionMode": "acceptEdits"}))
	b.parent = u
	b.lastPrompt = text
	b.emit(b.common(map[string]any{"parentUuid": u, "isSidechain": false, "type": "attachment", "uuid": b.id("uuid"), "timestamp": ts,
		"attachment": map[string]any{"type": "date", "date": b.now.Format("2006-01-02")}}))
	return b
}

func (b *Builder) assistant(content []any, stop string) string {
	u := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": nullable(b.parent), "isSidechain": false, "type": "assistant", "uuid": u, "timestamp": b.tick(1500 * time.Millisecond),
		"message": map[string]any{"id": "msg_" + b.id("msg")[:12], "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": content,
			"stop_reason": stop, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}}))
	b.parent = u
	return u
}

// Say is an assistant text reply (the outcome when it is the last).
func (b *Builder) Say(text string) *Builder {
	b.assistant([]any{map[string]any{"type": "text", "text": text}}, "end_turn")
	b.emit(map[string]any{"type": "last-prompt", "lastPrompt": b.lastPrompt, "leafUuid": b.parent, "sessionId": b.SessionID})
	return b
}

// Tool is a tool call and its result. input is the tool's input; result
// its output; isErr marks a failed call (a command's non-zero exit).
func (b *Builder) Tool(name string, input map[string]any, result string, isErr bool) *Builder {
	id := "toolu_" + strings.ReplaceAll(b.id("tool"), "-", "")[:24]
	a := b.assistant([]any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}, "tool_use")
	u := b.id("uuid")
	res := map[string]any{"tool_use_id": id, "type": "tool_result", "content": result}
	if name == "Bash" {
		res["is_error"] = isErr
	}
	var tur any = map[string]any{"type": "text"}
	switch name {
	case "Bash":
		tur = map[string]any{"stdout": result, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
		if isErr {
			tur = "Error: " + result
		}
	case "Write":
		tur = map[string]any{"type": "create", "filePath": input["file_path"], "content": input["content"], "structuredPatch": []any{}, "originalFile": nil, "userModified": false}
	case "Edit":
		tur = map[string]any{"filePath": input["file_path"], "oldString": input["old_string"], "newString": input["new_string"], "userModified": false, "replaceAll": false}
	}
	b.emit(b.common(map[string]any{"parentUuid": a, "isSidechain": false, "promptId": b.promptID, "type": "user",
		"message": map[string]any{"role": "user", "content": []any{res}}, "uuid": u, "timestamp": b.tick(300 * time.Millisecond),
		"toolUseResult": tur, "sourceToolAssistantUUID": a}))
	b.parent = u
	return b
}

// Bash runs a shell command with its output; failed marks a non-zero exit.
func (b *Builder) Bash(cmd, output string, failed bool) *Builder {
	if failed {
		output = "Exit code 1\n" + output
	}
	return b.Tool("Bash", map[string]any{"command": cmd, "description": "Run " + strings.Fields(cmd + " x")[0]}, output, failed)
}

// Edit changes a file.
func (b *Builder) Edit(path, old, new string) *Builder {
	return b.Tool("Edit", map[string]any{"file_path": path, "old_string": old, "new_string": new, "replace_all": false},
		"The file "+path+" has been updated successfully.", false)
}

// Write creates a file.
func (b *Builder) Write(path, content string) *Builder {
	return b.Tool("Write", map[string]any{"file_path": path, "content": content}, "File created successfully at: "+path, false)
}

// Read reads a file.
func (b *Builder) Read(path, content string) *Builder {
	return b.Tool("Read", map[string]any{"file_path": path}, content, false)
}

// Compact is a /compact: the command wrappers, the boundary and the
// summary line Claude Code writes, none of which is a prompt.
func (b *Builder) Compact(summary string) *Builder {
	ts := b.tick(2 * time.Second)
	bound := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": nil, "logicalParentUuid": b.parent, "isSidechain": false, "type": "system", "subtype": "compact_boundary",
		"content": "Conversation compacted", "isMeta": false, "timestamp": ts, "uuid": bound, "level": "info", "compactMetadata": map[string]any{"trigger": "manual"}}))
	sum := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": bound, "isSidechain": false, "type": "user", "isCompactSummary": true, "isVisibleInTranscriptOnly": true,
		"message": map[string]any{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n" + summary},
		"uuid":    sum, "timestamp": ts}))
	meta := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": sum, "isSidechain": false, "type": "user", "isMeta": true, "uuid": meta, "timestamp": ts,
		"message": map[string]any{"role": "user", "content": "<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request, and its output is shown to you for context. DO NOT respond to these messages.</local-command-caveat>"}}))
	cmd := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": meta, "isSidechain": false, "type": "user", "uuid": cmd, "timestamp": ts,
		"message": map[string]any{"role": "user", "content": "<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>"}}))
	out := b.id("uuid")
	b.emit(b.common(map[string]any{"parentUuid": cmd, "isSidechain": false, "type": "user", "uuid": out, "timestamp": ts,
		"message": map[string]any{"role": "user", "content": "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>"}}))
	b.parent = out
	return b
}

// Pause moves the clock (a session resumed the next day).
func (b *Builder) Pause(d time.Duration) *Builder { b.tick(d); return b }

// Lines is how many lines were written so far.
func (b *Builder) Lines() int { return len(b.lines) }

// JSONL is the transcript: one JSON object a line.
func (b *Builder) JSONL() string { return strings.Join(b.lines, "\n") + "\n" }

// From is the transcript from line i on (what a new file of a resumed
// session would hold).
func (b *Builder) From(i int) string { return strings.Join(b.lines[i:], "\n") + "\n" }

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
