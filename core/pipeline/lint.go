package pipeline

import (
	"context"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/tokens"
	"toolscope/embed"
)

// Setup is one catalog's settings, as the front end resolved them from
// its flags and the config found for the catalog.
type Setup struct {
	// Config is the project config in force, nil for none: its ignores
	// and accepts apply to the report.
	Config *config.Config
	// Options are the analysis options, all but the embedder and the
	// progress function, which the run sets.
	Options lint.Options
	// Embedder opens the embedder; nil when similarity is off.
	Embedder func() (embed.Embedder, error)
	// Judging says a judge or recorded judgments apply to the catalog:
	// the run calls LintRequest.Judge once the config has applied.
	Judging bool
	// Recorded reports whether judgments or reviews recorded elsewhere
	// (the judgment cache) name the catalog's tools; when it does, the
	// loaded catalog is judged as if Judging. Nil for never.
	Recorded func(cat *catalog.Catalog) bool
	// Strict is --strict: an empty catalog fails the gate (Gate), and a
	// baseline holds warnings too (Accept).
	Strict bool
	// Tokens counts what the report does not: the shares by server and
	// the score's definitions.
	Tokens *tokens.Meter
	// Own is the front end's own state for the catalog (its flags as the
	// config set them), carried to the result untouched.
	Own any
}

// Linted is one catalog's lint.
type Linted struct {
	// Arg names the catalog as the request did ("" for the server list).
	Arg string
	// Path names it in machine outputs and the baseline (Source.Path).
	Path    string
	Catalog *catalog.Catalog
	Report  *lint.Report
	Setup   *Setup
	// Probe is the catalog's recorded probe, nil when none (Source.Probe).
	Probe *judge.ProbeRecord
}

// Source is where a run's catalogs come from.
type Source interface {
	// Label is what the progress line says while arg loads.
	Label(arg string) string
	// Load loads one catalog.
	Load(arg string) (*catalog.Catalog, error)
	// Path names a loaded catalog in machine outputs.
	Path(arg string, cat *catalog.Catalog) string
	// Probe is the catalog's recorded probe, nil when none; a record that
	// cannot be read is the front end's to say.
	Probe(l *Linted) *judge.ProbeRecord
}

// Progress is the progress line of a long run.
type Progress interface {
	// Step names what runs before the analysis reports its own stages.
	Step(label string)
	// Update takes the analysis's progress.
	Update(similarity.Progress)
	// End clears the line before anything else is said.
	End()
}

// Memory tunes the collector for what a run loads: the file's size
// before it is read, the tool count once it is.
type Memory interface {
	File(arg string)
	Tools(n int)
}

// LintRequest is one lint run, everything in it resolved: nothing is
// parsed here.
type LintRequest struct {
	// Args are the catalogs, each linted on its own, or as one with Merge
	// (when there are several).
	Args  []string
	Merge bool
	// Setup resolves a catalog's settings; "" is the working directory's
	// (the server list, a merge).
	Setup  func(arg string) (*Setup, error)
	Source Source
	// Amend adds to a catalog's analysis what only the front end knows
	// (the server list's own findings); nil for nothing. It runs before
	// the config applies.
	Amend func(l *Linted) (*lint.Report, error)
	// Judge applies the judge and the model review where Setup.Judging.
	Judge func(ctx context.Context, l *Linted) (*lint.Report, error)
	// Fix applies a catalog's fixes to its file and says how many it
	// applied; a catalog it changed is linted again. Nil for no --fix.
	Fix func(l *Linted) (int, error)
	// Progress and Memory may be nil.
	Progress Progress
	Memory   Memory
}

// Lint runs the request: each catalog in turn (a merge as one), in the
// order given. An error ends the run; an error that is a Said has been
// said by the front end already.
func Lint(ctx context.Context, req LintRequest) ([]*Linted, error) {
	req.defaults()
	if req.Merge && len(req.Args) > 1 {
		l, err := req.lintMerged(ctx)
		if err != nil {
			return nil, err
		}
		return []*Linted{l}, nil
	}
	var runs []*Linted
	for _, arg := range req.Args {
		l, err := req.lintOne(ctx, arg)
		if err != nil {
			return nil, err
		}
		if req.Fix != nil {
			n, err := req.Fix(l)
			if err != nil {
				return nil, err
			}
			if n > 0 {
				if l, err = req.lintOne(ctx, arg); err != nil {
					return nil, err
				}
			}
		}
		runs = append(runs, l)
	}
	return runs, nil
}

// Said is an error the front end has said already (a usage line): the
// run ends with Code and nothing more is written.
type Said struct{ Code int }

func (s Said) Error() string { return "said" }

