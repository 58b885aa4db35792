package par

import (
	"sync/atomic"
	"testing"
)

// TestChunksCoversTheRangeOnce pins that every index is visited exactly
// once, whatever the range and chunk sizes, and nothing when n is 0.
func TestChunksCoversTheRangeOnce(t *testing.T) {
	for _, tc := range []struct{ n, size int }{
		{0, 4}, {1, 1}, {1, 64}, {7, 3}, {64, 64}, {65, 64}, {1000, 1}, {1000, 0}, {1001, 16},
	} {
		seen := make([]atomic.Int32, tc.n)
		Chunks(tc.n, tc.size, func(lo, hi int) {
			if lo < 0 || hi > tc.n || lo >= hi {
				t.Errorf("n=%d size=%d: range [%d, %d)", tc.n, tc.size, lo, hi)
				return
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d size=%d: index %d visited %d times", tc.n, tc.size, i, c)
			}
		}
	}
}
