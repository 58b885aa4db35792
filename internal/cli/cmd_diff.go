package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	stdlibio "io"
	"os"
	"slices"
	"strings"

	"toolscope/core/diff"
	"toolscope/core/lint"
	"toolscope/core/pipeline"
	"toolscope/core/report"
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

// diffOptions are diff's flags, parsed.
type diffOptions struct {
	catalog *catalogFlags
	fs      *flag.FlagSet
	config  *configFlags
	judge   *judgeFlags
	failOn  listFlag
	// old and new are the catalogs' arguments; new is "" for
	// --mcp-config's servers.
	old, new string
	fail     diff.Fail
}

// newDiffOptions declares diff's flags.
func newDiffOptions() *diffOptions {
	fs := newFlagSet("diff")
	o := &diffOptions{fs: fs, catalog: newPairFlags(fs, []string{"text", "json", "markdown", "github"}), config: addConfigFlags(fs)}
	fs.Var(&o.failOn, "fail-on", "`WHAT,...` fails the gate: a level (error or breaking, warn, info: that level and above), security, descriptions, any-description (descriptions and titles), pairs, or none (default error)")
	o.judge = addJudgeFlags(fs)
	o.judge.noCache = &o.catalog.noCache
	return o
}

func runDiff(args []string, io stdio) int {
	o := newDiffOptions()
	positional, code, ok := parseCommand(o.fs, diffUsage, diffHelp, args, io)
	if !ok {
		return code
	}
	if err := o.complete(positional); err != nil {
		return usageError(io, "diff", err.Error())
	}
	return o.diff(io)
}

// complete takes the catalogs' arguments and checks the flags against
// them, in the order their errors are said.
func (o *diffOptions) complete(positional []string) error {
	f := o.catalog
	want := 2
	if f.live.config != "" {
		want = 1
	}
	if len(positional) != want {
		return fmt.Errorf("want OLD and NEW (or OLD and --mcp-config FILE); got %s", plural(len(positional), "argument", "arguments"))
	}
	if slices.Contains(positional, "") {
		return errors.New(errEmptyCatalog)
	}
	var inputs [][2]string
	for _, a := range positional {
		inputs = append(inputs, [2]string{"the catalog", a})
	}
	if f.live.config != "" {
		inputs = append(inputs, [2]string{"the server list", f.live.config})
	}
	reads, judged := diffFiles(positional, o.config, o.judge)
	if err := checkWrites(append(formatWrites(f.outputs), judged...), append(inputs, reads...)); err != nil {
		return err
	}
	if want == 2 && positional[0] == "-" && positional[1] == "-" {
		return errors.New("only one of OLD and NEW can be stdin")
	}
	fail, err := parseDiffFailOn(o.failOn)
	if err != nil {
		return err
	}
	o.old, o.fail = positional[0], fail
	if want == 2 {
		o.new = positional[1]
	}
	return nil
}

// diff runs the comparison (pipeline.Diff) and writes its reports.
func (o *diffOptions) diff(io stdio) int {
	f := o.catalog
	cfg, code := withConfig("diff", o.new, f, o.fs, o.config, io)
	if code != 0 {
		return code
	}
	if err := o.judge.check(); err != nil {
		return usageError(io, "diff", err.Error())
	}
	judging := o.judge.active(cfg, o.new)
	if judging {
		f.neighbours = judgeNeighbours
	}
	setup := f.setup(cfg)
	setup.Judging = judging
	// OLD is always one source; NEW may be --mcp-config's servers.
	oldLive := *f.live
	oldLive.config = ""
	p := startProgress(io, "toolscope diff")
	defer p.End()
	res, err := pipeline.Diff(context.Background(), pipeline.DiffRequest{
		Old: o.old, New: o.new, Setup: setup, Fail: o.fail, Progress: p,
		OldSource: &lintSource{live: &oldLive, io: io}, Source: &lintSource{live: f.live, io: io},
		Side: func(name string) { p.setName("toolscope diff (" + name + ")") },
		Judge: func(ctx context.Context, l *pipeline.Linted) (*lint.Report, error) {
			ctx, stop := signalContext(ctx)
			defer stop()
			return o.judge.apply(ctx, judgeCall{report: l.Report, cat: l.Catalog, cfg: cfg, arg: o.new, io: io, cmd: "diff"})
		},
	})
	if err != nil {
		fmt.Fprintf(io.err, "toolscope diff: %s\n", oneLine(err))
		return 2
	}
	if err := o.write(res, io); err != nil {
		fmt.Fprintf(io.err, "toolscope diff: writing the report: %s\n", oneLine(err))
		return 2
	}
	if !res.Report.OK {
		return 1
	}
	return 0
}

// write writes the diff's report in every format asked for.
func (o *diffOptions) write(res *pipeline.DiffResult, io stdio) error {
	r := res.Report
	// Annotations name NEW by its path from the repository's root, as
	// lint's do.
	machineNew := *res.New
	machineNew.Source = repoPath(repoRoot(), o.new)
	if o.new == "" {
		machineNew.Source = res.New.Source
	}
	write := func(w stdlibio.Writer, format string) error {
		switch format {
		case "json":
			return report.WriteDiffJSON(w, r)
		case "markdown":
			return report.WriteDiffMarkdown(w, r, o.fail)
		case "github":
			return report.WriteDiffGitHub(w, r, &machineNew, o.fail)
		}
		return report.WriteDiffText(w, r, o.fail)
	}
	f := o.catalog
	for _, out := range append([]formatOutput{{format: f.format}}, f.outputs...) {
		var err error
		if out.path == "" {
			err = write(io.out, out.format)
		} else {
			var b bytes.Buffer
			if err = write(&b, out.format); err == nil {
				err = writeReportFile(out.path, b.Bytes())
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
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
