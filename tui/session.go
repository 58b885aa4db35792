package tui

import (
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/declare"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// snapshot is what the panes show: one catalog and what is known about it.
// It is replaced whole, never changed in place, so a pane can tell by the
// pointer whether its cached rendering is stale, and a background command
// can read the one it was given while the user moves on.
type snapshot struct {
	cat *catalog.Catalog
	// findings are the structural findings in report order, as the rules
	// gave them; byTool holds each tool's, by catalog index, as the config
	// left them: its severities set, the ignored ones last with their
	// Suppression.
	findings []lint.Finding
	byTool   [][]lint.Finding
	// cfg is the project config applied to the report, nil for none. It
	// is never changed in place: a triage replaces it.
	cfg *config.Config
	// decls are each tool's declarations, judged once at load.
	decls []declaration
	// sim is the similarity section, nil until the first verdicts arrive.
	sim *similarity.Result
	// verdicts finds a pair's verdict by its tools' catalog indexes; an
	// accepted pair's has its Suppression.
	verdicts map[[2]int]*similarity.PairFinding
	report   *lint.Report
	tools    []toolInfo // parallel to cat.Tools
	// replay applies the recorded judgments to the report, nil for none.
	replay ReplayFunc
	// analysed is false until the rules and the declarations have run.
	analysed bool
}

// toolInfo is what the tool list's badges and sorts need about one tool.
type toolInfo struct {
	errors, warnings  int
	confusable, watch int
	best              float64 // the tool's highest pair score
	ruled             int     // arguments with an ask or assume rule
	period            bool
}

// bare is a catalog before any analysis: what the first frame shows.
func bare(cat *catalog.Catalog, gate lint.Gate, cfg *config.Config) *snapshot {
	s := &snapshot{cat: cat, decls: make([]declaration, len(cat.Tools)), cfg: cfg}
	s.derive(gate)
	return s
}

// analyse runs the structural rules and judges the declarations: quick,
// but proportional to the catalog, so it runs in the background.
func analyse(cat *catalog.Catalog, opts lint.Options, cfg *config.Config, source sourceFindings) *snapshot {
	s := &snapshot{cat: cat, findings: lint.Structural(cat, opts), decls: make([]declaration, len(cat.Tools)), analysed: true, cfg: cfg}
	if source != nil {
		s.findings = append(s.findings, source(cat)...)
	}
	for i, t := range cat.Tools {
		s.decls[i].rules, s.decls[i].refusal = declare.Read(t)
	}
	s.derive(opts.Gate)
	return s
}

// withSimilarity is the snapshot with new verdicts.
func (s *snapshot) withSimilarity(sim similarity.Result, gate lint.Gate) *snapshot {
	n := *s
	n.sim = &sim
	n.derive(gate)
	return &n
}

// withConfig is the snapshot judged by another project config.
func (s *snapshot) withConfig(cfg *config.Config, gate lint.Gate) *snapshot {
	n := *s
	n.cfg = cfg
	n.derive(gate)
	return &n
}

// derive fills the report (the config applied as lint applies it), each
// tool's findings, the verdict index and the badges. What the config
// accepted stays listed, marked by its Suppression, and counts nowhere.
func (s *snapshot) derive(gate lint.Gate) {
	var sim similarity.Result
	if s.sim != nil {
		sim = *s.sim
	}
	s.report = lint.NewReport(s.cat, s.findings, sim, gate)
	if s.cfg != nil {
		s.report = s.cfg.Apply(s.report, s.cat)
	}
	if s.replay != nil && s.sim != nil {
		// After the config, as lint applies them: an accepted pair stays
		// accepted.
		s.report = s.replay(s.report, s.cat)
	}
	r := s.report
	findings := r.Structural
	pairs := [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch}
	if r.Suppressed != nil {
		findings = append(slices.Clip(findings), r.Suppressed.Findings...)
		pairs = append(pairs, r.Suppressed.Pairs)
	}
	s.byTool = make([][]lint.Finding, len(s.cat.Tools))
	for _, f := range findings {
		if f.ToolIndex >= 0 && f.ToolIndex < len(s.cat.Tools) {
			s.byTool[f.ToolIndex] = append(s.byTool[f.ToolIndex], f)
		}
	}
	s.tools = make([]toolInfo, len(s.cat.Tools))
	for i := range s.cat.Tools {
		in := &s.tools[i]
		for _, f := range s.byTool[i] {
			if f.Suppression != "" {
				continue
			}
			if f.Severity == lint.SeverityError {
				in.errors++
			} else {
				in.warnings++
			}
		}
		if r := s.decls[i].rules; r != nil {
			in.ruled = len(r.Ruled)
			in.period = r.Period != nil
		}
		if i < len(sim.Neighbours) && len(sim.Neighbours[i]) > 0 {
			in.best = sim.Neighbours[i][0].Similarity
		}
	}
	s.verdicts = make(map[[2]int]*similarity.PairFinding, len(sim.Confusable)+len(sim.Watch))
	for _, list := range pairs {
		for k := range list {
			f := &list[k]
			s.verdicts[[2]int{f.I, f.J}] = f
			if f.Suppression != "" {
				continue
			}
			for _, t := range []int{f.I, f.J} {
				if f.Kind == similarity.Confusable {
					s.tools[t].confusable++
				} else {
					s.tools[t].watch++
				}
			}
		}
	}
}

// verdict is the pair's verdict, nil when it has none.
func (s *snapshot) verdict(p similarity.Pair) *similarity.PairFinding {
	return s.verdicts[[2]int{p.I, p.J}]
}
