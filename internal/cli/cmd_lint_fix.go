package cli

import (
	"fmt"
	"sort"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/termsafe"
)

// fixableArg says why --fix cannot edit the CATALOG argument, "" when it
// can: --fix edits catalog files, not stdin, the demo, a live server or a
// merge of several.
func fixableArg(arg string, l *liveFlags, merge bool) string {
	switch {
	case merge:
		return "--fix edits each catalog file on its own: drop --merge"
	case !isCatalogFile(arg, l):
		what := arg
		if l.config != "" {
			what = "--mcp-config " + l.config
		}
		return fmt.Sprintf("--fix edits catalog files; %s is not one", what)
	}
	return ""
}

// fixFile applies the fixes of r's findings to its catalog file
// (catalog.WriteFixes) and says what it changed. It returns how many
// findings it fixed.
func fixFile(arg string, r linted, io stdio) (int, error) {
	var fixed []lint.Finding
	for _, f := range r.report.Structural {
		if len(f.Fix) > 0 && f.Suppression == "" {
			fixed = append(fixed, f)
		}
	}
	if len(fixed) == 0 {
		return 0, nil
	}
	var fixes []catalog.ToolFix
	for _, f := range fixed {
		fixes = append(fixes, catalog.ToolFix{Tool: f.ToolIndex, Ops: f.Fix})
	}
	if err := catalog.WriteFixes(arg, r.cat, fixes); err != nil {
		return 0, err
	}
	byRule := map[string]int{}
	for _, f := range fixed {
		byRule[f.Rule]++
	}
	rules := make([]string, 0, len(byRule))
	for id, n := range byRule {
		rules = append(rules, fmt.Sprintf("%s ×%d", id, n))
	}
	sort.Strings(rules)
	fmt.Fprintf(io.err, "toolscope lint: fixed %s in %s (%s)\n", plural(len(fixed), "finding", "findings"), termsafe.Line(arg), strings.Join(rules, ", "))
	return len(fixed), nil
}

// measuresTokens says whether an output format shows the catalog's token
// count: the JSON's per-tool counts, the first-to-fix list of the reports
// a person reads.
func measuresTokens(format string) bool {
	switch format {
	case "json", "text", "markdown", "html":
		return true
	}
	return false
}
