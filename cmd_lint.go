package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/baseline"
	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/report"
	"toolscope/core/similarity"
)

const (
	lintUsage   = "lint [flags] CATALOG"
	lintSummary = "the CI gate: structural rules and similarity (exit 0 ok, 1 failed, 2 usage or input error)"
)

// lintHelp is lint's summary with what CATALOG may be and what a score
// means.
var lintHelp = lintSummary + "\n\nCATALOG is a file, '-' for stdin, 'mcp:COMMAND ARGS...' (one argument) or an http(s):// URL of an MCP server.\n\n" +
	similarityHelp

// similarityHelp says what a pair's score means, for --help.
var similarityHelp = ansi.Wrap("Similarity: "+similarity.ScoringRisk.Explain()+" "+similarity.ScoringAdaptive.Explain()+" "+similarity.ScoringCosine.Explain(), 78, "")

func init() {
	register(command{name: "lint", usage: lintUsage, summary: lintSummary, run: runLint})
}

// lintFormats are what `lint --format` accepts, the default first.
var lintFormats = []string{"text", "json", "sarif", "markdown", "github"}

func runLint(args []string, io stdio) int {
	fs := newFlagSet("lint")
	f := newCatalogFlags(fs, lintFormats)
	cfgFlags := addConfigFlags(fs)
	var baselinePath, writeBaseline string
	fs.StringVar(&baselinePath, "baseline", "", "`FILE` of accepted results: the gate fails only on new ones (see --write-baseline)")
	fs.StringVar(&writeBaseline, "write-baseline", "", "write this run's findings and flagged pairs to `FILE` as the baseline")
	positional, code, ok := parseCommand(fs, lintUsage, lintHelp, args, io)
	if !ok {
		return code
	}
	arg, rest, given := f.live.catalogArgs(positional)
	if !given || len(rest) > 0 {
		return usageError(io, "lint", fmt.Sprintf("want one CATALOG, or --mcp-config FILE and none; got %d arguments", len(positional)))
	}
	cfg, err := cfgFlags.load(arg)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return 2
	}
	if cfg != nil {
		f.useConfig(cfg, fs)
	}
	if err := f.check(); err != nil {
		return usageError(io, "lint", err.Error())
	}
	var base *baseline.File
	if baselinePath != "" {
		b, err := baseline.Load(baselinePath)
		if err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return 2
		}
		base = b
	}
	p := startProgress(io, "toolscope lint")
	defer p.end()
	p.step("loading the catalog")
	cat, err := f.live.load(arg, io)
	if err != nil {
		p.end()
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return 2
	}
	report, err := analyzeCatalog(context.Background(), cat, f, p)
	p.end()
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return 2
	}
	if cfg != nil {
		report = cfg.Apply(report, cat)
	}
	if writeBaseline != "" {
		// Written before the comparison, so the file holds this run's
		// results and never a comparison's states.
		written := baseline.FromReport(report)
		if err := written.WriteFile(writeBaseline); err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return 2
		}
		if base == nil {
			// The run is judged against what it just accepted: it passes.
			base, baselinePath = written, writeBaseline
		}
	}
	if base != nil {
		base.Apply(report, cat, baselinePath, f.strict)
	}
	if err := writeReport(io.out, report, cat, f, io.outTTY); err != nil {
		fmt.Fprintf(io.err, "toolscope lint: writing the report: %s\n", oneLine(err))
		return 2
	}
	if !report.OK {
		return 1
	}
	return 0
}

// analyzeCatalog runs the lint the flags ask for, reporting to p (when not
// nil).
func analyzeCatalog(ctx context.Context, cat *catalog.Catalog, f *catalogFlags, p *progress) (*lint.Report, error) {
	opts := f.options()
	// A report lists no tool's nearest neighbours (the explorer does), and
	// without them the risk kernel stops early on far more pairs.
	opts.Neighbours = 0
	if spec := f.embedderSpec(); spec != "" {
		if p != nil {
			p.step("opening the embedder")
		}
		e, err := f.openEmbedder(spec)
		if err != nil {
			return nil, err
		}
		opts.Embedder = e
	}
	if p != nil {
		opts.Progress = p.update
	}
	return lint.Analyze(ctx, cat, opts)
}

