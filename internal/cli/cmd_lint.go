package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/baseline"
	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/report"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

const (
	lintUsage   = "lint [flags] CATALOG..."
	lintSummary = "the CI gate: structural rules and similarity (exit 0 ok, 1 failed, 2 usage or input error)"
)

// lintHelp is lint's summary with what CATALOG may be and what a score
// means.
var lintHelp = lintSummary + "\n\nCATALOG is a file, '-' for stdin, 'mcp:COMMAND ARGS...' (one argument) or an http(s):// URL of an MCP server; " +
	"a directory (its .json files) or a pattern ('servers/**/tools.json') lints several, each with its own toolscope.yaml.\n\n" +
	similarityHelp

// similarityHelp says what a pair's score means, for --help.
var similarityHelp = ansi.Wrap("Similarity: "+similarity.ScoringRisk.Explain()+" "+similarity.ScoringAdaptive.Explain()+" "+similarity.ScoringCosine.Explain(), 78, "")

func init() {
	register(command{name: "lint", usage: lintUsage, summary: lintSummary, run: runLint})
}

// lintFormats are what `lint --format` accepts, the default first.
var lintFormats = append([]string{"text", "json", "sarif", "markdown", "github", "junit"}, pageFormats...)

// linted is one catalog's lint.
type linted struct {
	// path names the catalog in machine outputs and the baseline: relative
	// to the repository root (repoPath).
	path   string
	cat    *catalog.Catalog
	report *lint.Report
	flags  *catalogFlags
	// probePath is where the catalog's probe record is found, as the
	// explorer finds it.
	probePath string
	// probe is the catalog's recorded probe, nil when none.
	probe *judge.ProbeRecord
}

// lintRun is what a lint run's flags ask beyond the catalog flags.
type lintRun struct {
	baselinePath, writeBaseline string
	// quiet leaves warnings and review pairs out of the outputs.
	quiet bool
	// maxWarnings fails the run on more warnings than it, over every
	// catalog (-1: no limit).
	maxWarnings int
	// failOn holds "review" (review pairs fail the gate) and "stale"
	// (config and baseline entries that matched nothing fail the run).
	failOn listFlag
	// fix applies the findings' fixes to the catalog files (--fix).
	fix bool
	// merge lints the catalogs as one, as a host that is given all of
	// them sees them.
	merge bool
	// probe replays the recorded probe (--min-accuracy).
	probe probeGate
}

