package measure

import (
	"runtime"
	"testing"
)

// TestPeakHeapSeesAnAllocation pins that a large allocation held while f
// runs shows in the peak, and that CPU time moves with work done.
func TestPeakHeapSeesAnAllocation(t *testing.T) {
	var keep []byte
	peak := PeakHeap(func() {
		keep = make([]byte, 64<<20)
		for i := range keep {
			keep[i] = byte(i)
		}
	})
	runtime.KeepAlive(keep)
	if peak < 60<<20 {
		t.Fatalf("peak %d bytes, want at least 60 MiB", peak)
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		return
	}
	before := CPUTime()
	x := 0
	for i := range 200_000_000 {
		x += i & 3
	}
	if CPUTime() <= before {
		t.Fatalf("CPU time did not move over a busy loop (%d)", x)
	}
}
