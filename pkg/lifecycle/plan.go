package lifecycle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
)

// A model's answer is a plan, and the plan is what is applied (SPEC 17):
// every reflect or consolidate that asks the model saves the answer under
// <home>/state/plans/<id>.json, id a hash of the plan, and prints the id.
// --apply over the same inputs (the same projects, --min, model and the
// same input notes, unchanged) applies that saved plan without asking
// again; --apply --plan ID applies the one named, if its inputs still hold;
// --apply with no saved plan for these inputs asks once, saves and prints
// that answer, and applies it.

// DefaultMaxNew bounds the notes one reply may create, per project per run.
const DefaultMaxNew = 50

// Options are the choices every reflect and consolidate run shares.
type Options struct {
	Apply     bool
	MachineID string
	Plan      string // --plan: apply this saved plan
	MaxNew    int    // new notes per project per run; 0 means DefaultMaxNew
	// AllProjects says the projects are every project with notes of the
	// kind (--all): a dry run's scope is then "all projects", which a
	// project gaining notes does not change.
	AllProjects bool
}

func (o Options) maxNew() int {
	if o.MaxNew <= 0 {
		return DefaultMaxNew
	}
	return o.MaxNew
}

// quoteReply is the start of a reply the command refuses, for its error
// (printed, and shown by the dashboard): redacted before it is cut, since a
// secret the model wrote, cut short, is no longer of a shape the redactor
// knows.
func quoteReply(reply string) string {
	return fmt.Sprintf("%.120q", redact.String(reply))
}

// overBound is the plan error for a reply that creates too many notes.
func overBound(n, max int) string {
	return fmt.Sprintf("the model's reply would create %d new notes, over the limit of %d per project per run; nothing written (raise --max-new to allow more)", n, max)
}

// saved is a plan on disk.
type saved struct {
	ID          string            `json:"id"`
	Command     string            `json:"command"`
	Inputs      string            `json:"inputs"`          // fingerprint of what the plan was made from
	Scope       string            `json:"scope,omitempty"` // fingerprint of the run's projects, --min, model (scopeOf)
	Created     string            `json:"created"`
	Applied     string            `json:"applied,omitempty"`
	Reflect     []ReflectPlan     `json:"reflect,omitempty"`
	Consolidate []ConsolidatePlan `json:"consolidate,omitempty"`
}

var planIDRe = regexp.MustCompile(`^[0-9a-f]{16}$`)

func plansDir(home string) string { return layout.Home(home).State("plans") }

func currentPath(home, command, inputs string) string {
	h := sha256.Sum256([]byte(command + "\x00" + inputs))
	return filepath.Join(plansDir(home), "current-"+command+"-"+hex.EncodeToString(h[:8]))
}

// previewPath names the plan the last dry run of command over a scope
// showed (scopeOf: its projects, --min and model, not its notes), until a
// plan of that scope is applied. --apply finds there that a dry run was
// made and what it showed, after the notes changed and the plan no longer
// holds for them.
func previewPath(home, command, scope string) string {
	h := sha256.Sum256([]byte(command + "\x00" + scope))
	return filepath.Join(plansDir(home), "preview-"+command+"-"+hex.EncodeToString(h[:8]))
}

// scopeOf is what a run is over, whatever the notes: its projects (every
// project, with --all), --min, the model and (consolidate) its eval set.
func scopeOf(client model.Client, min int, projects []string, extra string, opt Options) string {
	if opt.AllProjects {
		projects = []string{"\x00all"}
	}
	parts := []string{"min=" + strconv.Itoa(min), extra}
	if client != nil {
		parts = append(parts, client.Label())
	}
	return fingerprint(append(parts, projects...)...)
}

// savePreview records that a dry run showed plan id for its scope.
func savePreview(home string, sv *saved) {
	if sv.Scope != "" {
		atomicfile.Write(previewPath(home, sv.Command, sv.Scope), []byte(sv.ID), layout.FileMode)
	}
}

// clearPreview forgets the dry run of a scope once a plan of it is applied.
func clearPreview(home, command, scope string) {
	if scope != "" {
		os.Remove(previewPath(home, command, scope))
	}
}

// fingerprint hashes the parts that decide a plan's inputs.
func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:16])
}

// notesPrint is the part of a fingerprint a list of notes gives: their ids
// and versions, in order.
func notesPrint(ns []*note.Note) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(n.ID + "@" + n.UpdatedAt + ";")
	}
	return b.String()
}

// savePlan writes sv, sets its id (a hash of what it would do) and makes it
// the current plan for its inputs.
func savePlan(home string, sv *saved) error {
	sv.ID, sv.Applied = "", ""
	sv.Created = note.Now()
	body, err := json.Marshal(struct {
		Command     string
		Inputs      string
		Reflect     []ReflectPlan
		Consolidate []ConsolidatePlan
	}{sv.Command, sv.Inputs, sv.Reflect, sv.Consolidate})
	if err != nil {
		return err
	}
	h := sha256.Sum256(body)
	sv.ID = hex.EncodeToString(h[:8])
	data, err := json.MarshalIndent(sv, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(plansDir(home), sv.ID+".json"), append(data, '\n'), layout.FileMode); err != nil {
		return fmt.Errorf("saving the plan: %w", err)
	}
	if err := atomicfile.Write(currentPath(home, sv.Command, sv.Inputs), []byte(sv.ID), layout.FileMode); err != nil {
		return err
	}
	prunePlans(home, sv.ID, time.Now())
	return nil
}

