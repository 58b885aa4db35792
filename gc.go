package main

import (
	"os"
	"runtime/debug"
)

// A lint run is short, and for a catalog of a few thousand tools its heap
// is small: the collector then runs a quarter as often (GOGC 400), which
// takes a fifth off a 1,000-tool run's CPU for 20-40 MB more memory.
// A larger catalog is collected as usual, so that its peak memory stays
// what it was. A GOGC the user set is left alone.
const (
	smallRunGC     = 400
	smallRunTools  = 2500
	defaultPercent = 100
)

// lintGC sets the collector for the start of a lint run.
func lintGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(smallRunGC)
	}
}

// lintGCFor sets it back to Go's default once a catalog of tools tools is
// loaded, if that is more than a small run's.
func lintGCFor(tools int) {
	if os.Getenv("GOGC") == "" && tools > smallRunTools {
		debug.SetGCPercent(defaultPercent)
	}
}
