package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/safefile"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
	"toolscope/core/tokens"
)

const (
	initUsage   = "init [--force] [DIR|-]"
	initSummary = "write a commented toolscope.yaml (the project config lint and diff read) in DIR, or to stdout with '-'"
)

func init() {
	register(command{name: "init", usage: initUsage, summary: initSummary, run: runInit})
}

func runInit(args []string, io stdio) int {
	flags := newFlagSet("init")
	force := flags.Bool("force", false, "replace an existing toolscope.yaml")
	positional, code, ok := parseCommand(flags, initUsage, initSummary+"\n\nThe file lists every setting with its default, commented out; see docs/config.md.", args, io)
	if !ok {
		return code
	}
	if len(positional) > 1 {
		return usageError(io, "init", fmt.Sprintf("want at most one DIR; got %s", plural(len(positional), "argument", "arguments")))
	}
	text := initConfig()
	if len(positional) == 1 && positional[0] == "-" {
		if _, err := fmt.Fprint(io.out, text); err != nil {
			fmt.Fprintf(io.err, "toolscope init: writing the config: %s\n", oneLine(err))
			return 2
		}
		return 0
	}
	dir := "."
	if len(positional) == 1 {
		dir = positional[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		why := "not a directory"
		if errors.Is(err, fs.ErrNotExist) {
			why = "no such directory"
		}
		fmt.Fprintf(io.err, "toolscope init: %s: %s\n", termsafe.Line(dir), why)
		return 2
	}
	path := filepath.Join(dir, config.FileName)
	// Atomic, and never through a symlink someone planted at the name.
	write := safefile.Create
	if *force {
		write = safefile.Write
	}
	err := write(path, []byte(text))
	if errors.Is(err, fs.ErrExist) {
		fmt.Fprintf(io.err, "toolscope init: %s exists (--force replaces it)\n", termsafe.Line(path))
		return 2
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope init: %s\n", oneLine(err))
		return 2
	}
	fmt.Fprintf(io.out, "wrote %s: every setting at its default, commented out (docs/config.md)\n", termsafe.Line(path))
	return 0
}

// scoringNames lists the scorings as "risk, adaptive or cosine".
func scoringNames() string {
	names := make([]string, len(similarity.Scorings))
	for i, s := range similarity.Scorings {
		names[i] = string(s)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// initConfig is the config `init` writes: the format's every key, at its
// default, commented out, so the file changes nothing until edited.
func initConfig() string {
	var b strings.Builder
	b.WriteString(`# toolscope project config, read by 'toolscope lint' and 'toolscope diff'
# from the catalog's directory or above (or --config FILE). Flags win over it.
# Every setting below is at its default and commented out. Format: docs/config.md
version: 1

# Warnings and review pairs fail the gate too (as --strict).
# strict: false

# The rules run (as --rule-set): recommended, reference (the seed's pack) or
# all (recommended and the opt-in rules). Format: docs/rules.md#rule-sets
# rule-set: recommended

# Rule severities: off, warn or error (every finding of the rule then has
# it); leave a rule out to keep its own. 'toolscope rules' explains each.
rules:
`)
	for _, r := range lint.AllRules() {
		switch r.ID {
		case lint.RuleDescription:
			fmt.Fprintf(&b, "  # %s: {severity: %s, min-chars: %d}\n", r.ID, r.Severity, lint.DefaultMinDescriptionChars)
		case lint.RuleTooManyTools:
			fmt.Fprintf(&b, "  # %s: {severity: %s, max-tools: %d}   # a warning on MCP and Gemini catalogs unless set\n", r.ID, r.Severity, lint.DefaultMaxTools)
		case lint.RuleCatalogTokens:
			fmt.Fprintf(&b, "  # %s: {severity: %s, max-share: %g, context: %d}\n", r.ID, r.Severity, lint.DefaultMaxTokenShare, tokens.DefaultContext)
		default:
			fmt.Fprintf(&b, "  # %s: %s\n", r.ID, r.Severity)
		}
	}
	fmt.Fprintf(&b, `
# Similarity: which tools a model could mix up.
similarity:
  # embedder: %s              # use (built in), mock, openai:MODEL, or none (structural rules only)
  # embed-url: https://...    # for openai:MODEL
  # scoring: %s              # %s
  # threshold: 0.5            # default: the embedder's calibration; off = report-only
  # review-band: 0.1           # default: the embedder's calibration
  # rank-limit: %d

# Pairs reviewed and accepted as distinct: their verdict no longer fails the
# gate. A reason is required.
accepted-pairs:
  # - tools: [search_logs, search_archived_logs]
  #   reason: the archive tool is only offered to the audit agent

# Findings accepted as they are: rule (every rule when left out), tool (a
# name or a pattern such as legacy_*), param (any when left out), reason.
ignore:
  # - rule: optional-param-undocumented
  #   tool: list_volumes
  #   param: limit
  #   reason: the server documents its default page size in the API guide
`, defaultEmbedder, similarity.Scorings[0], scoringNames(), similarity.DefaultRankLimit)
	return b.String()
}
