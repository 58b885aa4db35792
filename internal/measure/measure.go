// Package measure holds what benchmarks report beside wall time on a
// shared machine: the process's CPU time and the heap's peak.
package measure

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// PeakHeap runs f and returns the highest the Go heap (objects, live or
// not yet swept) rose above where it stood before, sampled every 2 ms.
func PeakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	peak = max(peak, read())
	return peak - min(peak, base)
}
