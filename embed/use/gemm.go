package use

import "fmt"

// The matrix multiply. Inference time is almost all x·W with W one of the
// model's fixed weight matrices, so each W is rearranged once at load into
// panels of panelCols columns, stored k rows deep and contiguous: the
// kernel then streams one panel while it multiplies a tile of tileRows
// rows of x into a tileRows × panelCols block of the result, all in
// registers. On amd64 with AVX2 and FMA the kernel is Go assembly
// (gemm_amd64.s), about ten times gonum's float32 GEMM on the same core,
// and with AVX-512 a second one covers two panels at once in
// sixteen-float registers, nearly twice that again; elsewhere the same
// tile in plain Go.

const (
	tileRows  = 6
	panelCols = 16
)

// dense is a k × n weight matrix in panel layout: panel p holds columns
// [16p, 16p+16) as k rows of 16 values.
type dense struct {
	k, n   int
	panels []float32
}

// newDense rearranges a row-major k × n matrix into panels.
func newDense(w []float32, k, n int) (*dense, error) {
	if n%panelCols != 0 || len(w) != k*n {
		return nil, fmt.Errorf("matrix %d×%d (%d values) does not split into %d-column panels", k, n, len(w), panelCols)
	}
	d := &dense{k: k, n: n, panels: make([]float32, len(w))}
	for j0 := 0; j0 < n; j0 += panelCols {
		panel := d.panels[j0*k:]
		for l := range k {
			copy(panel[l*panelCols:][:panelCols], w[l*n+j0:])
		}
	}
	return d, nil
}

// mul writes x·W + bias into out for a rows × k matrix x, splitting the
// rows over the available cores.
func (d *dense) mul(out, x []float32, rows int, bias []float32) {
	d.mulThen(out, x, rows, bias, nil)
}

// mulThen is mul, then calls then(lo, hi) for each block of rows [lo, hi)
// once they are written, on the core that wrote them while they are still
// in its cache: the element-wise steps after a product (a residual add, a
// ReLU, tanh) run in the parallel part too. then may be nil.
func (d *dense) mulThen(out, x []float32, rows int, bias []float32, then func(lo, hi int)) {
	tiles := (rows + tileRows - 1) / tileRows
	parallel(tiles, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			r0 := t * tileRows
			n := min(tileRows, rows-r0)
			if n == tileRows {
				d.tile(x[r0*d.k:][:tileRows*d.k], bias, out[r0*d.n:][:tileRows*d.n])
			} else {
				// The last, short tile goes through a zero-padded copy, so
				// the kernel always reads and writes whole tiles.
				xs := make([]float32, tileRows*d.k)
				copy(xs, x[r0*d.k:][:n*d.k])
				part := make([]float32, tileRows*d.n)
				d.tile(xs, bias, part)
				copy(out[r0*d.n:], part[:n*d.n])
			}
			if then != nil {
				then(r0, r0+n)
			}
		}
	})
}

// mulTiles writes x·W + bias into out for an x of whole tiles (its row
// count a multiple of tileRows), on the calling goroutine.
func (d *dense) mulTiles(out, x, bias []float32) {
	for r0 := 0; r0 < len(x)/d.k; r0 += tileRows {
		d.tile(x[r0*d.k:][:tileRows*d.k], bias, out[r0*d.n:][:tileRows*d.n])
	}
}

// tile computes one tileRows × n block: out = x·W + bias, with x and out
// exactly tileRows rows.
func (d *dense) tile(x, bias, out []float32) {
	for j0 := 0; j0 < d.n; {
		if kernels.pair != nil && j0+2*panelCols <= d.n {
			kernels.pair(d.k, x, d.panels[j0*d.k:][:2*d.k*panelCols], bias[j0:][:2*panelCols], out[j0:], d.n)
			j0 += 2 * panelCols
			continue
		}
		kernels.one(d.k, x, d.panels[j0*d.k:][:d.k*panelCols], bias[j0:][:panelCols], out[j0:], d.n)
		j0 += panelCols
	}
}

// kernelFunc computes one tile; see kernelGo.
type kernelFunc func(k int, a, b, bias, c []float32, ldc int)

// kernelSet is the tile kernels in use: one computes a tile against one
// panel, pair (nil when the machine has none) against two neighbouring
// panels, b then holding both and bias and c 32 columns.
type kernelSet struct{ one, pair kernelFunc }

// kernels are the fastest this machine runs; gemm_amd64.go swaps in the
// assembly ones when the CPU has AVX2 and FMA, or AVX-512.
var kernels = kernelSet{one: kernelGo}

// kernelGo computes c[r][j] = bias[j] + Σ_l a[r·k+l]·b[l·16+j] for the
// tileRows rows r of a (each k long) and the 16 columns j of the panel b;
// row r of c starts at c[r·ldc].
func kernelGo(k int, a, b, bias, c []float32, ldc int) {
	for r := range tileRows {
		var acc [panelCols]float32
		copy(acc[:], bias)
		for l, x := range a[r*k:][:k] {
			for j, w := range b[l*panelCols:][:panelCols] {
				acc[j] += x * w
			}
		}
		copy(c[r*ldc:][:panelCols], acc[:])
	}
}
