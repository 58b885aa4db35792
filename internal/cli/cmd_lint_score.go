package cli

import (
	"fmt"
	"os"

	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/pipeline"
	"toolscope/core/termsafe"
)

// probeReads reads the probe records a run finds, each once however many
// catalogs share it (a folder's catalogs beside one record), and only
// what the score and the page take (judge.ReadFoundProbeSummary).
type probeReads struct {
	// cmd names the command in its one line on stderr.
	cmd string
	// replayed is set when a flag asks for the record (--min-accuracy):
	// its replay reads it strictly and says what is wrong.
	replayed bool
	got      map[string]probeRead
}

type probeRead struct {
	rec *judge.ProbeRecord
	err error
}

func newProbeReads(cmd string, replayed bool) *probeReads {
	return &probeReads{cmd: cmd, replayed: replayed, got: map[string]probeRead{}}
}

// read is the record at path, nil when there is none or it cannot be
// read: a plain run is not stopped by a record it was not asked to use
// (malformed, a merge conflict left in it, another user's); it says so
// once on stderr, unless a probe flag's replay will.
func (pr *probeReads) read(path string, io stdio) *judge.ProbeRecord {
	key := pipeline.FileKey(path)
	got, ok := pr.got[key]
	if !ok {
		got.rec, got.err = judge.ReadFoundProbeSummary(path)
		pr.got[key] = got
		if got.err != nil && !pr.replayed {
			name := "toolscope"
			if pr.cmd != "" {
				name += " " + pr.cmd
			}
			fmt.Fprintf(io.err, "%s: the probe record is not used: %s\n", name, termsafe.Line(oneLine(got.err)))
		}
	}
	return got.rec
}

// find is the catalog's recorded probe, nil when the catalog is not a
// file or no record reads: the record is toolscope.probe.json beside
// toolscope.yaml, else beside the catalog.
func (pr *probeReads) find(cfg *config.Config, arg string, io stdio) *judge.ProbeRecord {
	st, err := os.Stat(arg)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	cfgPath := ""
	if cfg != nil {
		cfgPath = cfg.Path
	}
	return pr.read(projectFile("", judge.ProbeFileName, cfgPath, arg), io)
}
