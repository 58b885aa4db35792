package vecf32

import "golang.org/x/sys/cpu"

// HasAVX2 says whether DotBlock and Dot run the AVX2 and FMA assembly here.
var HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func init() {
	if HasAVX2 {
		dotBlock = dotBlockAVX2
		dot = dotDispatchAVX2
	}
}

// Register tile of the assembly kernel: rows of a by rows of b.
const (
	tileA = 3
	tileB = 4
)

// dotBlockAVX2 runs dot3x4AVX2 over 3 × 4 tiles of the block. The last
// tile of a row or column that does not divide evenly is moved back to
// end at the block's edge, overlapping the one before (its products come
// out the same); with fewer than 3 rows or 4 columns in all, the kernel
// reads one row at a time, repeated (stride 0). So every product comes
// out of the same kernel, summed in the same order, wherever it stands,
// and nothing is copied; the last dim%8 components are added after, in
// Go.
func dotBlockAVX2(dst []float32, ldd int, a []float32, na int, b []float32, nb, dim int) {
	d8 := dim &^ 7
	if d8 == 0 {
		dotBlockGo(dst, ldd, a, na, b, nb, dim)
		return
	}
	stride := dim * 4
	// rowStep and colStep say how a tile covers the rows or columns: n at
	// a time from where it starts, or 1 at a time, repeated.
	rowStep, strideA := tileA, stride
	if na < tileA {
		rowStep, strideA = 1, 0
	}
	colStep, strideB := tileB, stride
	if nb < tileB {
		colStep, strideB = 1, 0
	}
	var sums [tileA * tileB]float32
	for i := 0; i < na; i += rowStep {
		i = min(i, na-rowStep)
		for j := 0; j < nb; j += colStep {
			j = min(j, nb-colStep)
			dot3x4AVX2(&a[i*dim], &b[j*dim], strideA, strideB, d8/8, &sums)
			for r := range rowStep {
				row := dst[(i+r)*ldd+j:][:colStep]
				for c := range colStep {
					v := sums[r*tileB+c]
					if d8 < dim {
						v += dotSeq(a[(i+r)*dim+d8:][:dim-d8], b[(j+c)*dim+d8:][:dim-d8])
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

// dotAVX2 and dot3x4AVX2 are in dot_amd64.s.
//
//go:noescape
func dotAVX2(a, b *float32, n int) float32

// dot3x4AVX2: sums[r*4+c] = Σ a[r][k]·b[c][k] over the first 8·blocks
// components, for rows r < 3 of a, each strideA bytes after the last, and
// c < 4 of b, strideB bytes apart.
//
//go:noescape
func dot3x4AVX2(a, b *float32, strideA, strideB, blocks int, sums *[tileA * tileB]float32)