func runLint(args []string, io stdio) int {
	lintGC()
	fs := newFlagSet("lint")
	f := newCatalogFlags(fs, lintFormats)
	cfgFlags := addConfigFlags(fs)
	var lr lintRun
	fs.StringVar(&lr.baselinePath, "baseline", "", "`FILE` of accepted results: the gate fails only on new ones (see --write-baseline)")
	fs.StringVar(&lr.writeBaseline, "write-baseline", "", "write this run's findings and flagged pairs to `FILE` as the baseline")
	fs.BoolVar(&lr.quiet, "quiet", false, "report errors and confusable pairs only: no warnings, no review pairs (the gate is unchanged)")
	fs.IntVar(&lr.maxWarnings, "max-warnings", -1, "fail when the run has more than `N` warnings, over every catalog (-1: no limit)")
	fs.Var(&lr.failOn, "fail-on", "`LIST` of what else fails the gate: review (the review pairs), stale (a config ignore or accept entry, or a baseline entry, that matched nothing)")
	fs.BoolVar(&lr.fix, "fix", false, "apply the findings' fixes to each catalog file, keeping its other bytes, then lint it again (docs/lint.md#fixes)")
	fs.BoolVar(&lr.merge, "merge", false, "lint several catalogs as one, similarity across them, as a host given all of them sees it (names qualified by each catalog's directory, or its file name when catalogs share a directory)")
	lr.probe = addProbeGateFlags(fs)
	jf := addJudgeFlags(fs)
	jf.noCache = &f.noCache
	jf.review = addReviewFlags(fs)
	positional, code, ok := parseCommand(fs, lintUsage, lintHelp, args, io)
	if !ok {
		return code
	}
	var targets []target
	switch {
	case f.live.config != "" && len(positional) > 0:
		return usageError(io, "lint", fmt.Sprintf("want CATALOG arguments or --mcp-config FILE, not both; got %s", plural(len(positional), "argument", "arguments")))
	case f.live.config != "":
		targets = []target{{arg: ""}}
		// A server that cannot start is a finding; the others are linted.
		f.live.keepGoing = true
	case len(positional) == 0:
		return usageError(io, "lint", "want a CATALOG (or several), or --mcp-config FILE")
	case slices.Contains(positional, ""):
		return usageError(io, "lint", errEmptyCatalog)
	default:
		var err error
		if targets, err = expandCatalogs(positional); err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return 2
		}
	}
	writes := formatWrites(f.outputs)
	if lr.writeBaseline != "" {
		writes = append(writes, [2]string{"--write-baseline " + lr.writeBaseline, lr.writeBaseline})
	}
	var inputs [][2]string
	for _, t := range targets {
		inputs = append(inputs, [2]string{"the catalog", t.arg})
	}
	if f.live.config != "" {
		inputs = append(inputs, [2]string{"the server list", f.live.config})
	}
	if lr.baselinePath != "" {
		inputs = append(inputs, [2]string{"the baseline", lr.baselinePath})
	}
	writes, inputs = jf.review.files(writes, inputs)
	reads, judged := lintFiles(targets, lr.merge && len(targets) > 1, cfgFlags, jf, lr.probe)
	if err := checkWrites(append(writes, judged...), append(inputs, reads...)); err != nil {
		return usageError(io, "lint", err.Error())
	}
	if err := checkPageFormats(f, len(targets), lr.merge); err != nil {
		return usageError(io, "lint", err.Error())
	}
	if slices.Contains(positional, "-") && len(targets) > 1 {
		return usageError(io, "lint", "stdin ('-') can only be linted alone")
	}
	if err := f.check(); err != nil && len(targets) > 1 {
		// With one catalog its config may still set what the flags lack.
		return usageError(io, "lint", err.Error())
	}
	for _, w := range lr.failOn {
		if w != "stale" && w != "review" {
			return usageError(io, "lint", fmt.Sprintf("--fail-on %s: want review or stale", w))
		}
	}
	f.review = slices.Contains(lr.failOn, "review")
	if lr.maxWarnings < -1 {
		return usageError(io, "lint", fmt.Sprintf("--max-warnings %d: want 0 or more (-1: no limit)", lr.maxWarnings))
	}
	if err := jf.check(); err != nil {
		return usageError(io, "lint", err.Error())
	}
	if err := jf.review.check(len(targets), lr.merge); err != nil {
		return usageError(io, "lint", err.Error())
	}
	if err := lr.probe.check(len(targets), lr.merge); err != nil {
		return usageError(io, "lint", err.Error())
	}
	for _, t := range targets {
		if why := fixableArg(t.arg, f.live, lr.merge && len(targets) > 1); lr.fix && why != "" {
			return usageError(io, "lint", why)
		}
	}
	// The JSON output shows every tool's token count, and the reports a
	// person reads state the catalog's size first; counting is paid only
	// for them.
	f.measureTokens = measuresTokens(f.format)
	for _, o := range f.outputs {
		f.measureTokens = f.measureTokens || measuresTokens(o.format)
	}
	var base *baseline.File
	if lr.baselinePath != "" {
		b, err := baseline.Load(lr.baselinePath)
		if err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return 2
		}
		base = b
	}
	root := repoRoot()
	p := startProgress(io, "toolscope lint")
	defer p.end()
	var runs []linted
	records := newProbeReads("lint", lr.probe.min.set)
	if lr.merge && len(targets) > 1 {
		run, code := lintMerged(targets, f, fs, cfgFlags, jf, io, p)
		if code != 0 {
			return code
		}
		runs = append(runs, run)
	}
	for _, t := range targets {
		if lr.merge && len(targets) > 1 {
			break
		}
		run, code := lintOne(t.arg, f, fs, cfgFlags, jf, root, records, io, p)
		if code != 0 {
			return code
		}
		if lr.fix {
			n, err := fixFile(t.arg, run, io)
			if err != nil {
				fmt.Fprintf(io.err, "toolscope lint: --fix: %s\n", oneLine(err))
				return 2
			}
			if n > 0 {
				if run, code = lintOne(t.arg, f, fs, cfgFlags, jf, root, records, io, p); code != 0 {
					return code
				}
			}
		}
		runs = append(runs, run)
	}
	p.end()
	var created *baseline.File // the baseline this run created
	if lr.writeBaseline != "" {
		// Written before the comparison, so the file holds this run's
		// results and never a comparison's states.
		written := baselineOf(runs)
		if err := written.WriteFile(lr.writeBaseline); err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return 2
		}
		if base == nil {
			// The run is judged against what it just accepted: it passes.
			base, lr.baselinePath = written, lr.writeBaseline
			created = written
		}
	}
	for _, r := range runs {
		if base != nil {
			base.For(r.path).Apply(r.report, r.cat, lr.baselinePath, r.flags.strict)
		}
	}
	ok = lr.gate(runs, io)
	if lr.quiet {
		for i := range runs {
			runs[i].report = errorsOnly(runs[i].report)
		}
	}
	outs := append([]formatOutput{{format: f.format}}, f.outputs...)
	for _, o := range outs {
		if created != nil && o.path == "" && (o.format == "" || o.format == "text") {
			// The run that creates the baseline says what it wrote, not a
			// report whose every result it just accepted.
			fmt.Fprintln(io.out, baselineCreated(created, lr.writeBaseline, len(runs)))
			continue
		}
		if err := writeOutput(o, runs, io); err != nil {
			fmt.Fprintf(io.err, "toolscope lint: writing the report: %s\n", oneLine(err))
			return 2
		}
	}
	if !ok {
		return 1
	}
	return 0
}

