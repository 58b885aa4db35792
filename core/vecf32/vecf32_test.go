package vecf32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// blockFuncs lists every DotBlock this machine runs; dot_amd64_test.go
// adds the assembly one where the CPU has it.
var blockFuncs = map[string]func(Block){
	"go": dotBlockGo,
}

func random(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// exact is a·b summed in float64, where each product of two float32s is
// exact.
func exact(a, b []float32) (dot, mag float64) {
	for k := range a {
		p := float64(a[k]) * float64(b[k])
		dot += p
		mag += math.Abs(p)
	}
	return dot, mag
}

// Every kernel agrees with the exact sum to float32 rounding over shapes
// that leave every kind of edge: rows and columns not multiples of the
// register tile, dims below, at and off a multiple of 8, and a dst wider
// than the block. Cells outside the block stay untouched.
func TestDotBlockMatchesExactSum(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	shapes := [][3]int{{1, 1, 1}, {1, 1, 7}, {3, 4, 8}, {2, 5, 9}, {7, 9, 16}, {6, 8, 513}, {64, 64, 512}, {13, 11, 1536}, {5, 3, 0}}
	for name, f := range blockFuncs {
		for _, sh := range shapes {
			na, nb, dim := sh[0], sh[1], sh[2]
			t.Run(fmt.Sprintf("%s/%dx%dx%d", name, na, nb, dim), func(t *testing.T) {
				a, b := random(r, na*dim), random(r, nb*dim)
				ldd := nb + 3
				dst := make([]float32, na*ldd)
				for i := range dst {
					dst[i] = -7
				}
				f(Block{Dst: dst, Stride: ldd, A: a, NA: na, B: b, NB: nb, Dim: dim})
				for i := range na {
					for j := range ldd {
						got := dst[i*ldd+j]
						if j >= nb {
							if got != -7 {
								t.Fatalf("dst[%d][%d] outside the block written: %g", i, j, got)
							}
							continue
						}
						want, mag := exact(a[i*dim:][:dim], b[j*dim:][:dim])
						// float32 sums of dim terms: a few units of 2⁻²⁴
						// per term of the magnitude.
						if diff := math.Abs(float64(got) - want); diff > 4*float64(dim+1)*0x1p-24*mag+1e-30 {
							t.Fatalf("dst[%d][%d] = %g, want %g (±%g)", i, j, got, want, mag)
						}
					}
				}
			})
		}
	}
}

// The assembly and the portable kernels give the same products to within
// float32 rounding on unit vectors, the case the pair kernel has.
func TestKernelsAgreeOnUnitVectors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const n, dim = 50, 512
	v := random(r, n*dim)
	for i := range n {
		row := v[i*dim:][:dim]
		s, _ := exact(row, row)
		for k := range row {
			row[k] /= float32(math.Sqrt(s))
		}
	}
	ref := make([]float32, n*n)
	dotBlockGo(Block{Dst: ref, Stride: n, A: v, NA: n, B: v, NB: n, Dim: dim})
	for name, f := range blockFuncs {
		got := make([]float32, n*n)
		f(Block{Dst: got, Stride: n, A: v, NA: n, B: v, NB: n, Dim: dim})
		for i := range got {
			if d := math.Abs(float64(got[i] - ref[i])); d > 1e-6 {
				t.Errorf("%s: [%d] = %g, go %g", name, i, got[i], ref[i])
			}
		}
	}
}

// A pair's product has the same bits wherever it stands in a block: in a
// whole register tile, on an edge, or alone.
func TestDotBlockSameBitsAnywhere(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for name, f := range blockFuncs {
		for _, sh := range [][3]int{{7, 9, 512}, {5, 6, 20}, {4, 5, 3}, {2, 3, 16}, {1, 2, 24}} {
			na, nb, dim := sh[0], sh[1], sh[2]
			a, b := random(r, na*dim), random(r, nb*dim)
			block := make([]float32, na*nb)
			f(Block{Dst: block, Stride: nb, A: a, NA: na, B: b, NB: nb, Dim: dim})
			var one [1]float32
			for i := range na {
				for j := range nb {
					f(Block{Dst: one[:], Stride: 1, A: a[i*dim:][:dim], NA: 1, B: b[j*dim:][:dim], NB: 1, Dim: dim})
					if one[0] != block[i*nb+j] {
						t.Errorf("%s %v: [%d][%d] is %g in the block, %g alone", name, sh, i, j, block[i*nb+j], one[0])
					}
				}
			}
		}
	}
}

// dotFuncs lists every Dot this machine runs.
var dotFuncs = map[string]func(a, b []float32) float32{"go": dotGo}

// Every Dot agrees with the exact sum over lengths that leave every kind
// of tail, and reads no further than the shorter slice.
func TestDotMatchesExactSum(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for name, f := range dotFuncs {
		for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 40, 63, 64, 100, 512, 1536} {
			a, b := random(r, n), random(r, n+5)
			want, mag := exact(a, b[:n])
			got := f(a, b)
			if diff := math.Abs(float64(got) - want); diff > 4*float64(n+1)*0x1p-24*mag {
				t.Errorf("%s, %d components: %g, want %g", name, n, got, want)
			}
		}
	}
}

func TestDot(t *testing.T) {
	for _, tt := range []struct {
		a, b []float32
		want float32
	}{
		{nil, nil, 0},
		{[]float32{1, 2, 3}, []float32{4, 5, 6}, 32},
		{[]float32{1, 2, 3, 4, 5}, []float32{1, 1, 1, 1, 1, 9}, 15},
		{[]float32{0.5, -0.5, 2, 2, 1}, []float32{2, 2, 0.25, 0.25, -1}, 0},
	} {
		if got := Dot(tt.a, tt.b); got != tt.want {
			t.Errorf("Dot(%v, %v) = %g, want %g", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDotBlockPanicsOnShortSlices(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a short b")
		}
	}()
	DotBlock(Block{Dst: make([]float32, 4), Stride: 2, A: make([]float32, 16), NA: 2, B: make([]float32, 8), NB: 2, Dim: 8})
}

// BenchmarkDotBlock scores a 96 × 96 block of 512-d vectors, as the pair
// kernel does, and reports GFLOP per CPU-second (run with -cpu 1).
func BenchmarkDotBlock(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	const n, dim = 96, 512
	x, y := random(r, n*dim), random(r, n*dim)
	dst := make([]float32, n*n)
	for name, f := range blockFuncs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f(Block{Dst: dst, Stride: n, A: x, NA: n, B: y, NB: n, Dim: dim})
			}
			b.ReportMetric(2*n*n*dim*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
