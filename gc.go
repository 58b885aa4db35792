package main

import (
	"math"
	"os"
	"runtime/debug"
)

// A lint run is short, and for a catalog of a few thousand tools its heap
// is small: the collector then runs a quarter as often (GOGC 400), which
// takes a fifth off a 1,000-tool run's CPU, under a soft limit of 192 MiB
// so that a run whose garbage is large (the built-in encoder embedding
// every text) peaks no higher than it would with Go's defaults. A larger
// catalog is collected as Go's defaults have it. A GOGC or GOMEMLIMIT the
// user set is left alone.
const (
	smallRunGC     = 400
	smallRunLimit  = 192 << 20
	smallRunTools  = 2500
	defaultPercent = 100
)

// userGC reports whether the user set the collector's knobs.
func userGC() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

// lintGC sets the collector for the start of a lint run.
func lintGC() {
	if !userGC() {
		debug.SetGCPercent(smallRunGC)
		debug.SetMemoryLimit(smallRunLimit)
	}
}

// lintGCFor sets Go's defaults back once a catalog of tools tools is
// loaded, if that is more than a small run's.
func lintGCFor(tools int) {
	if !userGC() && tools > smallRunTools {
		debug.SetGCPercent(defaultPercent)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
