package main

import (
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/hygiene"
	"toolscope/core/lint"
	"toolscope/core/live"
)

// withConfigHygiene adds the mcp-config file's own findings (core/hygiene)
// to a report on its servers' merged tools: each located in the file,
// under its server's name, and counted in the gate like any finding. A
// rule in disabled is left out. The file is checked as it was read to
// start the servers.
func withConfigHygiene(r *lint.Report, cat *catalog.Catalog, cfg *live.Config, disabled []string) (*lint.Report, error) {
	found, err := hygiene.Check(cfg.Path, cfg.Data, cfg.Perm)
	if err != nil {
		return nil, err
	}
	// A finding is shown at its server's first tool when the report needs
	// a tool; its place is the config file's line and column.
	first := map[string]int{}
	for _, t := range cat.Tools {
		if _, ok := first[t.Server]; !ok {
			first[t.Server] = t.Index
		}
	}
	findings := slices.Clone(r.Structural)
	for _, h := range found {
		if slices.Contains(disabled, h.Rule) {
			continue
		}
		at, ok := first[h.Server]
		if !ok {
			at = -1
		}
		findings = append(findings, lint.Finding{Rule: h.Rule, Tool: h.Server, Param: h.Field, Severity: lint.Severity(h.Severity),
			Message: h.Message, Line: h.Line, Column: h.Column, ToolIndex: at})
	}
	out := lint.NewReport(cat, findings, r.Similarity, r.Gate)
	out.Tokens, out.Judged, out.FailedOn = r.Tokens, r.Judged, r.FailedOn
	return out, nil
}
