package config

import (
	"fmt"
	"path"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/tokens"
)

// Tune applies the rule settings to lint options: rules set off join
// Disabled, and the rules with thresholds are rebuilt with the config's.
func (c *Config) Tune(o *lint.Options) {
	for i, r := range o.Rules {
		rc := c.Rules[r.ID]
		switch {
		case r.ID == lint.RuleDescription && rc.MinChars > 0:
			o.Rules[i] = lint.DescriptionRuleIn(o.Set, rc.MinChars)
		case r.ID == lint.RuleTooManyTools && rc.MaxTools > 0:
			o.Rules[i] = lint.TooManyToolsRule(rc.MaxTools)
		case r.ID == lint.RuleCatalogTokens && (rc.MaxShare > 0 || rc.Context > 0):
			share, window := lint.DefaultMaxTokenShare, tokens.DefaultContext
			if rc.MaxShare > 0 {
				share = rc.MaxShare
			}
			if rc.Context > 0 {
				window = rc.Context
			}
			o.Rules[i] = lint.CatalogTokensRule(share, window)
		}
		if rc.Severity == SeverityOff {
			o.Disabled = append(o.Disabled, r.ID)
		}
	}
}

// Matches reports whether g covers f.
func (g Ignore) Matches(f lint.Finding) bool {
	if g.Rule != "" && g.Rule != f.Rule {
		return false
	}
	if g.Param != "" && g.Param != f.Param {
		return false
	}
	ok, _ := path.Match(g.Tool, f.Tool)
	return ok
}

// ToolPattern is the Ignore.Tool pattern that matches the tool named name
// and nothing else: the glob characters (* ? [ and \) in it escaped. A
// person writes globs (`legacy_*`); an ignore written for one finding
// must not hide the findings of every tool a name like `get_*` matches,
// and a name like `get[x` is no valid pattern at all until escaped.
func ToolPattern(name string) string {
	if !strings.ContainsAny(name, `*?[\`) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Matches reports whether p accepts the pair of a and b, in either order.
func (p AcceptedPair) Matches(a, b string) bool {
	return (p.A == a && p.B == b) || (p.A == b && p.B == a)
}

// Apply filters a report by the config: rule severities set, ignored
// findings and accepted pairs moved to r.Suppressed with their reasons,
// the gate computed again on what is left. Entries that matched nothing
// are listed as unused, so a stale config shows. cat is the report's
// catalog.
func (c *Config) Apply(r *lint.Report, cat *catalog.Catalog) *lint.Report {
	sup := &lint.Suppressed{Config: c.Path, Findings: []lint.Finding{}, Pairs: []similarity.PairFinding{}}
	usedIgnore := make([]bool, len(c.Ignores))
	var kept []lint.Finding
	for _, f := range r.Structural {
		if s := c.Rules[f.Rule].Severity; s == SeverityWarn || s == SeverityError {
			f.Severity = lint.Severity(s)
		}
		ignored := false
		for i, g := range c.Ignores {
			if g.Matches(f) {
				usedIgnore[i], ignored = true, true
				f.Suppression = g.Reason
				sup.Findings = append(sup.Findings, f)
				break
			}
		}
		if !ignored {
			kept = append(kept, f)
		}
	}
	usedPair := make([]bool, len(c.AcceptedPairs))
	accept := func(list []similarity.PairFinding) ([]similarity.PairFinding, int) {
		var out []similarity.PairFinding
		dropped := 0
		for _, p := range list {
			accepted := false
			for i, a := range c.AcceptedPairs {
				if a.Matches(p.A, p.B) {
					usedPair[i], accepted = true, true
					p.Suppression = a.Reason
					sup.Pairs = append(sup.Pairs, p)
					dropped++
					break
				}
			}
			if !accepted {
				out = append(out, p)
			}
		}
		return out, dropped
	}
	sim := r.Similarity
	var dropped int
	sim.Confusable, dropped = accept(sim.Confusable)
	sim.ConfusableCount -= dropped
	sim.Watch, dropped = accept(sim.Watch)
	sim.WatchCount -= dropped
	for i, used := range usedIgnore {
		if !used {
			g := c.Ignores[i]
			sup.Unused = append(sup.Unused, fmt.Sprintf("ignore at line %d (%s) matched no finding", g.Line, describeIgnore(g)))
		}
	}
	// Without verdicts (no similarity, report-only) a pair cannot be
	// judged stale.
	if sim.Analyzed && !sim.Thresholds.ReportOnly() && !sim.Truncated {
		for i, used := range usedPair {
			if !used {
				p := c.AcceptedPairs[i]
				sup.Unused = append(sup.Unused, fmt.Sprintf("accepted pair at line %d (%s, %s) is not flagged", p.Line, p.A, p.B))
			}
		}
	}
	out := lint.NewReport(cat, kept, sim, r.Gate)
	out.Suppressed = sup
	out.Tokens, out.Judged, out.Reviewed = r.Tokens, r.Judged, r.Reviewed
	return out
}

func describeIgnore(g Ignore) string {
	s := g.Tool
	if g.Param != "" {
		s += "." + g.Param
	}
	if g.Rule != "" {
		s = g.Rule + " on " + s
	}
	return s
}