// gate adds to each catalog's gate what the run's flags ask beyond its
// results, and reports whether the run passes: an empty catalog is said
// in one line on stderr and fails under --strict; stale entries fail
// under --fail-on stale; warnings over --max-warnings fail the catalogs
// that have them.
func (lr *lintRun) gate(runs []linted, io stdio) bool {
	lr.probe.apply(runs, io)
	warnings := 0
	for _, r := range runs {
		if len(r.cat.Tools) == 0 {
			fmt.Fprintf(io.err, "toolscope lint: %s: the catalog has no tools\n", termsafe.Line(r.path))
			if r.flags.strict {
				r.report.Fail("no tools (strict)")
			}
		}
		if slices.Contains(lr.failOn, "stale") {
			if n := staleEntries(r.report); n > 0 {
				r.report.Fail(fmt.Sprintf("%d stale config or baseline entries (--fail-on stale)", n))
			}
		}
		warnings += r.report.Summary.Warnings
	}
	if lr.maxWarnings >= 0 && warnings > lr.maxWarnings {
		for _, r := range runs {
			if r.report.Summary.Warnings > 0 {
				r.report.Fail(fmt.Sprintf("warnings in the run: %d, over --max-warnings %d", warnings, lr.maxWarnings))
			}
		}
	}
	ok := true
	for _, r := range runs {
		ok = ok && r.report.OK
	}
	return ok
}

// staleEntries counts what a report's config and baseline hold that
// matched nothing: ignore and accept entries unused, baseline entries
// absent.
func staleEntries(r *lint.Report) int {
	n := 0
	if r.Suppressed != nil {
		n += len(r.Suppressed.Unused)
	}
	if r.Baseline != nil {
		n += r.Baseline.Absent
	}
	return n
}

// errorsOnly is the report as --quiet shows it: error findings and
// confusable pairs, without warnings and watch pairs; the counts and the
// gate stay the run's.
func errorsOnly(r *lint.Report) *lint.Report {
	q := *r
	q.Structural = []lint.Finding{}
	for _, f := range r.Structural {
		if f.Severity == lint.SeverityError {
			q.Structural = append(q.Structural, f)
		}
	}
	q.Similarity.Watch = []similarity.PairFinding{}
	return &q
}

// configured is the flags as the config for arg (found from its directory,
// or the working directory's for "") sets what no flag gave, and the
// config; a non-zero code means the run ends, its line written.
func configured(arg string, f *catalogFlags, fs *flag.FlagSet, cfgFlags *configFlags, io stdio) (catalogFlags, *config.Config, int) {
	fc := *f
	cfg, code := withConfig("lint", arg, &fc, fs, cfgFlags, io)
	return fc, cfg, code
}

