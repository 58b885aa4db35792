package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/probe"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
	"toolscope/embed"
)

const (
	probeUsage   = "probe --model openai:MODEL [flags] CATALOG  |  probe diff OLD NEW"
	probeSummary = "ask a chat model which tool it would call for realistic requests, and tabulate its picks"
	probeHelp    = probeSummary + `.

For each tool the model writes K requests that need that tool without
naming it; for a tool with Anthropic input_examples (example arguments),
one of them from each example, as the call it should lead to (or
--examples gives the requests: JSON lines of {"request", "tool"}, the
tool null for a request no tool fits). Each request is then sent with
the whole catalog as tools, a tool call required (--tool-choice auto
leaves it to the model: negatives need it), --repeats N times (the first
in catalog order, the others in orders shuffled from --seed), and the
tool called is recorded with its arguments, which go through the
boundary check-args applies (schema, declarations, periods) against the
tool called. The output is the confusion
matrix and, per tool, where its requests went ("3 of 5 requests for a went
to b"). --record keeps the probe in a file (toolscope.probe.json beside
toolscope.yaml by default) that the explorer reads: the Pairs pane shows,
beside each pair's risk, how many of the requests for either tool went to
the other.

Beside the picks, the report sets toolscope's offline similarity check of
the same catalog, run after the picks as lint runs it (--embedder,
--scoring, --threshold and the project config's thresholds and accepted
pairs): each confusion carries the pair's offline risk and verdict, and a
section names the pairs the model confused that the check did not flag,
then the pairs flagged confusable whose requests never crossed. If the
check fails, the probe is reported without it and a note says why.

The cost is estimated and printed first. When it is over --max-cost, or no
price is known, the probe asks before sending (or needs --yes when not on
a terminal). The endpoint is --model-url, else $TOOLSCOPE_JUDGE_URL, else
$OPENAI_BASE_URL, else OpenAI; the key is $TOOLSCOPE_JUDGE_KEY or
$OPENAI_API_KEY. See docs/judge.md.

--fix tests the judge's proposed sentences for each confused pair: the
requests that touch the pair are sent again with both descriptions
amended, in the same orders, and the fix is kept only when more go right
and none goes wrong (McNemar's exact p beside it); --write appends the
kept sentences to the catalog file's descriptions, nothing else.

toolscope probe diff OLD NEW compares two records request by request
(McNemar's exact p); see toolscope probe diff --help.

Exit codes: 0 the probe ran, 2 usage or input error, a refused cost or a
failed request.`
)

func init() {
	register(command{name: "probe", usage: probeUsage, summary: probeSummary, run: runProbe})
}

// probeFormats are what `probe --format` accepts, the default first.
var probeFormats = []string{"text", "json", "markdown"}

func runProbe(args []string, io stdio) int {
	if len(args) > 0 && args[0] == "diff" {
		return runProbeDiff(args[1:], io)
	}
	o, code, ok := newProbeOptions(args, io)
	if !ok {
		return code
	}
	return o.run()
}

// probeOptions are probe's command line, parsed and checked.
type probeOptions struct {
	io stdio
	// arg is the CATALOG argument ("" with --mcp-config).
	arg string

	// The probed model: its spec, endpoint, price as given (IN,OUT) and
	// requests in flight.
	model, modelURL, priceText string
	concurrency                int

	// The requests: k written per tool, or the --examples file's; each
	// sent --repeats times, the orders after the first shuffled from
	// --seed, with --tool-choice.
	k, repeats       int
	examples, choice string
	seed             uint64

	// The cost asked about over --max-cost, unless --yes.
	maxCost float64
	yes     bool

	// The report's format, and the record (--record, at --probe-file).
	format, probeFile string
	record            bool

	fix fixOptions
	// pair are the offline check's flags, lint's: the embedder, the
	// scoring and the thresholds, with the project config's (cfgFlags);
	// fs tells which were given.
	pair     *catalogFlags
	cfgFlags *configFlags
	fs       *flag.FlagSet
}

// newProbeOptions parses probe's command line. When ok is false the
// command ends with code (help printed, or one line on stderr).
func newProbeOptions(args []string, io stdio) (*probeOptions, int, bool) {
	o := &probeOptions{io: io}
	o.declare()
	positional, code, ok := parseCommand(o.fs, probeUsage, probeHelp, args, io)
	if !ok {
		return nil, code, false
	}
	arg, rest, given := o.pair.live.catalogArgs(positional)
	if msg := o.check(len(positional), given && len(rest) == 0); msg != "" {
		return nil, usageError(io, "probe", msg), false
	}
	o.arg = arg
	return o, 0, true
}

