package use

import "golang.org/x/sys/cpu"

// hasAVX2 says whether this CPU runs kernelAVX2, hasAVX512 whether it runs
// kernel2AVX512.
var (
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512 = hasAVX2 && cpu.X86.HasAVX512F
)

func init() {
	if hasAVX2 {
		kernels.one = kernelAVX2
	}
	if hasAVX512 {
		kernels.pair = kernel2AVX512
	}
}

// kernelAVX2 is kernelGo with AVX2 and fused multiply-adds. The slices'
// lengths were checked by the caller (tile): a holds tileRows·k values, b
// k·16, bias 16, and c reaches row tileRows-1, column 15 at stride ldc.
func kernelAVX2(k int, a, b, bias, c []float32, ldc int) {
	if k == 0 {
		kernelGo(k, a, b, bias, c, ldc) // nothing to point a and b at
		return
	}
	_ = c[(tileRows-1)*ldc+panelCols-1] // bounds, once, before the unchecked kernel
	_ = a[tileRows*k-1]
	_ = b[k*panelCols-1]
	_ = bias[panelCols-1]
	tileAVX2(k, &a[0], &b[0], &bias[0], &c[0], ldc)
}

// kernel2AVX512 computes a tile against two neighbouring panels with
// 16-float AVX-512 registers: b holds 2·k·16 values, bias 32, and c
// reaches row tileRows-1, column 31.
func kernel2AVX512(k int, a, b, bias, c []float32, ldc int) {
	if k == 0 {
		kernelGo(k, a, b, bias, c, ldc)
		kernelGo(k, a, b, bias[panelCols:], c[panelCols:], ldc)
		return
	}
	_ = c[(tileRows-1)*ldc+2*panelCols-1]
	_ = a[tileRows*k-1]
	_ = b[2*k*panelCols-1]
	_ = bias[2*panelCols-1]
	tile2AVX512(k, &a[0], &b[0], &bias[0], &c[0], ldc)
}

// tileAVX2 and tile2AVX512 are in gemm_amd64.s.
//
//go:noescape
func tileAVX2(k int, a, b, bias, c *float32, ldc int)

//go:noescape
func tile2AVX512(k int, a, b, bias, c *float32, ldc int)
