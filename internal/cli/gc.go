package cli

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"

	"toolscope/core/pipeline"
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

// smallRunBytes is the largest catalog file a small run reads: a file
// larger than it is parsed into a tree many times its size (an 8M-item
// array, a few tools), which under the soft limit would be collected
// without pause, the collector taking most of the run.
const smallRunBytes = 4 << 20

// lintGCFor sets Go's defaults back once a catalog of tools tools is
// loaded, if that is more than a small run's, or once the heap is past
// half the soft limit, whatever the tools (a few tools holding a huge
// array): the limit is for a small run's garbage, not for its live heap.
func lintGCFor(tools int) {
	if !userGC() && (tools > smallRunTools || liveHeap() > smallRunLimit/2) {
		defaultGC()
	}
}

// lintGCForFile sets Go's defaults back before a catalog file larger than
// a small run's is read: its parsing is what the soft limit would slow.
func lintGCForFile(arg string) {
	if userGC() || !pipeline.IsFileArg(arg) {
		return
	}
	if st, err := os.Stat(arg); err == nil && st.Size() > smallRunBytes {
		defaultGC()
	}
}

func defaultGC() {
	debug.SetGCPercent(defaultPercent)
	debug.SetMemoryLimit(math.MaxInt64)
}

// liveHeap is the heap's live bytes as of the last collection.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