// withConfig finds and reads the project config for the catalog arg (as
// cfgFlags say), lets it set what f's flags left unset, and checks f; a
// non-zero code means cmd's one line is written and the run ends.
func withConfig(cmd, arg string, f *catalogFlags, fs *flag.FlagSet, cfgFlags *configFlags, io stdio) (*config.Config, int) {
	cfg, err := cfgFlags.load(arg)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope %s: %s\n", cmd, oneLine(err))
		return nil, 2
	}
	if cfg != nil {
		f.useConfig(cfg, fs)
	}
	if err := f.check(); err != nil {
		return nil, usageError(io, cmd, err.Error())
	}
	return cfg, 0
}

// lintOne loads and lints one catalog with its own config (found from its
// directory unless --config or --no-config says otherwise). A non-zero
// code means the run ends, its line written.
func lintOne(arg string, f *catalogFlags, fs *flag.FlagSet, cfgFlags *configFlags, jf *judgeFlags, root string, records *probeReads, io stdio, p *progress) (linted, int) {
	fc, cfg, code := configured(arg, f, fs, cfgFlags, io)
	if code != 0 {
		return linted{}, code
	}
	judging := jf.active(cfg, arg)
	if judging {
		fc.neighbours = judgeNeighbours
	}
	p.step(fc.live.loadLabel(arg))
	lintGCForFile(arg)
	cat, err := fc.live.load(arg, io)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return linted{}, 2
	}
	lintGCFor(len(cat.Tools))
	report, err := analyzeCatalog(context.Background(), cat, &fc, p)
	if err == nil && fc.live.loaded != nil {
		report, err = withConfigHygiene(report, cat, fc.live.loaded, fc.live.failed, fc.options().Disabled)
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return linted{}, 2
	}
	if cfg != nil {
		report = cfg.Apply(report, cat)
	}
	if judging {
		if report, err = judgeReport(jf, report, cat, cfg, arg, io, p); err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return linted{}, 2
		}
	}
	probe := records.score(report, cat, cfg, arg, fc.tokenMeter(), io)
	path := repoPath(root, arg)
	if arg == "" {
		// The mcp-config's servers: the machine outputs name the config
		// file from the repository's root, its findings' too.
		path = repoPath(root, cat.Source)
		for i, f := range report.Structural {
			if f.File == cat.Source {
				report.Structural[i].File = path
			}
		}
	}
	report.ShareByServerWith(cat, fc.tokenMeter())
	return linted{path: path, cat: cat, report: report, flags: &fc, probePath: probeRecordPath(cfg, arg), probe: probe}, 0
}

// lintMerged loads every catalog and lints them as one (--merge;
// mergeCatalogs). The config is the one found from the working directory
// (or --config).
func lintMerged(targets []target, f *catalogFlags, fs *flag.FlagSet, cfgFlags *configFlags, jf *judgeFlags, io stdio, p *progress) (linted, int) {
	fc, cfg, code := configured("", f, fs, cfgFlags, io)
	if code != 0 {
		return linted{}, code
	}
	judging := jf.active(cfg, "")
	if judging {
		fc.neighbours = judgeNeighbours
	}
	p.step("loading the catalogs")
	args := make([]string, len(targets))
	for k, t := range targets {
		args[k] = t.arg
		lintGCForFile(t.arg)
	}
	merged, err := mergeCatalogs(args, fc.live, io)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return linted{}, 2
	}
	lintGCFor(len(merged.Tools))
	report, err := analyzeCatalog(context.Background(), merged, &fc, p)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
		return linted{}, 2
	}
	if cfg != nil {
		report = cfg.Apply(report, merged)
	}
	if judging {
		if report, err = judgeReport(jf, report, merged, cfg, "", io, p); err != nil {
			fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
			return linted{}, 2
		}
	}
	report.ShareByServerWith(merged, fc.tokenMeter())
	report.Score = lint.ScoreWith(report, merged, nil, fc.tokenMeter())
	return linted{path: merged.Source, cat: merged, report: report, flags: &fc}, 0
}

// baselineOf is the baseline of a run: one catalog's results as they are,
// several catalogs' each under its path.
func baselineOf(runs []linted) *baseline.File {
	if len(runs) == 1 {
		b := baseline.FromReport(runs[0].report)
		b.Remember(runs[0].cat)
		return b
	}
	b := baseline.NewMulti()
	for _, r := range runs {
		b.Add(r.path, r.report, r.cat)
	}
	return b
}

