package cli

import (
	"fmt"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/hygiene"
	"toolscope/core/jsonv"
	"toolscope/core/lint"
	"toolscope/core/live"
)

// withConfigHygiene adds the mcp-config file's own findings (core/hygiene)
// to a report on its servers' merged tools (configFindings), counted in
// the gate like any finding. A rule in disabled is left out.
func withConfigHygiene(r *lint.Report, cat *catalog.Catalog, cfg *live.Config, failed []live.Failure, disabled []string) (*lint.Report, error) {
	found, err := configFindings(cat, cfg, disabled)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(disabled, lint.RuleConfigServerDown) {
		found = append(found, unavailableFindings(cfg, failed)...)
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

// unavailableFindings are the config's servers that could not be started
// or listed (live.Options.KeepGoing), one error finding each, located at
// the server's entry in the file: the rest of the report is about the
// other servers.
func unavailableFindings(cfg *live.Config, failed []live.Failure) []lint.Finding {
	if len(failed) == 0 {
		return nil
	}
	at := map[string]jsonv.Pos{}
	if root, err := jsonv.Parse(cfg.Data); err == nil {
		servers := root.Get("mcpServers")
		if servers == nil {
			servers = root.Get("servers")
		}
		if servers != nil {
			for _, m := range servers.Members {
				at[m.Key] = m.Pos
			}
		}
	}
	var out []lint.Finding
	for _, f := range failed {
		// The error names the server and the file; the finding does too.
		why := strings.TrimPrefix(oneLine(f.Err), fmt.Sprintf("server %q (%s): ", f.Server, cfg.Path))
		out = append(out, lint.Finding{Rule: lint.RuleConfigServerDown, Tool: f.Server, Severity: lint.SeverityError,
			Message:   fmt.Sprintf("server %q could not be listed, so its tools are not in this report: %s", f.Server, why),
			Line:      at[f.Server].Line,
			Column:    at[f.Server].Col,
			ToolIndex: -1})
	}
	return out
}
