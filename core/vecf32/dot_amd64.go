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

// dotBlockAVX2 runs dot3x4AVX2 over every 3 × 4 tile of the block. Rows
// and columns past the last whole tile go through zero-padded copies, so
// every product comes out of the same kernel, summed in the same order,
// wherever it stands; the last dim%8 components are added after, in Go.
func dotBlockAVX2(dst []float32, ldd int, a []float32, na int, b []float32, nb, dim int) {
	d8 := dim &^ 7
	if d8 == 0 {
		dotBlockGo(dst, ldd, a, na, b, nb, dim)
		return
	}
	var padA, padB []float32
	if na%tileA != 0 {
		padA = make([]float32, tileA*dim)
	}
	if nb%tileB != 0 {
		padB = make([]float32, tileB*dim)
	}
	var sums [tileA * tileB]float32
	for i := 0; i < na; i += tileA {
		ra := min(tileA, na-i)
		rows := a[i*dim:]
		if ra < tileA {
			clear(padA[ra*dim:])
			copy(padA, a[i*dim:][:ra*dim])
			rows = padA
		}
		for j := 0; j < nb; j += tileB {
			rb := min(tileB, nb-j)
			cols := b[j*dim:]
			if rb < tileB {
				clear(padB[rb*dim:])
				copy(padB, b[j*dim:][:rb*dim])
				cols = padB
			}
			dot3x4AVX2(&rows[0], &cols[0], dim*4, d8/8, &sums)
			for r := range ra {
				row := dst[(i+r)*ldd+j:][:rb]
				copy(row, sums[r*tileB:][:rb])
				if d8 < dim {
					ar := a[(i+r)*dim+d8:][:dim-d8]
					for c := range rb {
						row[c] += dotSeq(ar, b[(j+c)*dim+d8:][:dim-d8])
					}
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
// components, for rows r < 3 of a and c < 4 of b, each stride bytes after
// the last.
//
//go:noescape
func dot3x4AVX2(a, b *float32, stride, blocks int, sums *[tileA * tileB]float32)
