package cli

import "os"

// lintFiles are, before a lint run starts, the files it will read besides
// its catalogs, server list and baseline, each with what it is: every
// catalog's config, the judgments file where there is one, the probe
// record beside a catalog file (or --probe-file); and the file it will
// write besides its outputs: the judgments file under --judge-record. An
// output must not overwrite them (checkWrites): `--format json=toolscope.yaml`
// would destroy the config the run reads, `--format html=toolscope.probe.json`
// the record its page shows. A merged run reads the working directory's
// config and judgments.
func lintFiles(targets []target, merged bool, cfgFlags *configFlags, jf *judgeFlags, g probeGate) (reads, writes [][2]string) {
	args := make([]string, 0, len(targets))
	for _, t := range targets {
		args = append(args, t.arg)
	}
	if merged {
		args = []string{""}
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, arg := range args {
		// A config that cannot be read ends the run later, with its error.
		cfg, _ := cfgFlags.load(arg)
		if cfg != nil && cfg.Path != "" {
			reads = append(reads, [2]string{"the config", cfg.Path})
		}
		if p := jf.path(cfg, arg); exists(p) {
			reads = append(reads, [2]string{"the judgments file", p})
		}
		if p := jf.path(cfg, arg); jf.record && !contains(writes, p) {
			writes = append(writes, [2]string{"--judge-record " + p, p})
		}
		if st, err := os.Stat(arg); !merged && err == nil && st.Mode().IsRegular() {
			if p := probeRecordPath(cfg, arg); exists(p) {
				reads = append(reads, [2]string{"the probe record", p})
			}
		}
	}
	if *g.file != "" {
		reads = append(reads, [2]string{"the probe record", *g.file})
	}
	return reads, writes
}

// contains reports whether files names path.
func contains(files [][2]string, path string) bool {
	for _, f := range files {
		if f[1] == path {
			return true
		}
	}
	return false
}
