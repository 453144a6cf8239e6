package summary

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// Limits of the whole-session note (SPEC 5): every request with its own
// outcome, the files, the commands and the failures, within MaxBody.
const (
	// MaxBody caps a heuristic note's body; past it, asks and outcomes
	// are clipped shorter and, last, middle requests are folded.
	MaxBody = 3500
	// MaxListedCommands and MaxListedFailures bound those lists.
	MaxListedCommands = 12
	MaxListedFailures = 6
	maxCommandShown   = 160
	maxFailureShown   = 200
)

// request is one ask and its outcome, as the note shows them.
type request struct {
	ask, outcome string
	work         int
}

// digest is what a heuristic note says, before it is laid out: built from a
// transcript, or read back from an earlier note of the same session so a
// resumed session adds to it.
type digest struct {
	requests   []request
	branch     string
	files      []string
	filesTotal int
	commands   []string // rendered lines, most telling first
	failures   []string // rendered lines
}

// Labels of the note's parts; ParseBody reads them back.
const (
	labelAsk      = "**Ask:** "
	labelOutcome  = "**Outcome:** "
	labelBranch   = "**Branch:** "
	labelFiles    = "**Files touched ("
	labelCommands = "**Commands run:**"
	labelFailures = "**Errors hit:**"
	labelRequests = "**Requests ("
)

func newDigest(s *transcript.Session) (digest, []string) {
	// Everything the digest shows passes the redactor first, all at once.
	var texts []string
	for _, r := range s.Requests {
		texts = append(texts, r.Prompt, r.Outcome)
	}
	if len(s.Requests) == 0 {
		texts = append(texts, s.FirstPrompt, s.LastOutcome)
	}
	commands := tellingFirst(s.Commands)
	for _, c := range commands {
		texts = append(texts, c.Text)
	}
	for _, f := range s.Failures {
		texts = append(texts, f.Command, f.Error)
	}
	clean, kinds := redact.All(texts)
	red := func() string {
		t := strings.TrimSpace(clean[0])
		clean = clean[1:]
		return t
	}
	d := digest{branch: s.GitBranch, files: s.Files, filesTotal: s.FilesTotal}
	seen := map[string]int{}
	for _, r := range s.Requests {
		q := request{ask: red(), outcome: red(), work: r.Work}
		k := foldKey(q.ask)
		if i, ok := seen[k]; ok {
			// A near-duplicate (the same request typed again): one entry,
			// with the later answer.
			if q.outcome != "" {
				d.requests[i].outcome = q.outcome
			}
			d.requests[i].work += q.work
			continue
		}
		seen[k] = len(d.requests)
		d.requests = append(d.requests, q)
	}
	if len(s.Requests) == 0 {
		if ask, out := red(), red(); s.FirstPrompt != "" || s.LastOutcome != "" {
			d.requests = []request{{ask: ask, outcome: out}}
		}
	}
	for range commands {
		d.commands = append(d.commands, "- `"+oneLine(red(), maxCommandShown)+"`")
	}
	for _, f := range s.Failures {
		cmd, msg := red(), red()
		d.failures = append(d.failures, failureLine(cmd, msg, f.Fixed))
	}
	d.failures = slices.Compact(d.failures)
	return d, kinds
}

func failureLine(cmd, msg string, fixed bool) string {
	l := "- `" + oneLine(cmd, maxCommandShown) + "`"
	if msg != "" {
		l += ": " + oneLine(msg, maxFailureShown)
	}
	if fixed {
		return l + " (fixed: a later run passed)"
	}
	return l + " (still failing at the end)"
}

// foldKey is a prompt's words, lower-cased: two prompts with the same key
// are one request typed twice.
func foldKey(p string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(p), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// oneLine joins a text's lines and clips it.
func oneLine(s string, n int) string { return Clip(strings.Join(strings.Fields(s), " "), n) }

// exploring are the programs that only look around (list, read, search,
// show status): a note lists them after those that built, tested, ran or
// changed something, which are what a later session wants to repeat.
var exploring = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "grep": true, "rg": true, "find": true,
	"pwd": true, "echo": true, "wc": true, "which": true, "tree": true, "less": true, "file": true,
	"stat": true, "du": true, "df": true, "sed": true, "awk": true, "sort": true, "diff": true,
}