// planAge is how long an unapplied plan is kept: a preview nobody applied
// within it is not one anybody remembers seeing.
const planAge = 30 * 24 * time.Hour

// prunePlans removes, when a new plan (keep) is saved, the plans already
// applied (applying one uses it up), those older than planAge, and the
// current-plan pointers left naming a plan that is gone, so state/plans
// holds what could still be applied and no more. Best effort: a file it
// cannot read or remove stays for the next save.
func prunePlans(home, keep string, now time.Time) {
	dir := plansDir(home)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var pointers []string
	for _, de := range entries {
		name := de.Name()
		if strings.HasPrefix(name, "current-") || strings.HasPrefix(name, "preview-") {
			pointers = append(pointers, name)
			continue
		}
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || !planIDRe.MatchString(id) || id == keep {
			continue
		}
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var sv saved
		old := false
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > planAge {
			old = true
		}
		if old || json.Unmarshal(data, &sv) == nil && sv.Applied != "" {
			os.Remove(p)
		}
	}
	for _, name := range pointers {
		id, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, strings.TrimSpace(string(id))+".json")); errors.Is(err, os.ErrNotExist) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// loadPlan reads the saved plan id of command.
func loadPlan(home, command, id string) (*saved, error) {
	if !planIDRe.MatchString(id) {
		return nil, fmt.Errorf("%q is not a plan id (16 hex digits, as the dry run printed)", id)
	}
	data, err := os.ReadFile(filepath.Join(plansDir(home), id+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no saved plan %s (applied plans, and plans over %d days old, are removed when a new plan is saved)", id, int(planAge.Hours()/24))
	}
	if err != nil {
		return nil, err
	}
	var sv saved
	if err := json.Unmarshal(data, &sv); err != nil {
		return nil, fmt.Errorf("saved plan %s: %w", id, err)
	}
	if sv.Command != command {
		return nil, fmt.Errorf("plan %s is a %s plan, not %s", id, sv.Command, command)
	}
	if sv.Applied != "" {
		return nil, fmt.Errorf("plan %s was applied at %s", id, sv.Applied)
	}
	return &sv, nil
}

// currentPlan is the saved, unapplied plan for these inputs, if any.
func currentPlan(home, command, inputs string) *saved {
	id, err := os.ReadFile(currentPath(home, command, inputs))
	if err != nil {
		return nil
	}
	sv, err := loadPlan(home, command, strings.TrimSpace(string(id)))
	if err != nil || sv.Inputs != inputs {
		return nil
	}
	return sv
}

// pickPlan decides what an apply applies: the plan named, or the current
// one for these inputs (nil: none, ask the model). A named plan whose inputs
// changed is refused: it is no longer what the preview showed. So is an
// apply with no plan named whose scope had a dry run whose plan no longer
// holds: asking again would write an answer nobody saw (SPEC 17).
func pickPlan(home, command, inputs, scope string, opt Options) (*saved, error) {
	if opt.Plan != "" {
		sv, err := loadPlan(home, command, opt.Plan)
		if err != nil {
			return nil, err
		}
		if sv.Inputs != inputs {
			return nil, fmt.Errorf("plan %s no longer applies: the notes it was made from (or --project, --min, the model) changed since; run the dry run again", opt.Plan)
		}
		return sv, nil
	}
	if !opt.Apply {
		return nil, nil
	}
	if sv := currentPlan(home, command, inputs); sv != nil {
		return sv, nil
	}
	if id, err := os.ReadFile(previewPath(home, command, scope)); err == nil {
		if sv, err := loadPlan(home, command, strings.TrimSpace(string(id))); err == nil {
			return nil, fmt.Errorf("plan %s, which the dry run showed, no longer applies: the notes it was made from changed since; run the dry run again (nothing written)", sv.ID)
		}
	}
	return nil, nil
}

// markApplied records that plan id was applied, so it is never applied twice.
func markApplied(home, id string) {
	if !planIDRe.MatchString(id) {
		return
	}
	p := filepath.Join(plansDir(home), id+".json")
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	var sv saved
	if json.Unmarshal(data, &sv) != nil {
		return
	}
	sv.Applied = note.Now()
	if out, err := json.MarshalIndent(&sv, "", "  "); err == nil {
		atomicfile.Write(p, append(out, '\n'), layout.FileMode)
	}
	os.Remove(currentPath(home, sv.Command, sv.Inputs))
	clearPreview(home, sv.Command, sv.Scope)
}