// declare declares probe's flags, each bound to its option.
func (o *probeOptions) declare() {
	fs := newFlagSet("probe")
	fs.StringVar(&o.model, "model", "", "the chat `MODEL` to probe, openai:NAME (required)")
	fs.StringVar(&o.modelURL, "model-url", "", "the probed model's OpenAI-compatible API base `URL` (default $TOOLSCOPE_JUDGE_URL, then $OPENAI_BASE_URL, then OpenAI)")
	fs.StringVar(&o.modelURL, "url", "", "the old spelling of --model-url `URL`")
	fs.IntVar(&o.k, "k", 5, "requests the model writes per tool")
	fs.StringVar(&o.examples, "examples", "", "`FILE` of JSON lines {\"request\", \"tool\"} to send instead of written requests")
	fs.StringVar(&o.format, "format", "text", "output `FORMAT`: "+strings.Join(probeFormats, ", "))
	fs.Float64Var(&o.maxCost, "max-cost", 1, "ask before running when the estimate is over this many `DOLLARS`")
	fs.StringVar(&o.priceText, "model-price", "", "the probed model's price `IN,OUT` in dollars per million tokens (default: OpenAI list price if known; 0 for a local server)")
	fs.StringVar(&o.priceText, "price", "", "the old spelling of --model-price `IN,OUT`")
	fs.BoolVar(&o.yes, "yes", false, "run whatever the estimate, without asking")
	fs.IntVar(&o.concurrency, "model-concurrency", judge.DefaultConcurrency, "at most `N` requests to the probed model in flight at once (as --judge-concurrency for the judge)")
	fs.IntVar(&o.concurrency, "concurrency", judge.DefaultConcurrency, "the old spelling of --model-concurrency `N`")
	fs.BoolVar(&o.record, "record", false, "write the probe to the probe file, where the explorer shows it beside each pair's risk")
	fs.StringVar(&o.probeFile, "probe-file", "", "the probe `FILE` --record writes (default: "+judge.ProbeFileName+" beside toolscope.yaml, else in the catalog's directory)")
	fs.StringVar(&o.choice, "tool-choice", judge.ChoiceRequired, "`CHOICE` sent: required (a tool call required) or auto (the model may call none; negatives need it)")
	fs.IntVar(&o.repeats, "repeats", 1, "send each request `N` times: the first in catalog order, the others in orders shuffled from --seed")
	fs.Uint64Var(&o.seed, "seed", 1, "the `SEED` the orders of the repeats after the first are shuffled from")
	o.fix.declare(fs)
	o.pair = newPairFlags(fs, nil)
	o.cfgFlags = addConfigFlags(fs)
	o.fs = fs
}

// check is what is wrong with the options, "" when nothing: n positional
// arguments were given, one CATALOG when catalogOK.
func (o *probeOptions) check(n int, catalogOK bool) string {
	switch {
	case !catalogOK:
		return fmt.Sprintf("want one CATALOG; got %s", plural(n, "argument", "arguments"))
	case o.model == "":
		return "--model openai:MODEL is required"
	case !slices.Contains(probeFormats, o.format):
		return fmt.Sprintf("--format %q is not one of %s", o.format, strings.Join(probeFormats, ", "))
	case o.k < 1 || o.k > 100:
		return fmt.Sprintf("--k %d is outside 1..100", o.k)
	case o.concurrency < 1 || o.concurrency > 64:
		return fmt.Sprintf("--model-concurrency %d is outside 1..64", o.concurrency)
	case !finite(o.maxCost) || o.maxCost < 0:
		return fmt.Sprintf("--max-cost %v is not a number of dollars, 0 or more", o.maxCost)
	case o.choice != judge.ChoiceRequired && o.choice != judge.ChoiceAuto:
		return fmt.Sprintf("--tool-choice %q is not required or auto", o.choice)
	case o.repeats < 1 || o.repeats > judge.MaxRepeats:
		return fmt.Sprintf("--repeats %d is outside 1..%d", o.repeats, judge.MaxRepeats)
	case o.probeFile != "" && !o.record:
		return "--probe-file names the file --record writes; add --record"
	}
	if err := o.fix.check(); err != nil {
		return err.Error()
	}
	return ""
}

