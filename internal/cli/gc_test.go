package cli

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// A lint run collects less often for a small catalog, under a soft
// limit, and as Go's defaults have it for a large one; a GOGC or
// GOMEMLIMIT the user set is never changed.
func TestLintGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(defaultPercent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, tt := range []struct {
		name        string
		gogc, limit string
		tools       int
		want        int
		wantLimit   int64
	}{
		{"small catalog", "", "", 1000, smallRunGC, smallRunLimit},
		{"at the bound", "", "", smallRunTools, smallRunGC, smallRunLimit},
		{"large catalog", "", "", smallRunTools + 1, defaultPercent, math.MaxInt64},
		{"the user's GOGC, small catalog", "50", "", 1000, 50, math.MaxInt64},
		{"the user's GOGC, large catalog", "50", "", 10000, 50, math.MaxInt64},
		{"the user's GOMEMLIMIT", "", "1GiB", 1000, defaultPercent, math.MaxInt64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOGC", tt.gogc)
			t.Setenv("GOMEMLIMIT", tt.limit)
			// What the runtime read from the environment at start.
			debug.SetGCPercent(defaultPercent)
			debug.SetMemoryLimit(math.MaxInt64)
			if tt.gogc != "" {
				debug.SetGCPercent(50)
			}
			lintGC()
			lintGCFor(tt.tools)
			if got := debug.SetGCPercent(defaultPercent); got != tt.want {
				t.Errorf("GC percent %d, want %d", got, tt.want)
			}
			if got := debug.SetMemoryLimit(math.MaxInt64); got != tt.wantLimit {
				t.Errorf("memory limit %d, want %d", got, tt.wantLimit)
			}
		})
	}
}

// A catalog file larger than a small run's is read under Go's defaults:
// under the soft limit its tree (a few tools, a huge array) would be
// collected without pause.
func TestLintGCForALargeFile(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(defaultPercent))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	dir := t.TempDir()
	for _, tt := range []struct {
		name      string
		size      int64
		want      int
		wantLimit int64
	}{
		{"a small file", 1 << 20, smallRunGC, smallRunLimit},
		{"a large file", smallRunBytes + 1, defaultPercent, math.MaxInt64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "tools.json")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			// Sparse: the size is what counts, not the bytes.
			if err := f.Truncate(tt.size); err != nil {
				t.Fatal(err)
			}
			f.Close()
			lintGC()
			lintGCForFile(path)
			if got := debug.SetGCPercent(defaultPercent); got != tt.want {
				t.Errorf("GC percent %d, want %d", got, tt.want)
			}
			if got := debug.SetMemoryLimit(math.MaxInt64); got != tt.wantLimit {
				t.Errorf("memory limit %d, want %d", got, tt.wantLimit)
			}
		})
	}
}