// tellingFirst orders commands by what they tell a later session: ones
// that failed and were fixed, then ones that ran more than once (a test or
// build loop), then any that changed or checked something, and the ones
// that only looked around last; first-run order within each.
func tellingFirst(cmds []transcript.Command) []transcript.Command {
	score := func(c transcript.Command) int {
		s := 0
		if c.Failed {
			s += 4
		}
		if c.Runs > 1 {
			s += 2
		}
		w := append(transcript.ProgramWords(c.Text), "")
		if exploring[w[0]] || (w[0] == "git" && len(w) > 1 && slices.Contains([]string{"status", "log", "diff", "show", "branch"}, w[1])) {
			s -= 8
		}
		return s
	}
	out := slices.Clone(cmds)
	slices.SortStableFunc(out, func(a, b transcript.Command) int { return score(b) - score(a) })
	return out
}

// main is the request the session was about: the one that edited files or
// ran commands the most, the first among equals; without any work, the
// first request that is more than a few words, else the first.
func (d digest) main() request {
	if len(d.requests) == 0 {
		return request{}
	}
	best := 0
	for i, r := range d.requests {
		if r.work > d.requests[best].work {
			best = i
		}
	}
	if d.requests[best].work > 0 {
		return d.requests[best]
	}
	for _, r := range d.requests {
		if len(strings.Fields(r.ask)) > 3 {
			return r
		}
	}
	return d.requests[0]
}

// render lays the digest out. A session of one request keeps the seed's
// layout (Ask, Branch and files, Outcome); several requests are listed in
// order, each with its outcome, then the branch and files. Commands and
// errors follow. Over MaxBody, asks and outcomes are clipped shorter, and
// at last the middle requests are folded into a count.
func (d digest) render() string {
	if len(d.requests) <= 1 {
		var ask, out string
		if len(d.requests) == 1 {
			ask, out = d.requests[0].ask, d.requests[0].outcome
		}
		return d.withLists(Body(ask, d.branch, d.files, d.filesTotal, out))
	}
	limits := []struct{ ask, out, keep int }{{MaxLen, MaxLen, 0}, {300, 400, 0}, {200, 250, 0}, {120, 160, 0}, {120, 160, 12}}
	for _, lim := range limits {
		if list, ok := d.requestList(lim.ask, lim.out, lim.keep, true); ok {
			if body := d.withLists(list + d.meta()); utf8.RuneCountInString(body) <= MaxBody {
				return body
			}
		}
	}
	list, _ := d.requestList(100, 120, 6, false)
	return Clip(d.withLists(list+d.meta()), MaxBody)
}

// requestList lists the requests; keep > 0 keeps the first and last
// keep/2 and folds those between. With bounded, it gives up (false) as
// soon as the list alone is over MaxBody: a long session's digest is laid
// out again with shorter clips, and its long tries need not be finished.
func (d digest) requestList(askMax, outMax, keep int, bounded bool) (string, bool) {
	var b strings.Builder
	runes := 0
	fmt.Fprintf(&b, "%s%d):**", labelRequests, len(d.requests))
	for i, r := range d.requests {
		if bounded && runes > MaxBody {
			return "", false
		}
		if keep > 0 && i == keep/2 && len(d.requests) > keep {
			fmt.Fprintf(&b, "\n\n… %d more requests", len(d.requests)-keep)
		}
		if keep > 0 && len(d.requests) > keep && i >= keep/2 && i < len(d.requests)-keep/2 {
			continue
		}
		ask := Clip(r.ask, askMax)
		if ask == "" {
			ask = "(no user prompt captured)"
		}
		out := Clip(r.outcome, outMax)
		if out == "" {
			out = "(no assistant output captured)"
		}
		fmt.Fprintf(&b, "\n\n**%d. Ask:** %s\n%s%s", i+1, ask, labelOutcome, out)
		runes += utf8.RuneCountInString(ask) + utf8.RuneCountInString(out)
	}
	return b.String(), true
}

// meta is the Branch line and the file list, as a block after the requests.
func (d digest) meta() string {
	// Body lays these out; take its middle block.
	full := Body("x", d.branch, d.files, d.filesTotal, "x")
	blocks := strings.Split(full, "\n\n")
	if len(blocks) == 3 {
		return "\n\n" + blocks[1]
	}
	return ""
}

