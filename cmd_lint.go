package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/baseline"
	"toolscope/core/catalog"
	"toolscope/core/lint"
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
var similarityHelp = ansi.Wrap("Similarity: "+lint.ScoringAdaptive.Explain()+" "+lint.ScoringCosine.Explain(), 78, "")

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
	cat, err := f.live.load(arg, io)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return 2
	}
	report, err := analyzeCatalog(context.Background(), cat, f, io)
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

// analyzeCatalog runs the lint the flags ask for, showing progress on
// stderr when it is a terminal.
func analyzeCatalog(ctx context.Context, cat *catalog.Catalog, f *catalogFlags, io stdio) (*lint.Report, error) {
	opts := f.options()
	if spec := f.embedderSpec(); spec != "" {
		e, err := f.openEmbedder(spec)
		if err != nil {
			return nil, err
		}
		opts.Embedder = e
	}
	if io.errTTY {
		p := &progressLine{w: io.err}
		opts.Progress = p.show
		defer p.clear()
	}
	return lint.Analyze(ctx, cat, opts)
}

// writeReport writes the report in the flags' format (text when none).
func writeReport(w io.Writer, r *lint.Report, cat *catalog.Catalog, f *catalogFlags, color bool) error {
	switch f.format {
	case "json":
		return lint.WriteJSON(w, r)
	case "sarif":
		return lint.WriteSARIF(w, r, cat, lint.SARIFOptions{Rules: lint.EnabledRules(lint.DefaultRules(), f.disable), Version: version()})
	case "github":
		return lint.WriteGitHub(w, r, cat)
	case "markdown":
		return lint.WriteMarkdown(w, r, lint.MarkdownOptions{Source: cat.Source, MaxRows: 50, Top: 10})
	default:
		o := lint.DefaultTextOptions(cat.Source)
		o.Color = color
		return lint.WriteText(w, r, o)
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

// progressLine shows the analysis's progress on one terminal line.
type progressLine struct {
	w     io.Writer
	shown bool
	last  string
}

func (p *progressLine) show(pr lint.Progress) {
	if pr.Total == 0 {
		return
	}
	line := fmt.Sprintf("%s %d%% (%d/%d)", pr.Stage, pr.Done*100/pr.Total, pr.Done, pr.Total)
	if line == p.last {
		return
	}
	p.last, p.shown = line, true
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
}

func (p *progressLine) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