// run reads what the probe needs, asks before paying, runs it and
// renders the report.
func (o *probeOptions) run() int {
	in, code := o.inputs()
	if code != 0 {
		return code
	}
	req, code := o.request(in)
	if code != 0 {
		return code
	}
	if err := probe.Gate(req); err != nil {
		return o.fail(err)
	}
	// Stop signals are caught once the question is answered: Ctrl-C at
	// the question ends the command as anywhere else before.
	ctx, stop := signalContext(context.Background())
	defer stop()
	res, err := probe.Send(ctx, req)
	if err != nil {
		return o.fail(err)
	}
	return o.render(res)
}

// probeInputs are what the probe reads and where it writes, resolved
// before any request is paid for.
type probeInputs struct {
	cfg *config.Config
	// name is the probed model's; price is --model-price, nil when not
	// given.
	name  string
	price *judge.Price
	// record is where --record writes ("" without it); writable is set
	// when the catalog is a file --write may change.
	cfgPath, record string
	writable        bool
	// judgments are the recorded sentences --fix reuses.
	judgments *judge.Records
}

// inputs reads the project config and the judgments, parses the model
// and its price, and checks every file the probe writes. A non-zero code
// ends the command, its line written.
func (o *probeOptions) inputs() (probeInputs, int) {
	var in probeInputs
	cfg, code := withConfig("probe", o.arg, o.pair, o.fs, o.cfgFlags, o.io)
	if code != 0 {
		return in, code
	}
	in.cfg = cfg
	if spec := o.pair.embedderSpec(); spec != "" {
		// Refused before any request is paid for, as lint would refuse it.
		if err := embed.Known(spec); err != nil {
			return in, usageError(o.io, "probe", err.Error())
		}
	}
	name, err := judge.ParseSpec(o.model)
	if err != nil {
		return in, usageError(o.io, "probe", "--model "+err.Error())
	}
	in.name = name
	if o.priceText != "" {
		p, err := judge.ParsePrice(o.priceText)
		if err != nil {
			return in, usageError(o.io, "probe", "--model-price: "+err.Error())
		}
		in.price = &p
	}
	if cfg != nil {
		in.cfgPath = cfg.Path
	}
	if o.record {
		in.record = projectFile(o.probeFile, judge.ProbeFileName, in.cfgPath, o.arg)
	}
	in.writable = isCatalogFile(o.arg, o.pair.live)
	if o.fix.fix {
		if in.judgments, err = o.fix.read(in.cfgPath, o.arg); err != nil {
			return in, o.fail(err)
		}
	}
	return in, o.checkWrites(in)
}

// checkWrites compares every file written with every file read, and
// tries each target, before anything is sent or started.
func (o *probeOptions) checkWrites(in probeInputs) int {
	recordFlag := "--record"
	if o.probeFile != "" {
		recordFlag = "--probe-file"
	}
	return probeWrites(probeFiles{arg: o.arg, cfgPath: in.cfgPath, serverList: o.pair.live.config, examples: o.examples, record: in.record, recordFlag: recordFlag,
		fixWrite: o.fix.fix && o.fix.write && in.writable, judgments: projectFile(o.fix.judgments, judge.FileName, in.cfgPath, o.arg), fix: o.fix.fix}, o.io)
}

// request builds the probed model, loads the catalog and reads the
// examples: the probe's request. A non-zero code ends the command.
func (o *probeOptions) request(in probeInputs) (probe.Request, int) {
	m, err := judge.New(judge.Options{Model: in.name, BaseURL: o.modelURL, URLFlag: "--model-url", Concurrency: o.concurrency})
	if err == nil {
		err = missingKey(m, "--model-url")
	}
	if err != nil {
		return probe.Request{}, o.fail(err)
	}
	cat, err := o.pair.live.load(o.arg, o.io)
	if err != nil {
		return probe.Request{}, o.fail(err)
	}
	if len(cat.Tools) < 2 {
		return probe.Request{}, o.fail(fmt.Errorf("%s: a probe needs at least two tools", cat.Source))
	}
	_, _, names := probe.Tools(cat)
	cases, code := o.readExamples(names)
	if code != 0 {
		return probe.Request{}, code
	}
	price := in.price
	if p, known := judge.PriceFor(in.name, m.Endpoint(), price); known {
		price = &p
	}
	req := probe.Request{Catalog: cat, Model: m, Price: price, K: o.k, Examples: o.examples != "", Cases: cases,
		Repeats: o.repeats, Seed: o.seed, Choice: o.choice, MaxCost: o.maxCost, Yes: o.yes, Record: in.record, IO: o.probeIO(),
		Offline: func(ctx context.Context, cat *catalog.Catalog) (*judge.OfflineScores, error) {
			return offlineScores(ctx, cat, o.pair, in.cfg, o.io)
		}}
	if o.fix.fix {
		req.Fix = &probe.Fix{Judge: o.fix.judgeOf(m, o.modelURL, price, o.concurrency), Judgments: in.judgments, Write: o.fix.write}
		if in.writable {
			req.Fix.File = o.arg
		}
	}
	return req, 0
}

