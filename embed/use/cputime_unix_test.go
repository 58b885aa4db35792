//go:build unix

package use

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far. Benchmarks
// divide work by it as well as by wall time: on a shared machine wall time
// measures the neighbours, CPU time measures the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