// writeReport writes the report in the flags' format (text when none).
func writeReport(w io.Writer, r *lint.Report, cat *catalog.Catalog, f *catalogFlags, color bool) error {
	switch f.format {
	case "json":
		return report.WriteJSON(w, r)
	case "sarif":
		return report.WriteSARIF(w, r, cat, report.SARIFOptions{Rules: lint.EnabledRules(lint.DefaultRules(), f.disable), Version: version()})
	case "github":
		return report.WriteGitHub(w, r, cat)
	case "markdown":
		return report.WriteMarkdown(w, r, report.MarkdownOptions{Source: cat.Source, MaxRows: 50, Top: 10})
	default:
		o := report.DefaultTextOptions(cat.Source)
		o.Color = color
		return report.WriteText(w, r, o)
	}
}

// version is the module version the binary was built from, "" for a
// development build.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ""
}

// progressDelay is how long a run stays quiet before it reports progress:
// a lint that ends sooner prints nothing on stderr.
const progressDelay = 2 * time.Second

// progressEvery is how often a run whose stderr is not a terminal (a CI
// log) prints a progress line; a terminal's line is redrawn each tick.
const (
	progressEvery = 10 * time.Second
	progressTick  = 250 * time.Millisecond
)

// progress reports a long run on stderr once it has taken progressDelay:
// on a terminal, one line redrawn in place (the stage, how far, the time
// so far) and cleared at the end; elsewhere, a plain line every
// progressEvery, so a CI log shows the run is alive without filling up.
type progress struct {
	w     io.Writer
	tty   bool
	name  string // "toolscope lint"
	start time.Time

	mu        sync.Mutex
	cur       similarity.Progress
	label     string // the step before the analysis ("loading the catalog")
	shown     bool   // a terminal line is on screen
	lastPlain time.Time

	stop    chan struct{}
	done    chan struct{}
	endOnce sync.Once
}

// startProgress starts reporting; stop ends it.
func startProgress(io stdio, name string) *progress {
	p := newProgress(io, name, time.Now())
	go func() {
		defer close(p.done)
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-t.C:
				p.tick(now)
			}
		}
	}()
	return p
}

// newProgress is a progress that is not ticking yet.
func newProgress(io stdio, name string, start time.Time) *progress {
	return &progress{w: io.err, tty: io.errTTY, name: name, start: start, stop: make(chan struct{}), done: make(chan struct{})}
}

// setName changes the name lines start with.
func (p *progress) setName(name string) {
	p.mu.Lock()
	p.name = name
	p.mu.Unlock()
}

// step names what runs before the analysis reports its own stages.
func (p *progress) step(label string) {
	p.mu.Lock()
	p.label, p.cur = label, similarity.Progress{}
	p.mu.Unlock()
}

// update takes the analysis's progress (lint.Options.Progress).
func (p *progress) update(pr similarity.Progress) {
	p.mu.Lock()
	p.cur, p.label = pr, ""
	p.mu.Unlock()
}

// tick draws the progress as of now.
func (p *progress) tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := now.Sub(p.start)
	if elapsed < progressDelay {
		return
	}
	if !p.tty && p.label != "" {
		// A log gets no line for loading: an input error there (a catalog
		// too large, a server that fails) stays the one line on stderr.
		return
	}
	line := p.text(elapsed)
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.shown = true
		return
	}
	if p.lastPlain.IsZero() || now.Sub(p.lastPlain) >= progressEvery {
		fmt.Fprintln(p.w, line)
		p.lastPlain = now
	}
}

func (p *progress) text(elapsed time.Duration) string {
	what := p.label
	switch pr := p.cur; {
	case what != "":
	case pr.Total > 0:
		what = fmt.Sprintf("%s %d%% (%d/%d)", pr.Stage, pr.Done*100/pr.Total, pr.Done, pr.Total)
	case pr.Stage != "":
		what = string(pr.Stage)
	default:
		what = "starting"
	}
	return fmt.Sprintf("%s: %s · %s", p.name, what, elapsed.Truncate(time.Second))
}

// end stops the reporting and clears a terminal line, before the report
// is written.
func (p *progress) end() {
	p.endOnce.Do(func() { close(p.stop) })
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