// readExamples reads --examples: the requests to send, none written.
func (o *probeOptions) readExamples(names []string) ([]judge.ProbeCase, int) {
	if o.examples == "" {
		return nil, 0
	}
	data, err := safefile.Read(o.examples, safefile.ReadOptions{Max: judge.MaxExamplesBytes})
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, o.fail(fmt.Errorf("examples %s: larger than %s", o.examples, safefile.Bytes(judge.MaxExamplesBytes)))
	}
	if err != nil {
		return nil, o.fail(fmt.Errorf("examples %w", err))
	}
	ex, err := judge.ReadExamples(data, names)
	if err != nil {
		return nil, o.fail(fmt.Errorf("examples %s: %w", o.examples, err))
	}
	var cases []judge.ProbeCase
	negatives := 0
	for _, e := range ex {
		cases = append(cases, judge.ProbeCase{Tool: e.Tool, Request: e.Request, From: judge.FromExamples})
		if e.Tool == judge.NoPick {
			negatives++
		}
	}
	if negatives > 0 && o.choice != judge.ChoiceAuto {
		return nil, usageError(o.io, "probe", fmt.Sprintf("examples %s: %d requests are meant for no tool (\"tool\": null); with --tool-choice required the model must call one: add --tool-choice auto", o.examples, negatives))
	}
	return cases, 0
}

// probeIO is how the probe talks on stderr: its notes, on a terminal a
// progress line rewritten in place and cleared after each stage, and the
// question before paying.
func (o *probeOptions) probeIO() probe.IO {
	pio := probe.IO{Notes: o.io.err, Confirm: func(why string) bool { return confirm(o.io, why) }}
	if o.io.errTTY {
		pio.Progress = func(what string) func(int, int) {
			return func(done, total int) {
				fmt.Fprintf(o.io.err, "\r\x1b[Ktoolscope probe: %s %d of %d", what, done, total)
			}
		}
		pio.Clear = func() { fmt.Fprint(o.io.err, "\r\x1b[K") }
	}
	return pio
}

// render writes the report in the format asked for; then a record that
// could not be written, or fixes that failed, fail the command.
func (o *probeOptions) render(res probe.Result) int {
	out := &stickyWriter{w: o.io.out}
	var err error
	switch o.format {
	case "json":
		err = res.Probe.WriteJSON(termsafe.JSON(out))
	case "markdown":
		err = res.Probe.WriteMarkdown(out)
	default:
		err = safeProbe(res.Probe, res.Scores).WriteText(out)
	}
	if err == nil {
		err = out.err
	}
	if err != nil {
		fmt.Fprintf(o.io.err, "toolscope probe: writing the report: %s\n", oneLine(err))
		return 2
	}
	if res.RecordErr != nil {
		return o.fail(res.RecordErr)
	}
	if res.FixFailed {
		return 2
	}
	return 0
}

// fail says err on stderr; the command ends with 2.
func (o *probeOptions) fail(err error) int {
	fmt.Fprintf(o.io.err, "toolscope probe: %s\n", oneLine(err))
	return 2
}

// probeFiles are the files a probe reads and writes.
type probeFiles struct {
	arg, cfgPath, serverList, examples, judgments string
	// record is the probe record --record writes, "" without it;
	// recordFlag names it: --probe-file when that named it, else --record.
	record, recordFlag string
	// fix is --fix (the judgments file is read); fixWrite --write on a
	// catalog file.
	fix, fixWrite bool
}

