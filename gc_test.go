package main

import (
	"runtime/debug"
	"testing"
)

// A lint run collects less often for a small catalog and as usual for a
// large one; a GOGC the user set is never changed.
func TestLintGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(defaultPercent))
	for _, tt := range []struct {
		name  string
		gogc  string
		tools int
		want  int
	}{
		{"small catalog", "", 1000, smallRunGC},
		{"at the bound", "", smallRunTools, smallRunGC},
		{"large catalog", "", smallRunTools + 1, defaultPercent},
		{"the user's GOGC, small catalog", "50", 1000, 50},
		{"the user's GOGC, large catalog", "50", 10000, 50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOGC", tt.gogc)
			if tt.gogc != "" {
				debug.SetGCPercent(50) // what the runtime read from GOGC
			}
			lintGC()
			lintGCFor(tt.tools)
			if got := debug.SetGCPercent(defaultPercent); got != tt.want {
				t.Errorf("GC percent %d, want %d", got, tt.want)
			}
		})
	}
}