func (d digest) withLists(body string) string {
	if len(d.commands) > 0 {
		lines := d.commands
		if len(lines) > MaxListedCommands {
			lines = append(slices.Clone(lines[:MaxListedCommands]), "- … and "+strconv.Itoa(len(d.commands)-MaxListedCommands)+" more")
		}
		body += "\n\n" + labelCommands + "\n" + strings.Join(lines, "\n")
	}
	if len(d.failures) > 0 {
		lines := d.failures
		if len(lines) > MaxListedFailures {
			lines = append(slices.Clone(lines[:MaxListedFailures]), "- … and "+strconv.Itoa(len(d.failures)-MaxListedFailures)+" more")
		}
		body += "\n\n" + labelFailures + "\n" + strings.Join(lines, "\n")
	}
	return body
}

// parseBody reads back the digest of a heuristic note (either layout);
// what it does not recognise is left out.
func parseBody(body string) digest {
	var d digest
	section := ""
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, labelAsk):
			d.requests = append(d.requests, request{ask: strings.TrimPrefix(t, labelAsk)})
			section = ""
		case strings.HasPrefix(t, "**") && strings.Contains(t, ". Ask:** "):
			_, ask, _ := strings.Cut(t, ". Ask:** ")
			d.requests = append(d.requests, request{ask: ask})
			section = ""
		case strings.HasPrefix(t, labelOutcome) && len(d.requests) > 0:
			d.requests[len(d.requests)-1].outcome = strings.TrimPrefix(t, labelOutcome)
			section = "outcome"
		case strings.HasPrefix(t, labelBranch):
			d.branch = strings.TrimPrefix(t, labelBranch)
		case strings.HasPrefix(t, labelFiles):
			section = "files"
		case t == labelCommands:
			section = "commands"
		case t == labelFailures:
			section = "failures"
		case strings.HasPrefix(t, labelRequests), t == "":
			if t == "" && section == "outcome" {
				section = ""
			}
		case strings.HasPrefix(t, "- … and ") || strings.HasPrefix(t, "… "):
		case strings.HasPrefix(t, "- ") && section == "files":
			d.files = append(d.files, strings.TrimPrefix(t, "- "))
		case strings.HasPrefix(t, "- ") && section == "commands":
			d.commands = append(d.commands, t)
		case strings.HasPrefix(t, "- ") && section == "failures":
			d.failures = append(d.failures, t)
		case section == "outcome" && len(d.requests) > 0:
			// An outcome of several lines.
			r := &d.requests[len(d.requests)-1]
			r.outcome += "\n" + line
		}
	}
	d.filesTotal = len(d.files)
	return d
}

// addTo puts what an earlier note of the session held and this capture no
// longer sees (a resumed session whose transcript starts afresh) before
// what it sees: requests by their words, files, commands and failures by
// their text.
func (d digest) addTo(old digest) digest {
	have := map[string]bool{}
	for _, r := range d.requests {
		have[askKey(r.ask)] = true
	}
	var reqs []request
	for _, r := range old.requests {
		if r.ask != "(no user prompt captured)" && !have[askKey(r.ask)] {
			reqs = append(reqs, r)
		}
	}
	d.requests = append(reqs, d.requests...)
	if d.branch == "" {
		d.branch = old.branch
	}
	extra := 0
	files := slices.Clone(d.files)
	for _, f := range old.files {
		if !slices.Contains(files, f) {
			files = append(files, f)
			extra++
		}
	}
	d.files, d.filesTotal = files, max(d.filesTotal, len(d.files)-extra)+extra
	d.commands = union(d.commands, old.commands)
	d.failures = union(d.failures, old.failures)
	return d
}

// askKey compares an ask as a note clips it: its first words.
func askKey(ask string) string {
	k := foldKey(strings.TrimSuffix(ask, "…"))
	if len(k) > 80 {
		k = k[:80]
	}
	return k
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// Update is the heuristic note of s added to the body of the note an
// earlier capture of the same session wrote: requests, files, commands and
// errors the earlier part held and this transcript does not are kept.
func Update(oldBody string, s *transcript.Session) Result {
	d, kinds := newDigest(s)
	d = d.addTo(parseBody(oldBody))
	return Result{Title: Title(d.main().ask), Body: d.render(), Redacted: kinds}
}
