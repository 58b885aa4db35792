package vecf32

import "golang.org/x/sys/cpu"

// HasAVX2 says whether DotBlock runs the AVX2 and FMA assembly here.
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

// dotBlockAVX2 runs dot3x4AVX2 over every whole 3 × 4 tile and Go over
// the edges and over the last dim%8 components.
func dotBlockAVX2(dst []float32, ldd int, a []float32, na int, b []float32, nb, dim int) {
	d8 := dim &^ 7
	if d8 == 0 {
		dotBlockGo(dst, ldd, a, na, b, nb, dim)
		return
	}
	i0, j0 := na-na%tileA, nb-nb%tileB
	var sums [tileA * tileB]float32
	for i := 0; i < i0; i += tileA {
		for j := 0; j < j0; j += tileB {
			dot3x4AVX2(&a[i*dim], &b[j*dim], dim*4, d8/8, &sums)
			for r := range tileA {
				row := dst[(i+r)*ldd+j:][:tileB]
				copy(row, sums[r*tileB:][:tileB])
				if d8 < dim {
					ar := a[(i+r)*dim+d8:][:dim-d8]
					for c := range tileB {
						row[c] += Dot(ar, b[(j+c)*dim+d8:][:dim-d8])
					}
				}
			}
		}
	}
	edges(dst, ldd, a, na, b, nb, dim, i0, j0)
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

//go:noescape
func dotAVX2(a, b *float32, n int) float32

// dot3x4AVX2 is in dot_amd64.s: sums[r*4+c] = Σ a[r][k]·b[c][k] over the
// first 8·blocks components, for rows r < 3 of a and c < 4 of b, each
// stride bytes after the last.
//
//go:noescape
func dot3x4AVX2(a, b *float32, stride, blocks int, sums *[tileA * tileB]float32)

// edges computes, in Go, what a register-tile kernel leaves: rows from
// i0 on against every column, and columns from j0 on against rows below
// i0.
func edges(dst []float32, ldd int, a []float32, na int, b []float32, nb, dim, i0, j0 int) {
	for i := range i0 {
		ai := a[i*dim:][:dim]
		for j := j0; j < nb; j++ {
			dst[i*ldd+j] = Dot(ai, b[j*dim:][:dim])
		}
	}
	if i0 < na {
		dotBlockGo(dst[i0*ldd:], ldd, a[i0*dim:], na-i0, b, nb, dim)
	}
}
