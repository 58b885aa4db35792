package cli

import (
	"fmt"

	"toolscope/core/lint"
	"toolscope/core/report"
)

const (
	rulesUsage   = "rules [--rule-set recommended|reference|all] [--format text|json]"
	rulesSummary = "every lint rule with its teaching text"
)

func init() {
	register(command{name: "rules", usage: rulesUsage, summary: rulesSummary, run: runRules})
}

func runRules(args []string, io stdio) int {
	fs := newFlagSet("rules")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	ruleSet := fs.String("rule-set", string(lint.RuleSetRecommended), "`SET` of rules to list: recommended, reference or all")
	positional, code, ok := parseCommand(fs, rulesUsage, rulesSummary, args, io)
	if !ok {
		return code
	}
	if len(positional) > 0 {
		return usageError(io, "rules", fmt.Sprintf("unexpected argument %q", positional[0]))
	}
	set, err := lint.ParseRuleSet(*ruleSet)
	if err != nil {
		return usageError(io, "rules", "--rule-set "+err.Error())
	}
	rules := lint.RulesOf(set)
	switch *format {
	case "text":
		err = report.WriteRulesText(io.out, rules)
	case "json":
		err = report.WriteRulesJSON(io.out, rules)
	default:
		return usageError(io, "rules", fmt.Sprintf("--format %q: want text or json", *format))
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope rules: %s\n", oneLine(err))
		return 2
	}
	return 0
}
