package use

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"
)

// exp32 must stay within a few float32 ulps of the float64 exp over the
// whole range softmax gives it, and be 0 where the result would be
// subnormal.
func TestExp32(t *testing.T) {
	worst := 0.0
	for i := 0; i <= 1_000_000; i++ {
		x := float32(-87 * float64(i) / 1_000_000)
		want := math.Exp(float64(x))
		got := float64(exp32(x))
		if rel := math.Abs(got-want) / want; rel > worst {
			worst = rel
		}
	}
	// 2 ulp of a float32 is at most 2·2⁻²³ of the value.
	if worst > 2*0x1p-23 {
		t.Errorf("exp32 is up to %.3g off, relative (2 ulp = %.3g)", worst, 2*0x1p-23)
	}
	for _, tt := range []struct{ x, want float32 }{{0, 1}, {-88, 0}, {float32(math.Inf(-1)), 0}} {
		if got := exp32(tt.x); got != tt.want {
			t.Errorf("exp32(%g) = %g, want %g", tt.x, got, tt.want)
		}
	}
}

// softmax rows sum to 1 and leave nothing past n.
func TestSoftmax(t *testing.T) {
	row := []float32{1, 3, -2, 0.5, 9, 9}
	softmax(row, 4)
	var sum, want float64
	for _, v := range []float64{1, 3, -2, 0.5} {
		want += math.Exp(v - 3)
	}
	for j, v := range row[:4] {
		sum += float64(v)
		w := math.Exp([]float64{1, 3, -2, 0.5}[j]-3) / want
		if math.Abs(float64(v)-w) > 1e-7 {
			t.Errorf("p[%d] = %g, want %g", j, v, w)
		}
	}
	if math.Abs(sum-1) > 1e-6 || row[4] != 0 || row[5] != 0 {
		t.Errorf("sum %g, tail %v", sum, row[4:])
	}
}

// parallel hands out every index once, whatever the cores and the length.
func TestParallelCoversEachIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		saved := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 15, 16, 17, 1000} {
			seen := make([]atomic.Int32, n)
			parallel(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("GOMAXPROCS %d, n %d: index %d run %d times", procs, n, i, c)
				}
			}
		}
		runtime.GOMAXPROCS(saved)
	}
}
