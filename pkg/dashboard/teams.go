package dashboard

import (
	"context"
	"net/http"
	"os"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// config is this home's configuration as it is now: a team joined or left
// with the CLI while the dashboard runs shows at the next request.
func (s *Server) config() config.Config {
	cfg := config.Resolve(s.store.Home(), os.Getenv)
	cfg.MachineID = s.opt.MachineID
	return cfg
}

// teamNames are the teams this home joined.
func (s *Server) teamNames() []string {
	var out []string
	for _, t := range s.config().Teams {
		out = append(out, t.Name)
	}
	return out
}

// withAuthor fills a team note's author, which the index does not hold,
// from its file; a personal note is returned as is.
func (s *Server) withAuthor(ctx context.Context, n *note.Note) *note.Note {
	if n.Team == "" || n.Author != "" {
		return n
	}
	if full, err := s.store.Get(ctx, n.ID); err == nil {
		c := *n
		c.Author = full.Author
		return &c
	}
	return n
}

// share copies a personal note into a team (team.Share: a new note,
// redacted and screened again); the personal note is untouched.
func (s *Server) share(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	name := r.PostFormValue("team")
	if err := config.CheckTeamName(name); err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	n, _, _, ok := s.load(w, r, id)
	if !ok {
		return
	}
	var redacted []string
	c, err := team.Share(r.Context(), s.store, s.config(), n, name, store.Redacted(&redacted))
	if err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, "Not shared: "+err.Error())
		return
	}
	s.wrote()
	msg := "Shared a copy of “" + n.Title + "” with team " + name + ": the next sync pushes it to the team's remote."
	if held := team.HeldNotice(c); held != "" {
		msg = "Shared a copy of “" + n.Title + "” with team " + name + ", but " + held + "."
	}
	if len(redacted) > 0 {
		// A team's note never keeps a secret, kept in the personal note or not.
		msg += " Secrets were redacted from the copy (" + strings.Join(redacted, ", ") + "): the team's note holds [REDACTED] in their place; your note is unchanged."
	}
	setFlash(w, msg, false)
	redirect(w, r, "/notes/"+c.ID)
}

// teamRow is one joined team on the teams page.
type teamRow struct {
	config.Team
	URL string // masked
	// Proposals waiting on the team's remote (a team this person reviews:
	// one not in review mode themselves); Err when they could not be read.
	Proposals []gitsync.ProposalInfo
	Err       string
	Proposer  string // review mode: the branch this person's notes go to
	// Rewrite: a rewrite of the team's remote main a fetch found and no
	// sync has taken up yet (nil when none is).
	Rewrite *gitsync.Pending
}

// teams lists the joined teams and, for each team this person reviews, the
// proposals waiting on its remote as last fetched: a GET reaches no remote
// (a page of another origin can make a browser send one), the Fetch button
// posts to fetch.
func (s *Server) teams(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	cfg := s.config()
	var rows []teamRow
	for _, t := range cfg.Teams {
		tr := teamRow{Team: t, URL: gitsync.MaskURL(t.URL), Rewrite: gitsync.RewritePending(ctx, s.store.TeamDir(t.Name))}
		if t.Review {
			tr.Proposer = gitsync.ProposalBranch(gitsync.Author(ctx, cfg.Author, cfg.MachineID))
		} else if ps, err := gitsync.Proposals(ctx, s.store, t.Name); err != nil {
			tr.Err = err.Error()
		} else {
			tr.Proposals = ps
		}
		rows = append(rows, tr)
	}
	s.render(w, r, http.StatusOK, "teams", page{Title: "Teams", Nav: "teams", Data: rows})
}

// teamAction runs do for a POST naming a joined team ({name}) while no
// sync started from this dashboard runs; do sets the flash.
func (s *Server) teamAction(w http.ResponseWriter, r *http.Request, do func(name string, cfg config.Config)) {
	name := r.PathValue("name")
	if err := config.CheckTeamName(name); err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	cfg := s.config()
	if _, ok := cfg.Team(name); !ok {
		s.fail(w, r, http.StatusNotFound, "No team "+name+" is joined here.")
		return
	}
	if !s.syncMu.TryLock() {
		setFlash(w, "A sync started from this dashboard is still running.", true)
		redirect(w, r, "/teams")
		return
	}
	defer s.syncMu.Unlock()
	do(name, cfg)
	redirect(w, r, "/teams#team-"+name)
}

// fetch fetches a joined team's remote, proposals included, as
// `anamnesis team review` does.
func (s *Server) fetch(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, func(name string, _ config.Config) {
		err := gitsync.FetchTeam(r.Context(), s.store, name, gitsync.DefaultTimeout)
		if err != nil {
			setFlash(w, "Not fetched: "+err.Error(), true)
		} else {
			setFlash(w, "Fetched team "+name+"'s remote.", false)
		}
	})
}

// accept merges a proposal into its team's main and pushes it, with the
// code `anamnesis team review NAME --accept BRANCH` runs.
func (s *Server) accept(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, func(name string, cfg config.Config) {
		tr, err := gitsync.AcceptProposal(r.Context(), gitsync.OptionsFrom(cfg), s.store, name, r.PostFormValue("branch"))
		s.wrote()
		if err != nil {
			setFlash(w, "Not merged: "+err.Error(), true)
		} else {
			setFlash(w, tr.Line(), false)
		}
	})
}
