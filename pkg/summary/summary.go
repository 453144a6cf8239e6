// Package summary turns a parsed session into the title and body of an
// episodic note: the free trivial-session gate, the deterministic heuristic
// of seed 001, and an optional OpenAI-compatible LLM summarizer that falls
// back to the heuristic on any failure.
package summary

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// Thresholds from the seed's capture.py.
const (
	TrivialOutcomeFloor = 40  // _TRIVIAL_OUTCOME_FLOOR
	MaxLen              = 600 // _MAX_LEN, the clip for Ask and Outcome
	MaxTitle            = 80
	// MaxListedFiles bounds the file list in a note; a session that touched
	// hundreds of files gets a count for the rest rather than a wall of paths.
	MaxListedFiles = 50

	// A session that touched no file is chatter ("hello" and a greeting
	// back) when all its prompts together are at most ChatterPromptMax
	// characters and prompts plus outcome are under ChatterTotalMax. From
	// the fixtures (testdata/fixtures/claude-code): the "hello" session is
	// 5 + 49 = 54 characters; the shortest real ask without an edit ("Use a
	// subagent to list the routes") is 33 on its own. 24 covers greetings
	// and thanks ("good morning", "thanks, that's all") and stays under any
	// ask; 120, over twice the greeting's total, keeps a short question with
	// a substantive answer.
	ChatterPromptMax = 24
	ChatterTotalMax  = 120
)

// Result is a summary ready to become a note.
type Result struct {
	Title string
	Body  string
	Model string // prov_model: "" for the heuristic, "<provider>/<model>" for an LLM
	// Redacted names the kinds of secret removed from the session's text.
	Redacted []string
}

// Trivial is the seed's free gate: a session that touched a file is always
// kept; otherwise it is skipped when it has neither prompt nor outcome, no
// prompt and a tiny outcome, or only a slash command and a tiny outcome.
// On top of the seed it skips chatter (see ChatterPromptMax): such a note
// says nothing and would take an episodic slot of the session-start block.
// reason says why, for the printed line and the log.
func Trivial(s *transcript.Session) (skip bool, reason string) {
	if s.FilesTotal > 0 {
		return false, ""
	}
	prompt := strings.TrimSpace(s.FirstPrompt)
	outcome := strings.TrimSpace(s.LastOutcome)
	tiny := utf8.RuneCountInString(outcome) < TrivialOutcomeFloor
	switch {
	case s.SlashOnly() && tiny:
		return true, "only slash commands (" + strings.Join(firstN(s.SlashCommands, 3), " ") + ") and no real assistant output"
	case prompt == "" && outcome == "":
		return true, "no user prompt and no assistant output"
	case prompt == "" && tiny:
		return true, fmt.Sprintf("no user prompt and under %d characters of assistant output", TrivialOutcomeFloor)
	case isSlash(prompt) && tiny:
		return true, "a lone slash command (" + prompt + ") and no real assistant output"
	}
	prompts := s.Prompts
	if len(prompts) == 0 && prompt != "" {
		prompts = []string{prompt}
	}
	asked := 0
	for _, p := range prompts {
		asked += utf8.RuneCountInString(strings.TrimSpace(p))
	}
	// A slash command's output is its content: the seed's rule above decides it.
	if len(prompts) > 0 && !isSlash(prompt) && s.PromptCount <= len(prompts) && asked <= ChatterPromptMax && asked+utf8.RuneCountInString(outcome) < ChatterTotalMax {
		return true, fmt.Sprintf("short chatter: no file touched, %d characters of prompts and %d of assistant output", asked, utf8.RuneCountInString(outcome))
	}
	return false, ""
}

func isSlash(p string) bool {
	return len(p) > 1 && p[0] == '/' && !strings.ContainsAny(p, " \t\r\n")
}

func firstN(ss []string, n int) []string {
	if len(ss) > n {
		return ss[:n]
	}
	return ss
}

// Heuristic is the deterministic summary. Secrets are redacted before
// anything is clipped, so a cut can never leave half a token behind that the
// redactor would no longer recognise.
//
// The note carries the whole session (SPEC 5): a session of one request
// keeps the seed's layout; several are each listed with their own outcome;
// the commands run and the errors hit follow. The title names the main
// request.
func Heuristic(s *transcript.Session) Result {
	d, kinds := newDigest(s)
	return Result{Title: Title(d.main().ask), Body: d.render(), Redacted: kinds}
}

// Title is the first line of the prompt, or "Session summary" when there is
// no prompt. A line over 80 characters is cut at the last word that fits and
// ends with "…" (80 characters in all), so a title never ends mid-word
// without saying it was cut; a single word longer than that is cut inside.
func Title(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	line = strings.TrimSpace(line)
	if line == "" {
		return "Session summary"
	}
	if utf8.RuneCountInString(line) <= MaxTitle {
		return line
	}
	cut := cutRunes(line, MaxTitle-1)
	if next, _ := utf8.DecodeRuneInString(line[len(cut):]); !unicode.IsSpace(next) {
		// Back up to the last space, unless that would drop most of the line.
		if i := strings.LastIndexFunc(cut, unicode.IsSpace); i >= MaxTitle/2 {
			cut = cut[:i]
		}
	}
	return strings.TrimRightFunc(cut, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:-", r) }) + "…"
}

// Body lays out Ask, Branch, Files touched and Outcome exactly as the
// reference does: blocks separated by a blank line, the Branch line and the
// file list sharing one block.
func Body(prompt, branch string, files []string, filesTotal int, outcome string) string {
	ask := Clip(prompt, MaxLen)
	if ask == "" {
		ask = "(no user prompt captured)"
	}
	out := Clip(outcome, MaxLen)
	if out == "" {
		out = "(no assistant output captured)"
	}
	blocks := []string{"**Ask:** " + ask}
	var meta []string
	if branch != "" {
		meta = append(meta, "**Branch:** "+branch)
	}
	if filesTotal < len(files) {
		filesTotal = len(files)
	}
	if filesTotal > 0 {
		meta = append(meta, fmt.Sprintf("**Files touched (%d):**", filesTotal))
		for i, f := range files {
			if i == MaxListedFiles {
				break
			}
			meta = append(meta, "- "+f)
		}
		if rest := filesTotal - min(len(files), MaxListedFiles); rest > 0 {
			meta = append(meta, fmt.Sprintf("- … and %d more", rest))
		}
	}
	if len(meta) > 0 {
		blocks = append(blocks, strings.Join(meta, "\n"))
	}
	blocks = append(blocks, "**Outcome:** "+out)
	return strings.Join(blocks, "\n\n")
}

// Clip trims s and cuts it to at most n characters, ending a cut with "…".
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimRight(cutRunes(s, n-1), " \t\r\n") + "…"
}

func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
