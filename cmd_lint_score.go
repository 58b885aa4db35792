package main

import (
	"os"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
)

// scoreReport sets the report's score (lint.ScoreOf), a recorded probe's
// measures counted when the catalog is a file whose probe record
// (toolscope.probe.json beside toolscope.yaml, else beside the catalog)
// exists; the record is returned for the reports that draw it. A record
// that cannot be read is an error, as it is for the explorer.
func scoreReport(r *lint.Report, cat *catalog.Catalog, cfg *config.Config, arg string) (*judge.ProbeRecord, error) {
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
	r.Score = lint.ScoreOf(r, cat, probe.Measured(cat, r))
	return probe, nil
}
