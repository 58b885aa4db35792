package cli

import (
	"bytes"
	"context"
	"fmt"
	stdlibio "io"
	"os"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/diff"
	"toolscope/core/report"
	"toolscope/core/similarity"
)

const (
	diffUsage   = "diff [flags] OLD NEW"
	diffSummary = "what changed between two catalogs: tools added, removed, renamed; descriptions; breaking changes; new confusable pairs (exit 1 on breaking changes)"
)

var diffHelp = diffSummary + `

OLD and NEW are catalogs as lint takes them: files, '-' for stdin (one of
them), 'mcp:COMMAND ARGS...' or an http(s):// URL of an MCP server; with
--mcp-config FILE, NEW is its servers' merged catalog and only OLD is given.
Breaking changes are those after which a call that worked may fail: a tool
removed or renamed, a new required parameter, a parameter removed, an enum
value removed, a type narrowed, a pattern, format or bound added or
tightened, undeclared keys refused, an anyOf, oneOf or $ref added or
changed, a field of the result no longer declared. --format github
annotates each change at the tool's line in NEW.`

func init() {
	register(command{name: "diff", usage: diffUsage, summary: diffSummary, run: runDiff})
}

// diffFailOn are what --fail-on accepts beside the levels.
var diffFailOn = []string{"breaking", "security", "descriptions", "any-description", "pairs", "none"}

// parseDiffFailOn reads --fail-on: a level fails the gate on changes of
// that level and above (the least level given wins); the other words add
// what they name. Nothing given is error.
func parseDiffFailOn(words []string) (diff.Fail, error) {
	var fail diff.Fail
	if len(words) == 0 {
		words = []string{"error"}
	}
	for _, w := range words {
		if l, ok := diff.ParseLevel(w); ok {
			if fail.Level == "" || !l.AtLeast(fail.Level) {
				fail.Level = l
			}
			continue
		}
		switch w {
		case "breaking":
			if fail.Level == "" {
				fail.Level = diff.LevelError
			}
		case "security":
			fail.Security = true
		case "descriptions":
			fail.Descriptions = true
		case "any-description":
			fail.Descriptions, fail.Titles = true, true
		case "pairs":
			fail.Pairs = true
		case "none":
		default:
			return fail, fmt.Errorf("--fail-on %s: want error, warn, info, %s", w, strings.Join(diffFailOn, ", "))
		}
	}
	return fail, nil
}

