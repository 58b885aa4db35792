package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/hygiene"
	"toolscope/core/lint"
)

// maxHygieneBytes bounds the config file read for its hygiene, as the
// config reader bounds it.
const maxHygieneBytes = 4 << 20

// withConfigHygiene adds the mcp-config file's own findings (core/hygiene)
// to a report on its servers' merged tools: each located in the file,
// under its server's name, and counted in the gate like any finding. A
// rule in disabled is left out.
func withConfigHygiene(r *lint.Report, cat *catalog.Catalog, path string, disabled []string) (*lint.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHygieneBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	if len(data) > maxHygieneBytes {
		return nil, fmt.Errorf("%s: over the %d MiB limit for an mcp-config", path, maxHygieneBytes>>20)
	}
	var mode os.FileMode
	if st, err := f.Stat(); err == nil && runtime.GOOS != "windows" {
		mode = st.Mode().Perm()
	}
	found, err := hygiene.Check(path, data, mode)
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
