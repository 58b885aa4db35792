package main

import (
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/hygiene"
	"toolscope/core/lint"
	"toolscope/core/live"
)

// withConfigHygiene adds the mcp-config file's own findings (core/hygiene)
// to a report on its servers' merged tools (configFindings), counted in
// the gate like any finding. A rule in disabled is left out.
func withConfigHygiene(r *lint.Report, cat *catalog.Catalog, cfg *live.Config, disabled []string) (*lint.Report, error) {
	found, err := configFindings(cat, cfg, disabled)
	if err != nil {
		return nil, err
	}
	out := lint.NewReport(cat, append(slices.Clone(r.Structural), found...), r.Similarity, r.Gate)
	out.Tokens, out.Judged, out.FailedOn = r.Tokens, r.Judged, r.FailedOn
	return out, nil
}

// configFindings are the mcp-config file's own findings on the servers
// that listed cat's tools, the file checked as it was read to start them:
// each under its server's name, located in the file, and shown at the
// server's first tool where a tool is needed (the explorer, a tool's
// score). A rule in disabled is left out.
func configFindings(cat *catalog.Catalog, cfg *live.Config, disabled []string) ([]lint.Finding, error) {
	found, err := hygiene.Check(cfg.Path, cfg.Data, cfg.Perm)
	if err != nil {
		return nil, err
	}
	first := map[string]int{}
	for _, t := range cat.Tools {
		if _, ok := first[t.Server]; !ok {
			first[t.Server] = t.Index
		}
	}
	var out []lint.Finding
	for _, h := range found {
		if slices.Contains(disabled, h.Rule) {
			continue
		}
		at, ok := first[h.Server]
		if !ok {
			at = -1
		}
		out = append(out, lint.Finding{Rule: h.Rule, Tool: h.Server, Param: h.Field, Severity: lint.Severity(h.Severity),
			Message: h.Message, Line: h.Line, Column: h.Column, File: cfg.Path, ToolIndex: at})
	}
	return out, nil
}