// probeWrites refuses, before anything is sent or started, a probe that
// would write over a file it reads (--probe-file CATALOG, --probe-file
// EXAMPLES, the config, the judgments) or into a target it cannot write
// (a symlink, not a regular file, a folder that takes no file); a
// non-zero code means the run ends, its line written.
func probeWrites(f probeFiles, io stdio) int {
	var writes [][2]string
	if f.record != "" {
		writes = append(writes, [2]string{f.recordFlag + " " + f.record, f.record})
	}
	if f.fixWrite {
		writes = append(writes, [2]string{"--write " + f.arg, f.arg})
	}
	inputs := [][2]string{{"the catalog", f.arg}, {"the server list", f.serverList}, {"the config", f.cfgPath}, {"the examples", f.examples}}
	if f.fix {
		if _, err := os.Stat(f.judgments); err == nil {
			inputs = append(inputs, [2]string{"the judgments file", f.judgments})
		}
	}
	if err := checkWrites(writes, inputs); err != nil {
		return usageError(io, "probe", err.Error())
	}
	for _, w := range writes {
		if err := safefile.Preflight(w[1]); err != nil {
			fmt.Fprintf(io.err, "toolscope probe: %s: %s\n", flagOf(w[0]), oneLine(err))
			return 2
		}
	}
	return 0
}

// probeTools is the catalog as the judge reads it, as a request's "tools"
// carries it, and its names.
func probeTools(cat *catalog.Catalog) ([]judge.Tool, []json.RawMessage, []string) {
	return probe.Tools(cat)
}

// probeRankLimit is how many pairs the probe's offline check keeps with
// their scores: every pair of 1,000 tools (0.4 s and 150 MB with the
// vectors cached), a bound on memory beyond.
const probeRankLimit = 1000 * 999 / 2

// offlineScores runs the static similarity check on the probed catalog
// as lint runs it (the flags, then the project config, then the
// defaults; the config's accepted pairs applied), every pair scored so
// that any pair the model confused has its score. Recorded judgments are
// not applied: the check set beside the picks is the text-only one. Nil
// and no error when similarity is off.
func offlineScores(ctx context.Context, cat *catalog.Catalog, f *catalogFlags, cfg *config.Config, io stdio) (*judge.OfflineScores, error) {
	if f.embedderSpec() == "" {
		fmt.Fprintln(io.err, "toolscope probe: note: similarity is off: no offline verdicts beside the picks")
		return nil, nil
	}
	fc := *f
	// Every pair of a catalog up to 1,000 tools; beyond, the top
	// probeRankLimit, a pair under them said to score under the last.
	fc.rankLimit = probeRankLimit
	p := startProgress(io, "toolscope probe: offline check")
	defer p.End()
	r, err := analyzeCatalog(ctx, cat, &fc, p)
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		r = cfg.Apply(r, cat)
	}
	return judge.NewOfflineScores(r), nil
}

// safeProbe spells out control characters in the names a terminal shows,
// the offline check's verdicts kept beside them.
func safeProbe(p judge.Probe, scores *judge.OfflineScores) judge.Probe {
	clean := func(s string) string { return termsafe.Line(s) }
	out := p
	out.Tools = make([]string, len(p.Tools))
	for i, t := range p.Tools {
		out.Tools[i] = clean(t)
	}
	out.Cases = make([]judge.ProbeCase, len(p.Cases))
	for i, c := range p.Cases {
		issues := make([]string, len(c.ArgumentIssues))
		for j, is := range c.ArgumentIssues {
			issues[j] = clean(is)
		}
		out.Cases[i] = judge.ProbeCase{Tool: clean(c.Tool), Request: clean(c.Request), Picked: clean(c.Picked), From: c.From, Repeat: c.Repeat, Arguments: c.Arguments, ArgumentIssues: issues}
	}
	safe := judge.Tabulate(p.Model, out.Tools, out.Cases)
	safe.ToolChoice, safe.Seed, safe.Usage = p.ToolChoice, p.Seed, p.Usage
	if scores != nil && p.Offline != nil {
		sc := scores.Renamed(clean)
		sc.Embedder, sc.Config = clean(sc.Embedder), clean(sc.Config)
		sc.Notes = make([]string, len(scores.Notes))
		for i, n := range scores.Notes {
			sc.Notes[i] = clean(n)
		}
		safe = safe.CheckOffline(sc)
	}
	safe.OfflineError = p.OfflineError
	if p.Fixes != nil {
		safe.Fixes = make([]judge.FixTrial, len(p.Fixes))
		for i, f := range p.Fixes {
			f.A, f.B, f.Why = clean(f.A), clean(f.B), clean(f.Why)
			f.Sentences = judge.FixSentences{A: clean(f.Sentences.A), B: clean(f.Sentences.B)}
			safe.Fixes[i] = f
		}
	}
	return safe
}

// confirm asks on a terminal whether to go on; off a terminal the answer
// is no.
func confirm(io stdio, why string) bool { return confirmAs(io, "probe", why) }

// finite reports whether f is a number, neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