func runDiff(args []string, io stdio) int {
	fs := newFlagSet("diff")
	f := newPairFlags(fs, []string{"text", "json", "markdown", "github"})
	cfgFlags := addConfigFlags(fs)
	failOn := listFlag{}
	fs.Var(&failOn, "fail-on", "`WHAT,...` fails the gate: a level (error or breaking, warn, info: that level and above), security, descriptions, any-description (descriptions and titles), pairs, or none (default error)")
	jf := addJudgeFlags(fs)
	jf.noCache = &f.noCache
	positional, code, ok := parseCommand(fs, diffUsage, diffHelp, args, io)
	if !ok {
		return code
	}
	want := 2
	if f.live.config != "" {
		want = 1
	}
	if len(positional) != want {
		return usageError(io, "diff", fmt.Sprintf("want OLD and NEW (or OLD and --mcp-config FILE); got %s", plural(len(positional), "argument", "arguments")))
	}
	if slices.Contains(positional, "") {
		return usageError(io, "diff", errEmptyCatalog)
	}
	var inputs [][2]string
	for _, a := range positional {
		inputs = append(inputs, [2]string{"the catalog", a})
	}
	if f.live.config != "" {
		inputs = append(inputs, [2]string{"the server list", f.live.config})
	}
	reads, judged := diffFiles(positional, cfgFlags, jf)
	if err := checkWrites(append(formatWrites(f.outputs), judged...), append(inputs, reads...)); err != nil {
		return usageError(io, "diff", err.Error())
	}
	if want == 2 && positional[0] == "-" && positional[1] == "-" {
		return usageError(io, "diff", "only one of OLD and NEW can be stdin")
	}
	fail, err := parseDiffFailOn(failOn)
	if err != nil {
		return usageError(io, "diff", err.Error())
	}
	newArg := ""
	if want == 2 {
		newArg = positional[1]
	}
	cfg, code := withConfig("diff", newArg, f, fs, cfgFlags, io)
	if code != 0 {
		return code
	}
	if err := jf.check(); err != nil {
		return usageError(io, "diff", err.Error())
	}
	pj := pairJudge{flags: jf, cfg: cfg, arg: newArg, io: io}
	if jf.active(cfg, newArg) {
		f.neighbours = judgeNeighbours
	} else {
		pj.flags = nil
	}
	// OLD is always one source; NEW may be --mcp-config's servers.
	oldLive := *f.live
	oldLive.config = ""
	p := startProgress(io, "toolscope diff")
	defer p.end()
	p.step("loading OLD")
	oldCat, err := oldLive.load(positional[0], io)
	if err != nil {
		p.end()
		fmt.Fprintf(io.err, "toolscope diff: OLD: %s\n", oneLine(err))
		return 2
	}
	p.step("loading NEW")
	newCat, err := f.live.load(newArg, io)
	if err != nil {
		p.end()
		fmt.Fprintf(io.err, "toolscope diff: NEW: %s\n", oneLine(err))
		return 2
	}
	p.step("comparing")
	r := diff.Compare(oldCat, newCat)
	if cfg != nil && cfg.DiffLevels != nil {
		r.SetLevels(cfg.DiffLevels)
	}
	if f.embedderSpec() != "" {
		p.setName("toolscope diff (OLD)")
		oldPairs, err := confusablePairs(oldCat, f, cfg, p, pj)
		if err == nil {
			var newPairs []similarity.PairFinding
			p.setName("toolscope diff (NEW)")
			newPairs, err = confusablePairs(newCat, f, cfg, p, pj)
			r.SetPairs(oldPairs, newPairs)
		}
		p.end()
		if err != nil {
			fmt.Fprintf(io.err, "toolscope diff: %s\n", oneLine(err))
			return 2
		}
	}
	p.end()
	r.Gate(fail)
	// Annotations name NEW by its path from the repository's root, as
	// lint's do.
	machineNew := *newCat
	machineNew.Source = repoPath(repoRoot(), newArg)
	if newArg == "" {
		machineNew.Source = newCat.Source
	}
	write := func(w stdlibio.Writer, format string) error {
		switch format {
		case "json":
			return report.WriteDiffJSON(w, r)
		case "markdown":
			return report.WriteDiffMarkdown(w, r, fail)
		case "github":
			return report.WriteDiffGitHub(w, r, &machineNew, fail)
		}
		return report.WriteDiffText(w, r, fail)
	}
	for _, o := range append([]formatOutput{{format: f.format}}, f.outputs...) {
		if o.path == "" {
			err = write(io.out, o.format)
		} else {
			var b bytes.Buffer
			if err = write(&b, o.format); err == nil {
				err = writeReportFile(o.path, b.Bytes())
			}
		}
		if err != nil {
			fmt.Fprintf(io.err, "toolscope diff: writing the report: %s\n", oneLine(err))
			return 2
		}
	}
	if !r.OK {
		return 1
	}
	return 0
}

// pairJudge is the judge a diff applies to both catalogs' pairs; flags nil
// for none.
type pairJudge struct {
	flags *judgeFlags
	cfg   *config.Config
	arg   string
	io    stdio
}

// confusablePairs are a catalog's confusable pairs under the flags, less
// those the config accepts, with the judge's verdicts when one is asked
// for or judgments are recorded.
func confusablePairs(cat *catalog.Catalog, f *catalogFlags, cfg *config.Config, p *progress, pj pairJudge) ([]similarity.PairFinding, error) {
	report, err := analyzeCatalog(context.Background(), cat, f, p)
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		report = cfg.Apply(report, cat)
	}
	if pj.flags != nil {
		ctx, stop := signalContext(context.Background())
		report, err = pj.flags.apply(ctx, judgeCall{report: report, cat: cat, cfg: pj.cfg, arg: pj.arg, io: pj.io, cmd: "diff"})
		stop()
		if err != nil {
			return nil, err
		}
	}
	return slices.Clone(report.Similarity.Confusable), nil
}

// diffFiles are the files a diff reads besides its catalogs and server
// list (each side's config, the judgments file where there is one) and
// the one it writes besides its outputs (the judgments file under
// --judge-record), so that no output overwrites them, as for lint.
func diffFiles(positional []string, cfgFlags *configFlags, jf *judgeFlags) (reads, writes [][2]string) {
	for _, arg := range positional {
		// A config that cannot be read ends the run later, with its error.
		cfg, _ := cfgFlags.load(arg)
		if cfg != nil && cfg.Path != "" && !contains(reads, cfg.Path) {
			reads = append(reads, [2]string{"the config", cfg.Path})
		}
		p := jf.path(cfg, arg)
		if _, err := os.Stat(p); err == nil && !contains(reads, p) {
			reads = append(reads, [2]string{"the judgments file", p})
		}
		if jf.record && !contains(writes, p) {
			writes = append(writes, [2]string{"--judge-record " + p, p})
		}
	}
	return reads, writes
}