func (req *LintRequest) defaults() {
	if req.Progress == nil {
		req.Progress = quiet{}
	}
	if req.Memory == nil {
		req.Memory = quiet{}
	}
}

// quiet is the progress line and memory tuning of a run that has none.
type quiet struct{}

func (quiet) Step(string)                {}
func (quiet) Update(similarity.Progress) {}
func (quiet) End()                       {}
func (quiet) File(string)                {}
func (quiet) Tools(int)                  {}

// lintOne loads and lints one catalog with its own settings.
func (req *LintRequest) lintOne(ctx context.Context, arg string) (*Linted, error) {
	s, err := req.Setup(arg)
	if err != nil {
		return nil, err
	}
	req.Progress.Step(req.Source.Label(arg))
	req.Memory.File(arg)
	cat, err := req.Source.Load(arg)
	if err != nil {
		return nil, err
	}
	req.Memory.Tools(len(cat.Tools))
	s.judgeIfRecorded(cat)
	l := &Linted{Arg: arg, Catalog: cat, Setup: s}
	if l.Report, err = Analyze(ctx, cat, s, req.Progress); err != nil {
		return nil, err
	}
	if req.Amend != nil {
		if l.Report, err = req.Amend(l); err != nil {
			return nil, err
		}
	}
	if err := req.configAndJudge(ctx, l); err != nil {
		return nil, err
	}
	l.Probe = req.Source.Probe(l)
	l.Report.Score = lint.ScoreWith(l.Report, cat, l.Probe.Measured(cat, l.Report), s.Tokens)
	l.Path = req.Source.Path(arg, cat)
	if arg == "" {
		// The server list's findings name its file as the outputs do.
		for i, f := range l.Report.Structural {
			if f.File == cat.Source {
				l.Report.Structural[i].File = l.Path
			}
		}
	}
	l.Report.ShareByServerWith(cat, s.Tokens)
	return l, nil
}

// lintMerged loads every catalog and lints them as one, with the working
// directory's settings.
func (req *LintRequest) lintMerged(ctx context.Context) (*Linted, error) {
	s, err := req.Setup("")
	if err != nil {
		return nil, err
	}
	req.Progress.Step("loading the catalogs")
	for _, arg := range req.Args {
		req.Memory.File(arg)
	}
	merged, err := Merge(req.Args, req.Source.Load)
	if err != nil {
		return nil, err
	}
	req.Memory.Tools(len(merged.Tools))
	s.judgeIfRecorded(merged)
	l := &Linted{Path: merged.Source, Catalog: merged, Setup: s}
	if l.Report, err = Analyze(ctx, merged, s, req.Progress); err != nil {
		return nil, err
	}
	if err := req.configAndJudge(ctx, l); err != nil {
		return nil, err
	}
	l.Report.ShareByServerWith(merged, s.Tokens)
	l.Report.Score = lint.ScoreWith(l.Report, merged, nil, s.Tokens)
	return l, nil
}

// configAndJudge applies the config's ignores and accepts, then the
// judge where the catalog is judged, the progress line ended first so
// that the judge's lines stand alone.
func (req *LintRequest) configAndJudge(ctx context.Context, l *Linted) error {
	if l.Setup.Config != nil {
		l.Report = l.Setup.Config.Apply(l.Report, l.Catalog)
	}
	if !l.Setup.Judging || req.Judge == nil {
		return nil
	}
	req.Progress.End()
	r, err := req.Judge(ctx, l)
	if err != nil {
		return err
	}
	l.Report = r
	return nil
}

// judgeIfRecorded judges a catalog whose tools the recorded judgments
// name, keeping each tool's nearest neighbours for the judge's
// questions.
func (s *Setup) judgeIfRecorded(cats ...*catalog.Catalog) {
	if s.Judging || s.Recorded == nil {
		return
	}
	for _, cat := range cats {
		if s.Recorded(cat) {
			s.Judging = true
			s.Options.Neighbours = judge.FuseDepth
			return
		}
	}
}

// Analyze runs the structural rules and similarity a setup asks for on a
// catalog, reporting to p (nil for none).
func Analyze(ctx context.Context, cat *catalog.Catalog, s *Setup, p Progress) (*lint.Report, error) {
	o := s.Options
	if s.Judging {
		// The judge moves pairs between the lists and reads their fixes:
		// every pair is detailed.
		o.DetailLimit = 0
	}
	if s.Embedder != nil {
		if p != nil {
			p.Step("opening the embedder")
		}
		e, err := s.Embedder()
		if err != nil {
			return nil, err
		}
		o.Embedder = e
	}
	if p != nil {
		o.Progress = p.Update
	}
	return lint.Analyze(ctx, cat, o)
}
