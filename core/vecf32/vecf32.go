// Package vecf32 holds float32 vector kernels: dot products of every row
// of one block of vectors with every row of another, in registers a few
// rows at a time. On amd64 with AVX-512, or with AVX2 and FMA (checked at
// run time), the inner tile is assembly; elsewhere the same blocks run in
// plain Go. They differ only in rounding: each sums in float32, in its own
// order.
package vecf32

// Dot returns a·b in float32, over the shorter of the two.
func Dot(a, b []float32) float32 {
	return dot(a, b)
}

// dot is the fastest Dot this machine runs; dot_amd64.go swaps in the
// assembly one.
var dot = dotGo

// dotGo is Dot in plain Go, four partial sums.
func dotGo(a, b []float32) float32 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	var s0, s1, s2, s3 float32
	k := 0
	for ; k+4 <= n; k += 4 {
		s0 += a[k] * b[k]
		s1 += a[k+1] * b[k+1]
		s2 += a[k+2] * b[k+2]
		s3 += a[k+3] * b[k+3]
	}
	for ; k < n; k++ {
		s0 += a[k] * b[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// Block is one block of dot products for DotBlock: each of the NA rows
// of A with each of the NB rows of B, every row Dim long and stored one
// after the other, the product of rows i and j going to Dst[i*Stride+j].
type Block struct {
	Dst    []float32
	Stride int
	A      []float32
	NA     int
	B      []float32
	NB     int
	Dim    int
}

// DotBlock writes blk's dot products into blk.Dst. Every product is
// summed in the same order wherever it stands in the block, so a pair
// gives the same bits in any block, alone (NA = NB = 1) included; Dot's
// order may differ. It panics if a slice is too short.
func DotBlock(blk Block) {
	if blk.NA == 0 || blk.NB == 0 {
		return
	}
	_ = blk.Dst[(blk.NA-1)*blk.Stride+blk.NB-1]
	_ = blk.A[blk.NA*blk.Dim-1]
	_ = blk.B[blk.NB*blk.Dim-1]
	dotBlock(blk)
}

// dotBlock is the fastest DotBlock this machine runs; dot_amd64.go swaps
// in the assembly one.
var dotBlock = dotBlockGo

// dotBlockGo is DotBlock in plain Go: two rows of a against two of b at a
// time, so each load serves two products, each summed in index order.
func dotBlockGo(blk Block) {
	// Locals, not fields, in the loops: the compiler keeps them in
	// registers.
	dst, ldd, a, na, b, nb, dim := blk.Dst, blk.Stride, blk.A, blk.NA, blk.B, blk.NB, blk.Dim
	i := 0
	for ; i+2 <= na; i += 2 {
		a0, a1 := a[i*dim:][:dim], a[(i+1)*dim:][:dim]
		j := 0
		for ; j+2 <= nb; j += 2 {
			b0, b1 := b[j*dim:][:dim], b[(j+1)*dim:][:dim]
			var s00, s01, s10, s11 float32
			for k, x := range a0 {
				y := a1[k]
				u, v := b0[k], b1[k]
				s00 += x * u
				s01 += x * v
				s10 += y * u
				s11 += y * v
			}
			dst[i*ldd+j], dst[i*ldd+j+1] = s00, s01
			dst[(i+1)*ldd+j], dst[(i+1)*ldd+j+1] = s10, s11
		}
		for ; j < nb; j++ {
			bj := b[j*dim:][:dim]
			dst[i*ldd+j] = dotSeq(a0, bj)
			dst[(i+1)*ldd+j] = dotSeq(a1, bj)
		}
	}
	for ; i < na; i++ {
		ai := a[i*dim:][:dim]
		for j := range nb {
			dst[i*ldd+j] = dotSeq(ai, b[j*dim:][:dim])
		}
	}
}

// dotSeq is a·b summed in index order, in float32 (a and b of one
// length).
func dotSeq(a, b []float32) float32 {
	b = b[:len(a)]
	var s float32
	for k, x := range a {
		s += x * b[k]
	}
	return s
}
