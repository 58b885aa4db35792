package pipeline

import (
	"context"
	"fmt"
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/diff"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// DiffRequest is one diff run, everything in it resolved.
type DiffRequest struct {
	// Old and New name the two catalogs as their sources take them.
	Old, New string
	// OldSource loads OLD, Source NEW (NEW may be a server list's
	// servers, OLD is always one catalog).
	OldSource, Source Source
	// Setup is the run's settings: NEW's config (its diff levels, the
	// pairs it accepts) and the analysis both sides' pairs come from,
	// Embedder nil for no pairs.
	Setup *Setup
	// Fail is what fails the gate.
	Fail diff.Fail
	// Judge applies the judge to a side's report where Setup.Judging.
	Judge func(ctx context.Context, l *Linted) (*lint.Report, error)
	// Side is told which side's pairs are being found ("OLD", "NEW"), for
	// the progress line; nil for nothing.
	Side     func(name string)
	Progress Progress
}

// DiffResult is a diff run's outcome: the comparison, gated, and the two
// catalogs.
type DiffResult struct {
	Report   *diff.Report
	Old, New *catalog.Catalog
}

// Diff loads both catalogs, compares them (the config's levels applied),
// sets each side's confusable pairs beside the changes when the setup
// has an embedder, and applies the gate. A catalog that does not load is
// named in the error ("OLD: ...").
func Diff(ctx context.Context, req DiffRequest) (*DiffResult, error) {
	p := req.Progress
	if p == nil {
		p = quiet{}
	}
	defer p.End()
	p.Step("loading OLD")
	old, err := req.OldSource.Load(req.Old)
	if err != nil {
		return nil, fmt.Errorf("OLD: %w", err)
	}
	p.Step("loading NEW")
	cur, err := req.Source.Load(req.New)
	if err != nil {
		return nil, fmt.Errorf("NEW: %w", err)
	}
	p.Step("comparing")
	r := diff.Compare(old, cur)
	if cfg := req.Setup.Config; cfg != nil && cfg.DiffLevels != nil {
		r.SetLevels(cfg.DiffLevels)
	}
	if req.Setup.Embedder != nil {
		if err := req.setPairs(ctx, r, old, cur); err != nil {
			return nil, err
		}
	}
	p.End()
	r.Gate(req.Fail)
	return &DiffResult{Report: r, Old: old, New: cur}, nil
}

// setPairs sets both sides' confusable pairs on the comparison.
func (req *DiffRequest) setPairs(ctx context.Context, r *diff.Report, old, cur *catalog.Catalog) error {
	side := req.Side
	if side == nil {
		side = func(string) {}
	}
	side("OLD")
	oldPairs, err := req.confusable(ctx, old)
	if err != nil {
		return err
	}
	side("NEW")
	newPairs, err := req.confusable(ctx, cur)
	r.SetPairs(oldPairs, newPairs)
	return err
}

// confusable are a catalog's confusable pairs under the setup, less those
// the config accepts, with the judge's verdicts where it judges.
func (req *DiffRequest) confusable(ctx context.Context, cat *catalog.Catalog) ([]similarity.PairFinding, error) {
	s := req.Setup
	report, err := Analyze(ctx, cat, s, req.Progress)
	if err != nil {
		return nil, err
	}
	if s.Config != nil {
		report = s.Config.Apply(report, cat)
	}
	if s.Judging && req.Judge != nil {
		report, err = req.Judge(ctx, &Linted{Arg: req.New, Catalog: cat, Report: report, Setup: s})
		if err != nil {
			return nil, err
		}
	}
	return slices.Clone(report.Similarity.Confusable), nil
}
