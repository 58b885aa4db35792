package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/baseline"
	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/pipeline"
	"toolscope/core/report"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
	"toolscope/embed"
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

// linted is one catalog's lint, as the reports take it.
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

// lintedOf is a catalog's lint as the run returned it; a merge has no
// probe record of its own.
func lintedOf(l *pipeline.Linted, merged bool) linted {
	r := linted{path: l.Path, cat: l.Catalog, report: l.Report, flags: l.Setup.Own.(*catalogFlags), probe: l.Probe}
	if !merged {
		r.probePath = probeRecordPath(l.Setup.Config, l.Arg)
	}
	return r
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

// lintOptions are lint's flags, parsed, and the catalogs they name.
type lintOptions struct {
	// catalog holds the flags every catalog shares, before its config
	// sets what they leave unset; fs says which were given.
	catalog *catalogFlags
	fs      *flag.FlagSet
	config  *configFlags
	judge   *judgeFlags
	run     lintRun
	// targets are the catalogs the arguments name (a folder or a pattern
	// expanded), one "" for --mcp-config's servers.
	targets []target
	// base is the --baseline file, read before the run.
	base *baseline.File
}

// newLintOptions declares lint's flags.
func newLintOptions() *lintOptions {
	fs := newFlagSet("lint")
	o := &lintOptions{fs: fs, catalog: newCatalogFlags(fs, lintFormats), config: addConfigFlags(fs)}
	lr := &o.run
	fs.StringVar(&lr.baselinePath, "baseline", "", "`FILE` of accepted results: the gate fails only on new ones (see --write-baseline)")
	fs.StringVar(&lr.writeBaseline, "write-baseline", "", "write this run's findings and flagged pairs to `FILE` as the baseline")
	fs.BoolVar(&lr.quiet, "quiet", false, "report errors and confusable pairs only: no warnings, no review pairs (the gate is unchanged)")
	fs.IntVar(&lr.maxWarnings, "max-warnings", -1, "fail when the run has more than `N` warnings, over every catalog (-1: no limit)")
	fs.Var(&lr.failOn, "fail-on", "`LIST` of what else fails the gate: review (the review pairs), stale (a config ignore or accept entry, or a baseline entry, that matched nothing)")
	fs.BoolVar(&lr.fix, "fix", false, "apply the findings' fixes to each catalog file, keeping its other bytes, then lint it again (docs/lint.md#fixes)")
	fs.BoolVar(&lr.merge, "merge", false, "lint several catalogs as one, similarity across them, as a host given all of them sees it (names qualified by each catalog's directory, or its file name when catalogs share a directory)")
	lr.probe = addProbeGateFlags(fs)
	o.judge = addJudgeFlags(fs)
	o.judge.noCache = &o.catalog.noCache
	o.judge.review = addReviewFlags(fs)
	return o
}

func runLint(args []string, io stdio) int {
	lintGC()
	o := newLintOptions()
	positional, code, ok := parseCommand(o.fs, lintUsage, lintHelp, args, io)
	if !ok {
		return code
	}
	if err := o.complete(positional); err != nil {
		return sayLintError(io, err)
	}
	return o.lint(io)
}

// badUsage is an error in the command line, said with the usage hint.
type badUsage string

func (b badUsage) Error() string { return string(b) }

// sayLintError says why a lint run ends and returns its exit code: 2,
// the usage hint after a command-line error.
func sayLintError(io stdio, err error) int {
	var said pipeline.Said
	var u badUsage
	switch {
	case errors.As(err, &said):
		return said.Code
	case errors.As(err, &u):
		return usageError(io, "lint", string(u))
	}
	fmt.Fprintf(io.err, "toolscope lint: %s\n", oneLine(err))
	return 2
}

// complete expands the arguments into catalogs and checks the flags
// against them, in the order their errors are said; then reads the
// baseline.
func (o *lintOptions) complete(positional []string) error {
	if err := o.expand(positional); err != nil {
		return err
	}
	if err := o.checkFiles(positional); err != nil {
		return err
	}
	if err := o.check(); err != nil {
		return err
	}
	// The JSON output shows every tool's token count, and the reports a
	// person reads state the catalog's size first; counting is paid only
	// for them.
	f := o.catalog
	f.measureTokens = measuresTokens(f.format)
	f.textOnly = f.format == "text"
	for _, out := range f.outputs {
		f.measureTokens = f.measureTokens || measuresTokens(out.format)
		f.textOnly = f.textOnly && out.format == "text"
	}
	if o.run.baselinePath != "" {
		b, err := baseline.Load(o.run.baselinePath)
		if err != nil {
			return err
		}
		o.base = b
	}
	return nil
}

// expand turns the arguments into the catalogs to lint.
func (o *lintOptions) expand(positional []string) error {
	live := o.catalog.live
	switch {
	case live.config != "" && len(positional) > 0:
		return badUsage(fmt.Sprintf("want CATALOG arguments or --mcp-config FILE, not both; got %s", plural(len(positional), "argument", "arguments")))
	case live.config != "":
		o.targets = []target{{arg: ""}}
		// A server that cannot start is a finding; the others are linted.
		live.keepGoing = true
	case len(positional) == 0:
		return badUsage("want a CATALOG (or several), or --mcp-config FILE")
	case slices.Contains(positional, ""):
		return badUsage(errEmptyCatalog)
	default:
		var err error
		o.targets, err = expandCatalogs(positional)
		return err
	}
	return nil
}

// merged says the run lints its catalogs as one.
func (o *lintOptions) merged() bool { return o.run.merge && len(o.targets) > 1 }

// checkFiles refuses a run that would write over what it reads, a page
// format for several catalogs, and stdin among several.
func (o *lintOptions) checkFiles(positional []string) error {
	f, lr := o.catalog, &o.run
	writes := formatWrites(f.outputs)
	if lr.writeBaseline != "" {
		writes = append(writes, [2]string{"--write-baseline " + lr.writeBaseline, lr.writeBaseline})
	}
	var inputs [][2]string
	for _, t := range o.targets {
		inputs = append(inputs, [2]string{"the catalog", t.arg})
	}
	if f.live.config != "" {
		inputs = append(inputs, [2]string{"the server list", f.live.config})
	}
	if lr.baselinePath != "" {
		inputs = append(inputs, [2]string{"the baseline", lr.baselinePath})
	}
	writes, inputs = o.judge.review.files(writes, inputs)
	reads, judged := lintFiles(o.targets, o.merged(), o.config, o.judge, lr.probe)
	if err := checkWrites(append(writes, judged...), append(inputs, reads...)); err != nil {
		return badUsage(err.Error())
	}
	if err := checkPageFormats(f, len(o.targets), lr.merge); err != nil {
		return badUsage(err.Error())
	}
	if slices.Contains(positional, "-") && len(o.targets) > 1 {
		return badUsage("stdin ('-') can only be linted alone")
	}
	return nil
}

// check checks the flags against each other and the catalogs.
func (o *lintOptions) check() error {
	f, lr := o.catalog, &o.run
	n := len(o.targets)
	if err := f.check(); err != nil && n > 1 {
		// With one catalog its config may still set what the flags lack.
		return badUsage(err.Error())
	}
	for _, w := range lr.failOn {
		if w != "stale" && w != "review" {
			return badUsage(fmt.Sprintf("--fail-on %s: want review or stale", w))
		}
	}
	f.review = slices.Contains(lr.failOn, "review")
	if lr.maxWarnings < -1 {
		return badUsage(fmt.Sprintf("--max-warnings %d: want 0 or more (-1: no limit)", lr.maxWarnings))
	}
	for _, err := range []error{o.judge.check(), o.judge.review.check(n, lr.merge), lr.probe.check(n, lr.merge)} {
		if err != nil {
			return badUsage(err.Error())
		}
	}
	for _, t := range o.targets {
		if why := fixableArg(t.arg, f.live, o.merged()); lr.fix && why != "" {
			return badUsage(why)
		}
	}
	return nil
}

// lint runs the lint (pipeline.Lint), then the baseline, the gate and
// the reports.
func (o *lintOptions) lint(io stdio) int {
	p := startProgress(io, "toolscope lint")
	defer p.End()
	req := o.request(io, p)
	got, err := pipeline.Lint(context.Background(), req)
	if err != nil {
		p.End()
		return sayLintError(io, err)
	}
	p.End()
	var runs []linted
	for _, l := range got {
		runs = append(runs, lintedOf(l, o.merged()))
	}
	lr := &o.run
	var created *baseline.File // the baseline this run created
	if lr.writeBaseline != "" {
		// Written before the comparison, so the file holds this run's
		// results and never a comparison's states.
		written := pipeline.Baseline(got)
		if err := written.WriteFile(lr.writeBaseline); err != nil {
			return sayLintError(io, err)
		}
		if o.base == nil {
			// The run is judged against what it just accepted: it passes.
			o.base, lr.baselinePath = written, lr.writeBaseline
			created = written
		}
	}
	if o.base != nil {
		pipeline.Accept(got, o.base, lr.baselinePath)
	}
	lr.probe.apply(runs, io)
	ok := pipeline.Gate(got, pipeline.GateRequest{FailOnStale: slices.Contains(lr.failOn, "stale"), MaxWarnings: lr.maxWarnings,
		Note: func(line string) { fmt.Fprintf(io.err, "toolscope lint: %s\n", line) }})
	if err := o.write(runs, created, io); err != nil {
		fmt.Fprintf(io.err, "toolscope lint: writing the report: %s\n", oneLine(err))
		return 2
	}
	if !ok {
		return 1
	}
	return 0
}

// write writes the reports in every format asked for; the run that
// creates the baseline says what it wrote instead of a text report on
// stdout.
func (o *lintOptions) write(runs []linted, created *baseline.File, io stdio) error {
	if o.run.quiet {
		for i := range runs {
			runs[i].report = errorsOnly(runs[i].report)
		}
	}
	f := o.catalog
	for _, out := range append([]formatOutput{{format: f.format}}, f.outputs...) {
		if created != nil && out.path == "" && (out.format == "" || out.format == "text") {
			// The run that creates the baseline says what it wrote, not a
			// report whose every result it just accepted.
			fmt.Fprintln(io.out, baselineCreated(created, o.run.writeBaseline, len(runs)))
			continue
		}
		if err := writeOutput(out, runs, io); err != nil {
			return err
		}
	}
	return nil
}

// request is the run the options ask for, the front end's parts wired in:
// each catalog's config and flags, the sources, the judge, --fix.
func (o *lintOptions) request(io stdio, p *progress) pipeline.LintRequest {
	args := make([]string, len(o.targets))
	for i, t := range o.targets {
		args[i] = t.arg
	}
	src := &lintSource{live: o.catalog.live, root: repoRoot(), records: newProbeReads("lint", o.run.probe.min.set), io: io}
	req := pipeline.LintRequest{Args: args, Merge: o.run.merge, Source: src, Progress: p, Memory: lintMemory{},
		Setup: func(arg string) (*pipeline.Setup, error) { return o.setup(arg, io) },
		Amend: amendWithServers,
		Judge: func(ctx context.Context, l *pipeline.Linted) (*lint.Report, error) {
			return judgeReport(ctx, o.judge, l, io)
		},
	}
	if o.run.fix {
		req.Fix = func(l *pipeline.Linted) (int, error) {
			n, err := fixFile(l.Arg, lintedOf(l, false), io)
			if err != nil {
				return 0, fmt.Errorf("--fix: %w", err)
			}
			return n, nil
		}
	}
	return req
}

// setup is a catalog's settings: the flags as the config found for arg
// (from its directory, or the working directory's for "") sets what no
// flag gave, and a judge's neighbours where the catalog is judged.
func (o *lintOptions) setup(arg string, io stdio) (*pipeline.Setup, error) {
	fc := *o.catalog
	cfg, code := withConfig("lint", arg, &fc, o.fs, o.config, io)
	if code != 0 {
		return nil, pipeline.Said{Code: code}
	}
	judging := o.judge.active(cfg, arg)
	if judging {
		fc.neighbours = judgeNeighbours
	}
	s := fc.setup(cfg)
	s.Judging = judging
	s.Recorded = o.judge.cached
	return s, nil
}

// setup is the pipeline's settings for a catalog under these flags and
// cfg (nil for none).
func (f *catalogFlags) setup(cfg *config.Config) *pipeline.Setup {
	o := f.options()
	// A report lists no tool's nearest neighbours (the explorer does), and
	// without them the risk kernel stops early on far more pairs; a judge
	// picks its questions from a few.
	o.Neighbours = f.neighbours
	o.MeasureTokens = f.measureTokens
	if f.textOnly {
		// A text report shows the first pairs of each list: only they
		// need their hints (a judged run details every pair).
		o.DetailLimit = report.DefaultTextOptions("").MaxPairs
	}
	o.Tokens = f.tokenMeter()
	s := &pipeline.Setup{Config: cfg, Options: o, Strict: f.strict, Tokens: f.tokenMeter(), Own: f}
	if spec := f.embedderSpec(); spec != "" {
		s.Embedder = func() (embed.Embedder, error) { return f.openEmbedder(spec) }
	}
	return s
}

// lintSource is where lint's catalogs come from: files, stdin, live
// servers and the server list, named from the repository's root.
type lintSource struct {
	live    *liveFlags
	root    string
	records *probeReads
	io      stdio
}

func (s *lintSource) Label(arg string) string { return s.live.loadLabel(arg) }

func (s *lintSource) Load(arg string) (*catalog.Catalog, error) { return s.live.load(arg, s.io) }

// Path is the catalog's path from the repository's root; the server
// list's servers are named by the list's file.
func (s *lintSource) Path(arg string, cat *catalog.Catalog) string {
	if arg == "" {
		return repoPath(s.root, cat.Source)
	}
	return repoPath(s.root, arg)
}

func (s *lintSource) Probe(l *pipeline.Linted) *judge.ProbeRecord {
	return s.records.find(l.Setup.Config, l.Arg, s.io)
}

// lintMemory tunes the collector for what a lint loads (gc.go).
type lintMemory struct{}

func (lintMemory) File(arg string) { lintGCForFile(arg) }
func (lintMemory) Tools(n int)     { lintGCFor(n) }

// amendWithServers adds the server list's own findings (its entries, the
// servers that did not start) to its servers' report.
func amendWithServers(l *pipeline.Linted) (*lint.Report, error) {
	f := l.Setup.Own.(*catalogFlags)
	if f.live.loaded == nil {
		return l.Report, nil
	}
	return withConfigHygiene(l.Report, l.Catalog, f.live.loaded, f.live.failed, f.options().Disabled)
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

// judgeReport applies the judge (or the recorded judgments) and the
// model review to one catalog's report; a stop signal ends the asking.
func judgeReport(ctx context.Context, jf *judgeFlags, l *pipeline.Linted, io stdio) (*lint.Report, error) {
	ctx, stop := signalContext(ctx)
	defer stop()
	c := judgeCall{report: l.Report, cat: l.Catalog, cfg: l.Setup.Config, arg: l.Arg, io: io, cmd: "lint"}
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
	var pp pipeline.Progress
	if p != nil {
		pp = p
	}
	return pipeline.Analyze(ctx, cat, f.setup(nil), pp)
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
