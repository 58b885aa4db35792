package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
	"toolscope/core/tokens"
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
	fs := newFlagSet("probe")
	model := fs.String("model", "", "the chat `MODEL` to probe, openai:NAME (required)")
	url := fs.String("model-url", "", "the probed model's OpenAI-compatible API base `URL` (default $TOOLSCOPE_JUDGE_URL, then $OPENAI_BASE_URL, then OpenAI)")
	fs.StringVar(url, "url", "", "the old spelling of --model-url `URL`")
	k := fs.Int("k", 5, "requests the model writes per tool")
	examples := fs.String("examples", "", "`FILE` of JSON lines {\"request\", \"tool\"} to send instead of written requests")
	format := fs.String("format", "text", "output `FORMAT`: "+strings.Join(probeFormats, ", "))
	maxCost := fs.Float64("max-cost", 1, "ask before running when the estimate is over this many `DOLLARS`")
	priceText := fs.String("model-price", "", "the probed model's price `IN,OUT` in dollars per million tokens (default: OpenAI list price if known; 0 for a local server)")
	fs.StringVar(priceText, "price", "", "the old spelling of --model-price `IN,OUT`")
	yes := fs.Bool("yes", false, "run whatever the estimate, without asking")
	concurrency := fs.Int("model-concurrency", judge.DefaultConcurrency, "at most `N` requests to the probed model in flight at once (as --judge-concurrency for the judge)")
	fs.IntVar(concurrency, "concurrency", judge.DefaultConcurrency, "the old spelling of --model-concurrency `N`")
	record := fs.Bool("record", false, "write the probe to the probe file, where the explorer shows it beside each pair's risk")
	probeFile := fs.String("probe-file", "", "the probe `FILE` --record writes (default: "+judge.ProbeFileName+" beside toolscope.yaml, else in the catalog's directory)")
	choice := fs.String("tool-choice", judge.ChoiceRequired, "`CHOICE` sent: required (a tool call required) or auto (the model may call none; negatives need it)")
	repeats := fs.Int("repeats", 1, "send each request `N` times: the first in catalog order, the others in orders shuffled from --seed")
	seed := fs.Uint64("seed", 1, "the `SEED` the orders of the repeats after the first are shuffled from")
	ff := addFixFlags(fs)
	// The offline check's flags are lint's: the embedder, the scoring,
	// the thresholds and the project config.
	f := newPairFlags(fs, nil)
	cfgFlags := addConfigFlags(fs)
	live := f.live
	positional, code, ok := parseCommand(fs, probeUsage, probeHelp, args, io)
	if !ok {
		return code
	}
	arg, rest, given := live.catalogArgs(positional)
	switch {
	case !given || len(rest) > 0:
		return usageError(io, "probe", fmt.Sprintf("want one CATALOG; got %s", plural(len(positional), "argument", "arguments")))
	case *model == "":
		return usageError(io, "probe", "--model openai:MODEL is required")
	case !slices.Contains(probeFormats, *format):
		return usageError(io, "probe", fmt.Sprintf("--format %q is not one of %s", *format, strings.Join(probeFormats, ", ")))
	case *k < 1 || *k > 100:
		return usageError(io, "probe", fmt.Sprintf("--k %d is outside 1..100", *k))
	case *concurrency < 1 || *concurrency > 64:
		return usageError(io, "probe", fmt.Sprintf("--model-concurrency %d is outside 1..64", *concurrency))
	case !finite(*maxCost) || *maxCost < 0:
		return usageError(io, "probe", fmt.Sprintf("--max-cost %v is not a number of dollars, 0 or more", *maxCost))
	case *choice != judge.ChoiceRequired && *choice != judge.ChoiceAuto:
		return usageError(io, "probe", fmt.Sprintf("--tool-choice %q is not required or auto", *choice))
	case *repeats < 1 || *repeats > judge.MaxRepeats:
		return usageError(io, "probe", fmt.Sprintf("--repeats %d is outside 1..%d", *repeats, judge.MaxRepeats))
	case *probeFile != "" && !*record:
		return usageError(io, "probe", "--probe-file names the file --record writes; add --record")
	}
	if err := ff.check(); err != nil {
		return usageError(io, "probe", err.Error())
	}
	cfg, code := withConfig("probe", arg, f, fs, cfgFlags, io)
	if code != 0 {
		return code
	}
	if spec := f.embedderSpec(); spec != "" {
		// Refused before any request is paid for, as lint would refuse it.
		if err := embed.Known(spec); err != nil {
			return usageError(io, "probe", err.Error())
		}
	}
	name, err := judge.ParseSpec(*model)
	if err != nil {
		return usageError(io, "probe", "--model "+err.Error())
	}
	var price *judge.Price
	if *priceText != "" {
		p, err := judge.ParsePrice(*priceText)
		if err != nil {
			return usageError(io, "probe", "--model-price: "+err.Error())
		}
		price = &p
	}
	fail := func(err error) int {
		fmt.Fprintf(io.err, "toolscope probe: %s\n", oneLine(err))
		return 2
	}
	cfgPath := ""
	if cfg != nil {
		cfgPath = cfg.Path
	}
	recordPath := ""
	if *record {
		recordPath = projectFile(*probeFile, judge.ProbeFileName, cfgPath, arg)
	}
	writable := isCatalogFile(arg, live)
	var judgments *judge.Records
	if *ff.fix {
		// Read before any request is paid for; one found rather than
		// named only when it is the user's own, as lint reads it.
		path := projectFile(*ff.judgments, judge.FileName, cfgPath, arg)
		read := judge.ReadFoundFile
		if *ff.judgments != "" {
			read = judge.ReadFile
		}
		if judgments, err = read(path); err != nil {
			return fail(err)
		}
	}
	// Every file written is compared with every file read, and each
	// target tried, before anything is sent or started.
	recordFlag := "--record"
	if *probeFile != "" {
		recordFlag = "--probe-file"
	}
	if code := probeWrites(probeFiles{arg: arg, cfgPath: cfgPath, serverList: live.config, examples: *examples, record: recordPath, recordFlag: recordFlag,
		fixWrite: *ff.fix && *ff.write && writable, judgments: projectFile(*ff.judgments, judge.FileName, cfgPath, arg), fix: *ff.fix}, io); code != 0 {
		return code
	}
	m, err := judge.New(judge.Options{Model: name, BaseURL: *url, URLFlag: "--model-url", Concurrency: *concurrency})
	if err == nil {
		err = missingKey(m, "--model-url")
	}
	if err != nil {
		return fail(err)
	}
	cat, err := live.load(arg, io)
	if err != nil {
		return fail(err)
	}
	tools, defs, names := probeTools(cat)
	if len(tools) < 2 {
		return fail(fmt.Errorf("%s: a probe needs at least two tools", cat.Source))
	}
	var cases []judge.ProbeCase
	if *examples != "" {
		data, err := safefile.Read(*examples, safefile.ReadOptions{Max: judge.MaxExamplesBytes})
		if errors.Is(err, safefile.ErrTooLarge) {
			return fail(fmt.Errorf("examples %s: larger than %s", *examples, safefile.Bytes(judge.MaxExamplesBytes)))
		}
		if err != nil {
			return fail(fmt.Errorf("examples %w", err))
		}
		ex, err := judge.ReadExamples(data, names)
		if err != nil {
			return fail(fmt.Errorf("examples %s: %w", *examples, err))
		}
		negatives := 0
		for _, e := range ex {
			cases = append(cases, judge.ProbeCase{Tool: e.Tool, Request: e.Request, From: judge.FromExamples})
			if e.Tool == judge.NoPick {
				negatives++
			}
		}
		if negatives > 0 && *choice != judge.ChoiceAuto {
			return usageError(io, "probe", fmt.Sprintf("examples %s: %d requests are meant for no tool (\"tool\": null); with --tool-choice required the model must call one: add --tool-choice auto", *examples, negatives))
		}
	}

	measured := tokens.Measure(cat, 0, false)
	requests := len(cases)
	if *examples == "" {
		requests = *k * len(tools)
	}
	requests *= *repeats
	p, known := judge.PriceFor(name, m.Endpoint(), price)
	if known {
		price = &p
	}
	est := judge.EstimateProbe(tools, *k, requests, *examples == "", measured.Total.O200k, price)
	fmt.Fprintf(io.err, "toolscope probe: %s at %s: %s\n", m.ID(), m.Endpoint(), est.String("--model-price"))
	if !*yes && (est.Dollars == nil || *est.Dollars > *maxCost) {
		why := "the price is unknown"
		if est.Dollars != nil {
			why = fmt.Sprintf("the estimate is over --max-cost $%.2f", *maxCost)
		}
		if !confirm(io, why) {
			fmt.Fprintf(io.err, "toolscope probe: not run: %s (pass --yes, or raise --max-cost)\n", why)
			return 2
		}
	}

	ctx, stop := signalContext(context.Background())
	defer stop()
	progress := func(string) func(int, int) { return nil }
	if io.errTTY {
		// One line rewritten in place, cleared after each stage.
		progress = func(what string) func(int, int) {
			return func(done, total int) {
				fmt.Fprintf(io.err, "\r\x1b[Ktoolscope probe: %s %d of %d", what, done, total)
			}
		}
	}
	clear := func() {
		if io.errTTY {
			fmt.Fprint(io.err, "\r\x1b[K")
		}
	}
	if *examples == "" {
		written, malformed, err := m.WriteAll(ctx, tools, *k, progress("requests written for"))
		clear()
		if err != nil {
			return fail(err)
		}
		for i, t := range tools {
			switch {
			case malformed[i] != "":
				fmt.Fprintf(io.err, "toolscope probe: note: %s: no requests written: malformed answer (asked twice): %s\n", termsafe.Line(t.Name), termsafe.Line(malformed[i]))
			case len(written[i]) < *k:
				fmt.Fprintf(io.err, "toolscope probe: note: %s: %d of %s kept (the others named the tool)\n", termsafe.Line(t.Name), len(written[i]), plural(*k, "request", "requests"))
			}
			cases = append(cases, written[i]...)
		}
	}
	if len(cases) == 0 {
		// Nothing to send: a record of nothing would replace the last one.
		return fail(errors.New("no request to send: every request written named its tool or came back malformed (see the notes above); nothing recorded"))
	}
	cases = repeated(cases, *repeats)
	used, err := m.PickAll(ctx, cases, defs, judge.PickOptions{Choice: *choice, Seed: *seed, Progress: progress("requests sent:")})
	clear()
	if err != nil {
		return fail(err)
	}
	judge.CheckArguments(cases, cat, time.Now(), time.Local)
	result := judge.Tabulate(m.ID(), names, cases)
	result.Usage = used
	result.ToolChoice, result.Seed = *choice, *seed
	scores, err := offlineScores(ctx, cat, f, cfg, io)
	switch {
	case err != nil:
		// The picks are paid for: they are reported whatever the check did.
		result.OfflineError = oneLine(err)
		fmt.Fprintf(io.err, "toolscope probe: note: no offline verdicts beside the picks: %s\n", result.OfflineError)
	case scores != nil:
		result = result.CheckOffline(scores)
	}
	// The picks are paid for: a record that cannot be written is said
	// after the report, which is written whatever.
	var recordErr error
	if *record {
		if recordErr = judge.NewProbeRecord(result, tools, time.Now()).WriteFile(recordPath); recordErr == nil {
			fmt.Fprintf(io.err, "toolscope probe: recorded %s for %s in %s\n", plural(len(result.Cases), "request", "requests"), plural(len(result.Matrix), "tool", "tools"), termsafe.Line(recordPath))
		}
	}
	fixFailed := false
	if *ff.fix {
		run := fixRun{flags: ff, model: m, modelURL: *url, price: price, maxCost: *maxCost, yes: *yes, cat: cat, arg: arg, cfgPath: cfgPath,
			seed: *seed, choice: *choice, conc: *concurrency, writable: writable, judgments: judgments}
		fixes, used, err := run.runFixes(ctx, result, io)
		result.Usage.PromptTokens += used.PromptTokens
		result.Usage.CompletionTokens += used.CompletionTokens
		if err != nil {
			// The probe is paid for: it is reported whatever the fixes did.
			fmt.Fprintf(io.err, "toolscope probe: fix: %s\n", oneLine(err))
			fixFailed = true
		} else {
			result.Fixes = fixes
			if *ff.write {
				written, err := run.writeFixes(fixes, io)
				switch {
				case err != nil:
					fmt.Fprintf(io.err, "toolscope probe: --write: %s\n", oneLine(err))
					fixFailed = true
				case written != nil && *record && recordErr == nil:
					// The record is of the catalog as --write left it, so
					// that lint --min-accuracy right after replays it.
					fresh := result
					fresh.Cases = judge.Refreshed(result.Cases, fixes)
					wtools, _, _ := probeTools(written)
					if recordErr = judge.NewProbeRecord(fresh, wtools, time.Now()).WriteFile(recordPath); recordErr == nil {
						fmt.Fprintf(io.err, "toolscope probe: recorded the written descriptions and the kept fixes' re-tested picks in %s\n", termsafe.Line(recordPath))
					}
				}
			} else if len(keptSentences(fixes)) > 0 {
				fmt.Fprintln(io.err, "toolscope probe: nothing written: --write appends the kept sentences to the catalog's descriptions")
			}
		}
	}
	out := &stickyWriter{w: io.out}
	switch *format {
	case "json":
		err = result.WriteJSON(termsafe.JSON(out))
	case "markdown":
		err = result.WriteMarkdown(out)
	default:
		err = safeProbe(result, scores).WriteText(out)
	}
	if err == nil {
		err = out.err
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope probe: writing the report: %s\n", oneLine(err))
		return 2
	}
	if recordErr != nil {
		return fail(recordErr)
	}
	if fixFailed {
		return 2
	}
	return 0
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
	tools := make([]judge.Tool, len(cat.Tools))
	defs := make([]json.RawMessage, len(cat.Tools))
	names := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		tools[i] = judge.FromCatalog(t)
		defs[i] = json.RawMessage(tokens.Definition(t))
		names[i] = t.Name
	}
	return tools, defs, names
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
	defer p.end()
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

// repeated is every case sent n times, numbered 1..n: all of the first
// sending, then all of the second, and so on.
func repeated(cases []judge.ProbeCase, n int) []judge.ProbeCase {
	out := make([]judge.ProbeCase, 0, len(cases)*n)
	for r := 1; r <= n; r++ {
		for _, c := range cases {
			c.Repeat = r
			out = append(out, c)
		}
	}
	return out
}

// confirm asks on a terminal whether to go on; off a terminal the answer
// is no.
func confirm(io stdio, why string) bool { return confirmAs(io, "probe", why) }

// finite reports whether f is a number, neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
