package use

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"toolscope/internal/measure"
)

// testKernels lists every tile kernel this machine can run: the portable
// one, and those gemm_*_test.go files add for their architecture.
var testKernels = map[string]kernelSet{"go": {one: kernelGo}}

// withKernel runs f with k as the tile kernels.
func withKernel(k kernelSet, f func()) {
	saved := kernels
	kernels = k
	defer func() { kernels = saved }()
	f()
}

func randomMatrix(r *rand.Rand, n int) []float32 {
	m := make([]float32, n)
	for i := range m {
		m[i] = float32(r.NormFloat64())
	}
	return m
}

func TestDenseMulMatchesNaiveProduct(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, k := range testKernels {
		for _, shape := range [][3]int{{1, 1, 16}, {5, 7, 16}, {6, 64, 32}, {7, 0, 16}, {13, 33, 48}, {100, 256, 768}} {
			rows, depth, cols := shape[0], shape[1], shape[2]
			t.Run(fmt.Sprintf("%s/%dx%dx%d", name, rows, depth, cols), func(t *testing.T) {
				x, w, bias := randomMatrix(r, rows*depth), randomMatrix(r, depth*cols), randomMatrix(r, cols)
				d, err := newDense(w, depth, cols)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]float32, rows*cols)
				withKernel(k, func() { d.mul(got, x, rows, bias) })
				for i := range rows {
					for j := range cols {
						want := float64(bias[j])
						for l := range depth {
							want += float64(x[i*depth+l]) * float64(w[l*cols+j])
						}
						if diff := math.Abs(float64(got[i*cols+j]) - want); diff > 1e-4*(1+math.Abs(want)) {
							t.Fatalf("[%d][%d] = %g, want %g", i, j, got[i*cols+j], want)
						}
					}
				}
			})
		}
	}
}

func TestNewDenseRejectsUnevenShapes(t *testing.T) {
	if _, err := newDense(make([]float32, 3*10), 3, 10); err == nil {
		t.Error("10 columns accepted")
	}
	if _, err := newDense(make([]float32, 5), 3, 16); err == nil {
		t.Error("5 values for 3×16 accepted")
	}
}

// The portable kernel must reproduce the reference as well as the fast one.
func TestEveryKernelMatchesReference(t *testing.T) {
	ref := readReference(t)
	texts := make([]string, len(ref.Sentences))
	for i, s := range ref.Sentences {
		texts[i] = s.Text
	}
	for name, k := range testKernels {
		var got [][]float32
		var err error
		withKernel(k, func() { got, err = New().Embed(context.Background(), texts) })
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range ref.Sentences {
			if d := maxAbsDiff(got[i], s.Vector); d > tolerance {
				t.Errorf("%s kernel: %q is %.2e off", name, s.Text, d)
			}
		}
	}
}

// BenchmarkGEMM multiplies 1,020 rows by matrices of the model's shapes
// (qkv of layer 0, the FFN's two) with each kernel, and reports GFLOP per
// CPU-second: run it with -cpu 1 for the per-core rate.
func BenchmarkGEMM(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const rows = 1020
	for _, shape := range [][2]int{{256, 768}, {512, 1536}, {1536, 512}} {
		depth, cols := shape[0], shape[1]
		x, w, bias := randomMatrix(r, rows*depth), randomMatrix(r, depth*cols), randomMatrix(r, cols)
		d, err := newDense(w, depth, cols)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]float32, rows*cols)
		for name, k := range testKernels {
			b.Run(fmt.Sprintf("%dx%d/%s", depth, cols, name), func(b *testing.B) {
				cpu := measure.CPUTime()
				withKernel(k, func() {
					for b.Loop() {
						d.mul(out, x, rows, bias)
					}
				})
				if spent := measure.CPUTime() - cpu; spent > 0 {
					b.ReportMetric(2*rows*float64(depth*cols)*float64(b.N)/spent.Seconds()/1e9, "GFLOP/cpu-s")
				}
			})
		}
	}
}
