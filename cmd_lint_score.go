package main

import (
	"os"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/tokens"
)

// scoreReport sets the report's score (lint.ScoreOf), a recorded probe's
// measures counted when the catalog is a file whose probe record
// (toolscope.probe.json beside toolscope.yaml, else beside the catalog)
// exists; the record is returned for the reports that draw it. m counts
// the definitions the report does not. A record
// that cannot be read is an error, as it is for the explorer.
func scoreReport(r *lint.Report, cat *catalog.Catalog, cfg *config.Config, arg string, m *tokens.Meter) (*judge.ProbeRecord, error) {
	var probe *judge.ProbeRecord
	if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		cfgPath := ""
		if cfg != nil {
			cfgPath = cfg.Path
		}
		if probe, err = judge.ReadFoundProbeFile(projectFile("", judge.ProbeFileName, cfgPath, arg)); err != nil {
			return nil, err
		}
	}
	r.Score = lint.ScoreWith(r, cat, probe.Measured(cat, r), m)
	return probe, nil
}
