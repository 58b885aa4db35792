// Package par runs a loop over an index range on every core.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Chunks runs fn over [0, n) in chunks of size, handed out in turn to one
// goroutine per core (the calling one among them), so a core slowed by
// other work, or a chunk of longer items, takes fewer chunks instead of
// holding the rest up. fn sees disjoint ranges that cover [0, n) once.
func Chunks(n, size int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	size = max(size, 1)
	workers := min(runtime.GOMAXPROCS(0), (n+size-1)/size)
	var next atomic.Int64
	run := func() {
		for {
			hi := int(next.Add(int64(size)))
			lo := hi - size
			if lo >= n {
				return
			}
			fn(lo, min(hi, n))
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
}
