package inject

import (
	"context"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// teamSection is section for a team's note: the heading carries its team
// and author.
func teamSection(n *note.Note) string {
	c := *n
	c.Title += " " + n.Attribution()
	return section(&c)
}

// teamNotes are the notes of the teams this home joined that belong in
// project's block (config.Team.Shows), held ones never: newest durable
// notes first, then the newest episodics, k at most.
func teamNotes(ctx context.Context, st *store.Store, project string, k int) ([]*note.Note, error) {
	f, _ := config.Load(st.Home())
	if f == nil || k <= 0 {
		return nil, nil
	}
	var durable, episodic []*note.Note
	for _, t := range f.Teams() {
		projects := []string{project}
		if project != note.Global && t.Shows(project, note.Global) {
			projects = append(projects, note.Global)
		}
		for _, p := range projects {
			// The notes kept are read whole when rendered (author included).
			ns, err := st.ListIndexed(ctx, store.Filter{Team: t.Name, Project: p, Limit: k + maxEpisodic})
			if err != nil {
				return nil, err
			}
			for _, n := range ns {
				if n.Type == note.Episodic {
					episodic = append(episodic, n)
				} else {
					durable = append(durable, n)
				}
			}
		}
	}
	newest := func(a, b *note.Note) int { return strings.Compare(b.UpdatedAt, a.UpdatedAt) }
	slices.SortStableFunc(durable, newest)
	slices.SortStableFunc(episodic, newest)
	out := append(durable[:min(len(durable), k)], episodic[:min(len(episodic), maxEpisodic)]...)
	return out[:min(len(out), k)], nil
}

// withTeams adds the team notes to a rendered personal block: after the
// personal notes, within at most a quarter of maxChars while personal notes
// were left out, and in whatever room they left otherwise (SPEC 18).
// personal is rendered by renderPersonal with the budget it is given; then
// unsaid, given the personal block, keeps the team sections it does not
// repeat.
func withTeams(teamSecs []rendered, maxChars int, renderPersonal func(budget int) (string, error), unsaid func(personal string, secs []rendered) []rendered) (string, int, error) {
	need := 0
	for _, r := range teamSecs {
		need += hook.Width(r.text)
	}
	budget := maxChars
	if maxChars > 0 {
		budget = maxChars - min(need+1, maxChars/4)
	}
	personal, err := renderPersonal(budget)
	if err != nil {
		return "", 0, err
	}
	teamSecs = unsaid(personal, teamSecs)
	head := personal
	if head == "" {
		head = Lead + "\n"
	}
	room := 0
	if maxChars > 0 {
		room = maxChars - hook.Width(head) - 1 // the blank line before the team's notes
	}
	kept, cut := teamSecs, 0
	if maxChars > 0 {
		i := 0
		next := func() (rendered, bool) {
			if i >= len(teamSecs) {
				return rendered{}, false
			}
			i++
			return teamSecs[i-1], true
		}
		gone := 0
		kept, cut, _ = fill(next, room, false, &gone)
	}
	if len(kept) == 0 {
		return personal, 0, nil
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("\n")
	for _, r := range kept {
		b.WriteString(r.text)
	}
	return strings.TrimRightFunc(b.String(), pySpace) + "\n", cut, nil
}

// unsaidBy keeps the team sections (of notes team, in order) that say
// something neither a personal note shown in block nor an earlier team note
// says: a note this person shared with a team (the team's copy has its
// title and body) or one copied into two teams is shown once, not twice in
// every session.
func unsaidBy(block string, loaded, team []*note.Note, secs []rendered) []rendered {
	said := map[string]bool{}
	for _, id := range shownIDs(block, loaded) {
		for _, n := range loaded {
			if n.ID == id && n.Team == "" {
				said[n.TextKey()] = true
			}
		}
	}
	byID := map[string]*note.Note{}
	for _, n := range team {
		byID[n.ID] = n
	}
	var out []rendered
	for _, r := range secs {
		n := byID[r.id]
		if n == nil {
			out = append(out, r)
			continue
		}
		if k := n.TextKey(); !said[k] {
			said[k] = true
			out = append(out, r)
		}
	}
	return out
}
