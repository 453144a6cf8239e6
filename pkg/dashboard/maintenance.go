package dashboard

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/anamnesis-dev/anamnesis/pkg/lifecycle"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
)

// maintData is the maintenance page: per project, what reflect, consolidate
// and dedup would do (each dry run on request: they call the model or read
// every note), each with an Apply button. The work is pkg/lifecycle's,
// the same functions the CLI calls.
type maintData struct {
	Projects    []string
	Project     string
	Min         int
	Model       string // the provider's label, "" when none is configured
	ModelErr    string
	Dedup       *lifecycle.RepairResult
	DedupText   string
	Reflect     *lifecycle.ReflectResult
	ReflectText string
	ReflectErr  string
	Cons        *lifecycle.ConsolidateResult
	ConsText    string
	ConsErr     string
}

func printed(p func(*bytes.Buffer)) string {
	var b bytes.Buffer
	p(&b)
	return b.String()
}

func (s *Server) maintData(ctx context.Context, r *http.Request) (*maintData, error) {
	d := &maintData{Project: r.FormValue("project"), Min: lifecycle.DefaultMin}
	if v, err := strconv.Atoi(r.FormValue("min")); err == nil && v > 0 {
		d.Min = v
	}
	var err error
	if d.Projects, err = lifecycle.Projects(ctx, s.store, ""); err != nil {
		return nil, err
	}
	if d.Project == "" && len(d.Projects) > 0 {
		d.Project = d.Projects[0]
	}
	if c, err := model.New(s.opt.Model); err == nil {
		d.Model = c.Label()
	} else {
		d.ModelErr = err.Error()
	}
	return d, nil
}

func (s *Server) maintenance(w http.ResponseWriter, r *http.Request) {
	s.refresh(r.Context())
	d, err := s.maintData(r.Context(), r)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	s.render(w, r, http.StatusOK, "maintenance", page{Title: "Maintenance", Nav: "maintenance", Data: d})
}

// maintPost runs one operation: a dry run renders the page with its report,
// an apply writes, commits, syncs (when configured) and redirects.
func (s *Server) maintPost(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s.refresh(ctx)
	op, apply := r.PathValue("op"), r.PostFormValue("apply") == "1"
	d, err := s.maintData(ctx, r)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	var client model.Client
	if op == "reflect" || op == "consolidate" {
		if client, err = model.New(s.opt.Model); err != nil {
			setFlash(w, op+": "+err.Error(), true)
			redirect(w, r, "/maintenance?project="+url.QueryEscape(d.Project))
			return
		}
	}
	// What a killed apply left is settled before anything else.
	recovered, err := lifecycle.Recover(ctx, s.store, s.opt.MachineID)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	opt := lifecycle.Options{Apply: apply, MachineID: s.opt.MachineID, Plan: r.PostFormValue("plan")}
	if !apply {
		opt.Plan = ""
	}
	var paths []string
	var text string
	switch op {
	case "reflect":
		d.Reflect, err = lifecycle.Reflect(ctx, s.store, client, []string{d.Project}, d.Min, opt)
		d.ReflectText = printed(func(b *bytes.Buffer) { d.Reflect.Print(b) })
		paths, text = d.Reflect.Paths, d.ReflectText
		if err != nil {
			d.ReflectErr = err.Error()
		}
	case "consolidate":
		d.Cons, err = lifecycle.Consolidate(ctx, s.store, client, []string{d.Project}, d.Min, nil, opt)
		d.ConsText = printed(func(b *bytes.Buffer) { d.Cons.Print(b) })
		paths, text = d.Cons.Paths, d.ConsText
		if err != nil {
			d.ConsErr = err.Error()
		}
	case "dedup":
		// Reads every note: run on request, never on a page view.
		d.Dedup, err = lifecycle.Dedup(ctx, s.store, apply)
		if d.Dedup != nil {
			d.DedupText = printed(func(b *bytes.Buffer) { d.Dedup.Print(b) })
			paths, text = d.Dedup.Paths, d.DedupText
		}
		if err != nil && !apply {
			s.fail(w, r, http.StatusInternalServerError, err.Error())
			return
		}
	default:
		s.fail(w, r, http.StatusNotFound, "no maintenance operation "+op)
		return
	}
	for _, l := range recovered {
		text = l + "\n" + text
	}
	if !apply {
		s.render(w, r, http.StatusOK, "maintenance", page{Title: "Maintenance", Nav: "maintenance", Data: d})
		return
	}
	if err == nil && len(paths) > 0 {
		var syncOpt *lifecycle.SyncOptions
		if s.opt.Sync != nil {
			o := *s.opt.Sync
			o.Store = s.store
			syncOpt = &o
		}
		var lines []string
		lines, err = lifecycle.Finish(ctx, s.store.Home(), s.opt.MachineID, syncOpt, paths, fmt.Sprintf("anamnesis %s (%s, dashboard)", op, s.opt.MachineID))
		for _, l := range lines {
			text += l + "\n"
		}
	}
	s.wrote()
	if err != nil {
		setFlash(w, text+err.Error(), true)
	} else {
		setFlash(w, text, false)
	}
	redirect(w, r, "/maintenance?project="+url.QueryEscape(d.Project))
}