// writeOutput writes the reports in one format, to stdout or its file
// (replaced whole once written).
func writeOutput(o formatOutput, runs []linted, io stdio) error {
	if o.path == "" {
		w := &stickyWriter{w: io.out}
		err := writeReports(w, o.format, runs, io.color())
		return cmp.Or(err, w.err)
	}
	var b bytes.Buffer
	if err := writeReports(&b, o.format, runs, false); err != nil {
		return err
	}
	return writeReportFile(o.path, b.Bytes())
}

// writeReports writes every catalog's report in one format: JSON and SARIF
// as one document (SARIF with one run per catalog), the others one report
// after the other.
func writeReports(w io.Writer, format string, runs []linted, color bool) error {
	if format == "junit" {
		var jr []report.JUnitRun
		for _, r := range runs {
			jr = append(jr, report.JUnitRun{Report: r.report, Catalog: r.catalogFor(format)})
		}
		return report.WriteJUnit(w, jr)
	}
	if len(runs) == 1 {
		if slices.Contains(pageFormats, format) {
			return writePage(w, format, runs[0].report, runs[0].catalogFor(format), runs[0].flags, runs[0].probe)
		}
		return writeReportAs(w, runs[0].report, runs[0].catalogFor(format), runs[0].flags, format, color)
	}
	switch format {
	case "json":
		return writeJSONReports(w, runs)
	case "sarif":
		var sr []report.SARIFRun
		for _, r := range runs {
			pack := ""
			if r.flags.config != nil {
				pack = r.flags.config.Path
			}
			sr = append(sr, report.SARIFRun{Report: r.report, Catalog: r.catalogFor(format), Rules: ranRules(r.flags), Pack: pack})
		}
		return report.WriteSARIFRuns(w, sr, sarifOptions(runs[0].flags))
	}
	for i, r := range runs {
		if i > 0 && format != "github" {
			fmt.Fprintln(w)
		}
		if err := writeReportAs(w, r.report, r.catalogFor(format), r.flags, format, color); err != nil {
			return err
		}
	}
	if format == "text" {
		var failed []string
		for _, r := range runs {
			if !r.report.OK {
				failed = append(failed, r.path)
			}
		}
		line := fmt.Sprintf("%d catalogs: all pass", len(runs))
		if len(failed) > 0 {
			line = fmt.Sprintf("%d catalogs: %d fail: %s", len(runs), len(failed), strings.Join(failed, ", "))
		}
		fmt.Fprintf(w, "\n%s\n", termsafe.Line(line))
	}
	return nil
}

// catalogFor is the catalog as a format names it: the text report by the
// argument as typed, the others by the path from the repository root, so
// annotations and code-scanning alerts land on the file whatever
// directory the run started in.
func (r linted) catalogFor(format string) *catalog.Catalog {
	if format == "text" {
		return r.cat
	}
	c := *r.cat
	c.Source = r.path
	return &c
}

