package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/termsafe"
)

// probeGate is lint's replay of a recorded probe: --min-accuracy fails
// the gate when the 95% Wilson lower bound of the share of the record's
// requests that went where they were meant to is under it, or when the
// record is stale or missing.
// Nothing is sent: the record is data.
type probeGate struct {
	min  *minShare
	file *string
}

// minShare is --min-accuracy's value: a share from 0 to 1, or a
// percentage ("80%").
type minShare struct {
	v   float64
	set bool
}

func (m *minShare) String() string {
	if m == nil || !m.set {
		return ""
	}
	return strconv.FormatFloat(m.v, 'g', -1, 64)
}

func (m *minShare) Set(s string) error {
	text := strings.TrimSpace(s)
	pct := strings.HasSuffix(text, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(text, "%"), 64)
	if pct {
		v /= 100
	}
	if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
		return fmt.Errorf("%q is not a share from 0 to 1 (or a percentage, 80%%)", s)
	}
	m.v, m.set = v, true
	return nil
}

// probeRecordPath is where the explorer finds a catalog's probe record:
// beside the project config, else in the catalog's directory.
func probeRecordPath(cfg *config.Config, arg string) string {
	cfgPath := ""
	if cfg != nil {
		cfgPath = cfg.Path
	}
	return projectFile("", judge.ProbeFileName, cfgPath, arg)
}

func addProbeGateFlags(fs *flag.FlagSet) probeGate {
	g := probeGate{min: &minShare{}}
	fs.Var(g.min, "min-accuracy", "fail the gate when the recorded probe's share of right picks (its 95% lower bound) is under `X` (0 to 1, or 80%), or the record is stale or missing")
	g.file = fs.String("probe-file", "", "the probe record `FILE` --min-accuracy replays (default: "+judge.ProbeFileName+" beside toolscope.yaml, else in the catalog's directory)")
	return g
}

// check refuses what cannot be replayed: a --probe-file without
// --min-accuracy, one file for several catalogs, a merged run.
func (g probeGate) check(catalogs int, merge bool) error {
	switch {
	case *g.file != "" && !g.min.set:
		return fmt.Errorf("--probe-file names the record --min-accuracy replays; add --min-accuracy")
	case !g.min.set:
		return nil
	case merge && catalogs > 1:
		return fmt.Errorf("--min-accuracy replays one catalog's probe record; --merge has none")
	case *g.file != "" && catalogs > 1:
		return fmt.Errorf("--probe-file names one record; with %d catalogs leave it out (each catalog's own is read)", catalogs)
	}
	return nil
}

// apply reads each catalog's probe record and fails its gate when the
// record is missing, unreadable or stale (fail closed), or its accuracy
// is under the minimum; one line on stderr says which.
func (g probeGate) apply(runs []linted, io stdio) {
	if !g.min.set {
		return
	}
	for _, r := range runs {
		path := r.probePath
		if *g.file != "" {
			path = *g.file
		}
		shown := termsafe.Line(path)
		read := judge.ReadFoundProbeFile
		if *g.file != "" {
			read = judge.ReadProbeFile
		}
		rec, err := read(path)
		var why string
		switch {
		case err != nil:
			why = fmt.Sprintf("the probe record cannot be read (%s)", oneLine(err))
		case rec == nil:
			why = fmt.Sprintf("no probe record at %s (toolscope probe --record writes it)", shown)
		case len(rec.Cases) == 0:
			why = fmt.Sprintf("the probe record %s holds no request", shown)
		}
		if why == "" {
			tools, _, _ := probeTools(r.cat)
			if stale := rec.Stale(tools); len(stale) > 0 {
				list := stale
				if len(list) > 5 {
					list = append(list[:5:5], fmt.Sprintf("%d more", len(stale)-5))
				}
				why = fmt.Sprintf("the probe record %s is stale: the catalog's tools differ from those probed: %s; probe again", shown, termsafe.Line(strings.Join(list, ", ")))
			}
		}
		if why != "" {
			fmt.Fprintf(io.err, "toolscope lint: %s: --min-accuracy fails closed: %s\n", termsafe.Line(r.path), why)
			r.report.Fail("--min-accuracy: " + why)
			continue
		}
		// The gate is on the 95% Wilson lower bound, not the measured
		// share: one right pick of one request is 100% measured and
		// proves next to nothing (its lower bound is 21%).
		acc := rec.Accuracy()
		verdict := "ok"
		if acc.Low < g.min.v {
			verdict = "under"
			r.report.Fail(fmt.Sprintf("probe accuracy %s: its 95%% lower bound %.0f%% is under --min-accuracy %s", acc, 100*acc.Low, g.min))
		}
		fmt.Fprintf(io.err, "toolscope lint: %s: probe %s of %s: right picks %s; --min-accuracy %s: %s\n",
			termsafe.Line(r.path), termsafe.Line(rec.Model), rec.Date.Format("2006-01-02"), acc, g.min, verdict)
	}
}
