package dashboard

import (
	"net/http"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/session"
)

// maxTraceSessions bounds the sessions the injections page shows.
const maxTraceSessions = 30

// traceSession is one Claude Code session's injections, oldest first.
type traceSession struct {
	ID, Project string
	Last        string // RFC 3339, for ago
	Events      []traceEvent
}

type traceEvent struct {
	Time  string
	Hook  string
	Chars int
	Notes []traceNote
}

type traceNote struct {
	ID, Title string
	Gone      bool     // deleted since: the id alone is shown
	Terms     []string // the prompt words it matched (recall)
	Arrived   bool     // brought by a sync after the session started
}

// injections shows, per session, what the hooks put into it and why: the
// trace inject and recall append to (recall.Trace).
func (s *Server) injections(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	entries, err := session.ReadTrace(s.store.Home())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	var order []string
	bySession := map[string]*traceSession{}
	// Newest first, so the sessions kept are the most recent ones.
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		key := e.Session
		if key == "" {
			key = "(no session id)"
		}
		ts := bySession[key]
		if ts == nil {
			if len(order) == maxTraceSessions {
				continue
			}
			ts = &traceSession{ID: key, Project: e.Project, Last: e.Time.Format(time.RFC3339)}
			bySession[key] = ts
			order = append(order, key)
		}
		ev := traceEvent{Time: e.Time.Format(time.RFC3339), Hook: e.Hook, Chars: e.Chars}
		for _, id := range e.IDs {
			tn := traceNote{ID: id, Terms: e.Terms[id]}
			for _, a := range e.Arrived {
				tn.Arrived = tn.Arrived || a == id
			}
			if n, err := s.store.Get(ctx, id); err == nil {
				tn.Title = n.Title
			} else {
				tn.Gone = true
			}
			ev.Notes = append(ev.Notes, tn)
		}
		ts.Events = append([]traceEvent{ev}, ts.Events...)
	}
	d := make([]traceSession, 0, len(order))
	for _, k := range order {
		d = append(d, *bySession[k])
	}
	s.render(w, r, http.StatusOK, "injections", page{Title: "Injections", Nav: "injections", Data: d})
}