// writeJSONReports writes several catalogs' reports as one JSON document:
// the gate over all of them and each report under its path.
func writeJSONReports(w io.Writer, runs []linted) error {
	type entry struct {
		Path   string          `json:"path"`
		Report json.RawMessage `json:"report"`
	}
	doc := struct {
		OK       bool    `json:"ok"`
		Catalogs []entry `json:"catalogs"`
	}{OK: true}
	for _, r := range runs {
		var b bytes.Buffer
		if err := report.WriteJSON(&b, r.report); err != nil {
			return err
		}
		doc.OK = doc.OK && r.report.OK
		doc.Catalogs = append(doc.Catalogs, entry{Path: r.path, Report: bytes.TrimSpace(b.Bytes())})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// judgeReport applies the judge (or the recorded judgments) to one
// catalog's report, the progress line cleared first so that the judge's
// lines stand alone; a stop signal ends the asking.
func judgeReport(jf *judgeFlags, r *lint.Report, cat *catalog.Catalog, cfg *config.Config, arg string, io stdio, p *progress) (*lint.Report, error) {
	if p != nil {
		p.end()
	}
	ctx, stop := signalContext(context.Background())
	defer stop()
	c := judgeCall{report: r, cat: cat, cfg: cfg, arg: arg, io: io, cmd: "lint"}
	r, err := jf.apply(ctx, c)
	if err != nil {
		return nil, err
	}
	c.report = r
	return jf.review.apply(ctx, jf, c)
}

// analyzeCatalog runs the lint the flags ask for, reporting to p (when not
// nil).
func analyzeCatalog(ctx context.Context, cat *catalog.Catalog, f *catalogFlags, p *progress) (*lint.Report, error) {
	opts := f.options()
	// A report lists no tool's nearest neighbours (the explorer does), and
	// without them the risk kernel stops early on far more pairs; a judge
	// picks its questions from a few.
	opts.Neighbours = f.neighbours
	opts.MeasureTokens = f.measureTokens
	opts.Tokens = f.tokenMeter()
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
	return writeReportAs(w, r, cat, f, f.format, color)
}

// writeReportAs writes one report in a format (text when none).
func writeReportAs(w io.Writer, r *lint.Report, cat *catalog.Catalog, f *catalogFlags, format string, color bool) error {
	switch format {
	case "json":
		return report.WriteJSON(w, r)
	case "sarif":
		return report.WriteSARIF(w, r, cat, sarifOptions(f))
	case "github":
		return report.WriteGitHub(w, r, cat)
	case "markdown":
		return report.WriteMarkdown(w, r, report.MarkdownOptions{Source: cat.Source, MaxRows: 50, Top: 10})
	case "html", "badge":
		return writePage(w, format, r, cat, f, nil)
	default:
		o := report.DefaultTextOptions(cat.Source)
		o.Color = color
		return report.WriteText(w, r, o)
	}
}

// sarifOptions are the SARIF log's settings: the rules that ran, the
// version, the documentation's addresses, and the repository's root as
// %SRCROOT%.
func sarifOptions(f *catalogFlags) report.SARIFOptions {
	home, help := docsURLs()
	return report.SARIFOptions{Rules: ranRules(f), Version: versionLine(), InformationURI: home, HelpURI: help, SrcRoot: repoRoot()}
}

// ranRules is the rule pack as it ran under the flags and the config:
// without the rules switched off, each at the severity the config gives
// it, so a SARIF consumer reads the levels the results carry.
func ranRules(f *catalogFlags) []lint.Rule {
	o := f.options()
	rules := lint.EnabledRules(o.Rules, o.Disabled)
	if f.config == nil {
		return rules
	}
	for i, r := range rules {
		switch f.config.Rules[r.ID].Severity {
		case config.SeverityError:
			rules[i].Severity = lint.SeverityError
		case config.SeverityWarn:
			rules[i].Severity = lint.SeverityWarn
		}
	}
	return rules
}

// docsURLs are toolscope's home page and a rule's documentation, from the
// module path the binary was built from: a module hosted on GitHub has its
// repository's pages (docs/rules.md at the version's tag, or main); a local
// build ("toolscope") has none, and the log leaves them out.
func docsURLs() (home string, help func(ruleID string) string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok || !strings.HasPrefix(bi.Main.Path, "github.com/") {
		return "", nil
	}
	home = "https://" + bi.Main.Path
	ref := "main"
	if v := version(); v != "" && !strings.Contains(v, "-0.") {
		ref = v // a tag; a pseudo-version's commit is not worth a link
	}
	return home, func(id string) string { return home + "/blob/" + ref + "/docs/rules.md#" + id }
}

// version is the module version the binary was built from (`go install
// toolscope@v1.2.0` stamps it), "" for a development build.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ""
}

// versionLine is --version's answer: the module version, or for a
// development build the commit and its date when the build recorded them
// ("devel 6fea14f1c2d3 2026-05-01, modified").
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	line, _ := versionFrom(bi, ok)
	return line
}

// versionFrom is versionLine from build info, and for a development build
// that recorded no commit, how to get one (said on stderr by --version).
func versionFrom(bi *debug.BuildInfo, ok bool) (line, hint string) {
	const how = "no commit recorded in this build: build it inside a git clone (go build or go install from the clone; -buildvcs=true says why when git cannot be read), or install a release (go install MODULE@VERSION)"
	if !ok {
		return "devel", how
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v, ""
	}
	line = "devel"
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) >= 12 {
		line += " " + rev[:12]
	} else if rev != "" {
		line += " " + rev
	}
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		line += " " + t.UTC().Format(time.DateOnly)
	}
	if modified {
		line += ", modified"
	}
	if rev == "" {
		hint = how
	}
	return line, hint
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
