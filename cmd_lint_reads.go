package main

import "os"

// readFiles are the files a lint run read besides its catalogs and its
// baseline, each with what it is: every catalog's config, and the
// judgments file where there is one. An output must not overwrite them
// (checkWrites): `--format json=toolscope.yaml` would destroy the config
// it ran under. Merged runs have one entry; targets[i] is runs[i]'s
// otherwise.
func readFiles(runs []linted, targets []target, jf *judgeFlags) [][2]string {
	var out [][2]string
	for i, r := range runs {
		arg := ""
		if i < len(targets) && len(runs) == len(targets) {
			arg = targets[i].arg
		}
		cfg := r.flags.config
		if cfg != nil && cfg.Path != "" {
			out = append(out, [2]string{"the config", cfg.Path})
		}
		if p := jf.path(cfg, arg); p != "" {
			if _, err := os.Stat(p); err == nil {
				out = append(out, [2]string{"the judgments file", p})
			}
		}
	}
	return out
}
