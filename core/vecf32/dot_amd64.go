package vecf32

import "golang.org/x/sys/cpu"

// HasAVX2 says whether DotBlock and Dot run the AVX2 and FMA assembly
// here, HasAVX512 whether DotBlock runs the AVX-512 one.
var (
	HasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	HasAVX512 = HasAVX2 && cpu.X86.HasAVX512F
)

func init() {
	if HasAVX2 {
		dotBlock = dotBlockAVX2
		dot = dotDispatchAVX2
	}
	if HasAVX512 {
		dotBlock = dotBlockAVX512
	}
}

// tileKernel is an assembly register tile: sums[r*4+c] = Σ a[r][k]·b[c][k]
// over the first width·blocks components, for rows r < rows of a, each
// strideA bytes after the last, and c < cols of b, strideB bytes apart.
type tileKernel struct {
	rows, cols, width int
	fn                func(a, b *float32, strideA, strideB, blocks int, sums *[16]float32)
}

var (
	avx2Tile   = tileKernel{3, 4, 8, dot3x4AVX2}
	avx512Tile = tileKernel{4, 4, 16, dot4x4AVX512}
)

func dotBlockAVX2(blk Block) { dotBlockTiled(blk, avx2Tile) }

func dotBlockAVX512(blk Block) { dotBlockTiled(blk, avx512Tile) }

// dotBlockTiled runs the kernel over tiles of the block. The last tile of
// a row or column that does not divide evenly is moved back to end at the
// block's edge, overlapping the one before (its products come out the
// same); with fewer rows or columns in all than a tile has, the kernel
// reads one at a time, repeated (stride 0). So every product comes out of
// the same kernel, summed in the same order, wherever it stands, and
// nothing is copied; the last dim%width components are added after, in
// Go.
func dotBlockTiled(blk Block, k tileKernel) {
	dw := blk.Dim - blk.Dim%k.width
	if dw == 0 {
		dotBlockGo(blk)
		return
	}
	// Locals, not fields, in the loops: the compiler keeps them in
	// registers.
	dst, ldd, a, na, b, nb, dim := blk.Dst, blk.Stride, blk.A, blk.NA, blk.B, blk.NB, blk.Dim
	stride := dim * 4
	// rowStep and colStep say how a tile covers the rows or columns: a
	// whole tile at a time from where it starts, or 1 at a time, repeated.
	rowStep, strideA := k.rows, stride
	if na < k.rows {
		rowStep, strideA = 1, 0
	}
	colStep, strideB := k.cols, stride
	if nb < k.cols {
		colStep, strideB = 1, 0
	}
	var sums [16]float32
	for i := 0; i < na; i += rowStep {
		i = min(i, na-rowStep)
		for j := 0; j < nb; j += colStep {
			j = min(j, nb-colStep)
			k.fn(&a[i*dim], &b[j*dim], strideA, strideB, dw/k.width, &sums)
			for r := range rowStep {
				row := dst[(i+r)*ldd+j:][:colStep]
				for c := range colStep {
					v := sums[r*4+c]
					if dw < dim {
						v += dotSeq(a[(i+r)*dim+dw:][:dim-dw], b[(j+c)*dim+dw:][:dim-dw])
					}
					row[c] = v
				}
			}
		}
	}
}

// dotDispatchAVX2 is Dot with the assembly over whole blocks of 8 and Go
// over the rest.
func dotDispatchAVX2(a, b []float32) float32 {
	n := min(len(a), len(b))
	n8 := n &^ 7
	if n8 == 0 {
		return dotGo(a, b)
	}
	s := dotAVX2(&a[0], &b[0], n8)
	if n8 < n {
		s += dotGo(a[n8:n], b[n8:n])
	}
	return s
}

// dotAVX2, dot3x4AVX2 and dot4x4AVX512 are in dot_amd64.s.
//
//go:noescape
func dotAVX2(a, b *float32, n int) float32

// dot3x4AVX2 is the 3 × 4 tile over blocks of 8 components (it writes
// sums' first three rows).
//
//go:noescape
func dot3x4AVX2(a, b *float32, strideA, strideB, blocks int, sums *[16]float32)

// dot4x4AVX512 is the 4 × 4 tile over blocks of 16 components.
//
//go:noescape
func dot4x4AVX512(a, b *float32, strideA, strideB, blocks int, sums *[16]float32)
