package main

import (
	"context"
	"fmt"
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

// diffFailOn are what --fail-on accepts.
var diffFailOn = []string{"breaking", "descriptions", "pairs"}

func runDiff(args []string, io stdio) int {
	fs := newFlagSet("diff")
	f := newPairFlags(fs, []string{"text", "json", "markdown", "github"})
	cfgFlags := addConfigFlags(fs)
	failOn := listFlag{}
	fs.Var(&failOn, "fail-on", "`WHAT,...` fails the gate: breaking, descriptions, pairs (default breaking)")
	positional, code, ok := parseCommand(fs, diffUsage, diffHelp, args, io)
	if !ok {
		return code
	}
	want := 2
	if f.live.config != "" {
		want = 1
	}
	if len(positional) != want {
		return usageError(io, "diff", fmt.Sprintf("want OLD and NEW (or OLD and --mcp-config FILE); got %d arguments", len(positional)))
	}
	if want == 2 && positional[0] == "-" && positional[1] == "-" {
		return usageError(io, "diff", "only one of OLD and NEW can be stdin")
	}
	var fail diff.Fail
	if len(failOn) == 0 {
		failOn = listFlag{"breaking"}
	}
	for _, w := range failOn {
		switch w {
		case "breaking":
			fail.Breaking = true
		case "descriptions":
			fail.Descriptions = true
		case "pairs":
			fail.Pairs = true
		case "none":
		default:
			return usageError(io, "diff", fmt.Sprintf("--fail-on %s: want %s or none", w, strings.Join(diffFailOn, ", ")))
		}
	}
	newArg := ""
	if want == 2 {
		newArg = positional[1]
	}
	cfg, err := cfgFlags.load(newArg)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope diff: %s\n", oneLine(err))
		return 2
	}
	if cfg != nil {
		f.useConfig(cfg, fs)
	}
	if err := f.check(); err != nil {
		return usageError(io, "diff", err.Error())
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
	if f.embedderSpec() != "" {
		p.setName("toolscope diff (OLD)")
		oldPairs, err := confusablePairs(oldCat, f, cfg, p)
		if err == nil {
			var newPairs []similarity.PairFinding
			p.setName("toolscope diff (NEW)")
			newPairs, err = confusablePairs(newCat, f, cfg, p)
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
	switch f.format {
	case "json":
		err = report.WriteDiffJSON(io.out, r)
	case "markdown":
		err = report.WriteDiffMarkdown(io.out, r, fail)
	case "github":
		err = report.WriteDiffGitHub(io.out, r, newCat, fail)
	default:
		err = report.WriteDiffText(io.out, r, fail)
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope diff: writing the report: %s\n", oneLine(err))
		return 2
	}
	if !r.OK {
		return 1
	}
	return 0
}

// confusablePairs are a catalog's confusable pairs under the flags, less
// those the config accepts.
func confusablePairs(cat *catalog.Catalog, f *catalogFlags, cfg *config.Config, p *progress) ([]similarity.PairFinding, error) {
	report, err := analyzeCatalog(context.Background(), cat, f, p)
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		report = cfg.Apply(report, cat)
	}
	return slices.Clone(report.Similarity.Confusable), nil
}
