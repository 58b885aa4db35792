//go:build profile

package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// A binary built with -tags profile writes a CPU profile of its whole run
// to $TOOLSCOPE_CPUPROFILE, and the heap at exit to $TOOLSCOPE_MEMPROFILE:
// the start-up, the reading, the analysis and the report, as a user runs it.
func init() {
	profiled = func(run func() int) int {
		if path := os.Getenv("TOOLSCOPE_CPUPROFILE"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				fmt.Fprintln(os.Stderr, "toolscope: cpu profile:", err)
				return 2
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				fmt.Fprintln(os.Stderr, "toolscope: cpu profile:", err)
				return 2
			}
			defer pprof.StopCPUProfile()
		}
		code := run()
		if path := os.Getenv("TOOLSCOPE_MEMPROFILE"); path != "" {
			if f, err := os.Create(path); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}
		return code
	}
}
