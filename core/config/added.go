package config

import (
	"fmt"
	"slices"

	"toolscope/core/lint"
)

// Findings added to a report after Apply (a chat model's review, which
// lint adds once the rules' findings are in) meet the same ignores.

// MatchIgnore finds the first ignore that covers f: its reason and index.
func (c *Config) MatchIgnore(f lint.Finding) (reason string, index int, ok bool) {
	for i, g := range c.Ignores {
		if g.Matches(f) {
			return g.Reason, i, true
		}
	}
	return "", -1, false
}

// MarkIgnoresUsed takes the ignores at the indexes off the report's list
// of entries that matched nothing: they matched an added finding.
func (c *Config) MarkIgnoresUsed(r *lint.Report, used []int) {
	if r.Suppressed == nil || len(used) == 0 {
		return
	}
	var notes []string
	for _, i := range used {
		g := c.Ignores[i]
		notes = append(notes, fmt.Sprintf("ignore at line %d (%s) matched no finding", g.Line, describeIgnore(g)))
	}
	sup := *r.Suppressed
	sup.Unused = slices.DeleteFunc(slices.Clone(sup.Unused), func(n string) bool { return slices.Contains(notes, n) })
	r.Suppressed = &sup
}
