package use

import (
	"math"
	"runtime"

	"toolscope/internal/par"
)

// The forward pass (models/use-lite.md §3), written for this one model.
// A batch is many texts whose tokens are stacked into one matrix, so every
// weight matrix is read once per batch by one GEMM; only attention looks
// at one text at a time. Arithmetic is float32 with tanh and the square
// roots in float64 rounded back, which is what matches the JavaScript
// runtime; softmax's exp is float32 (exp32), within 2 ulp. Every step runs
// on all cores (parallel).

// span is one text's rows in the stacked token matrix.
type span struct{ start, n int }

// workspace holds a batch's activations, reused from batch to batch so a
// long run does not hand the collector tens of megabytes per batch.
type workspace struct {
	x0, h, qkv, ctx, y, res, f, inner, z, pooled []float32
}

// buf returns *b resized to n values, reusing its storage when it can. The
// contents are not cleared: every user overwrites all n values.
func buf(b *[]float32, n int) []float32 {
	if cap(*b) < n {
		*b = make([]float32, n)
	}
	return (*b)[:n]
}

// forward embeds texts given as non-empty id lists already clipped to
// MaxTokens, and returns one unit vector per text.
func (m *model) forward(ws *workspace, seqs [][]int) [][]float32 {
	spans := make([]span, len(seqs))
	rows := 0
	for i, ids := range seqs {
		spans[i] = span{rows, len(ids)}
		rows += len(ids)
	}

	// x0 = e + (e + timing): the graph adds the embedding twice.
	x := buf(&ws.x0, rows*embedDim)
	parallel(len(seqs), func(lo, hi int) {
		for i, ids := range seqs[lo:hi] {
			for p, id := range ids {
				dst := x[(spans[lo+i].start+p)*embedDim:][:embedDim]
				e := m.embeddings[id*embedDim:][:embedDim]
				for k, sig := range m.timing[p*embedDim:][:embedDim] {
					dst[k] = e[k] + (e[k] + sig)
				}
			}
		}
	})
	for i := range m.layers {
		x = m.layers[i].forward(ws, x, rows, spans)
	}

	pooled := buf(&ws.pooled, len(seqs)*hiddenDim)
	parallel(len(spans), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s := spans[i]
			u := pooled[i*hiddenDim:][:hiddenDim]
			clear(u)
			for p := range s.n {
				addTo(u, x[(s.start+p)*hiddenDim:][:hiddenDim])
			}
			n := float32(s.n)
			for k := range u {
				u[k] /= n
			}
		}
	})

	// The result is the caller's: it must not live in the workspace.
	v := make([]float32, len(seqs)*hiddenDim)
	m.headW.mulThen(v, pooled, len(seqs), m.headB, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := v[r*hiddenDim:][:hiddenDim]
			for k, a := range row {
				row[k] = float32(math.Tanh(float64(a)))
			}
			l2normalize(row)
		}
	})
	out := make([][]float32, len(seqs))
	for i := range out {
		out[i] = v[i*hiddenDim:][:hiddenDim:hiddenDim]
	}
	return out
}

// forward runs the layer on rows × l.in input and returns rows × hiddenDim,
// in ws.z.
func (l *layer) forward(ws *workspace, x []float32, rows int, spans []span) []float32 {
	h := layerNorm(buf(&ws.h, rows*l.in), x, l.in, l.attnScale, l.attnBias)
	qkv := buf(&ws.qkv, rows*3*l.in)
	l.qkvW.mul(qkv, h, rows, l.qkvB)
	ctx := buf(&ws.ctx, rows*l.in)
	attention(ctx, qkv, l.in, spans)
	y := buf(&ws.y, rows*hiddenDim)
	if l.resW != nil {
		// y = ctx·outW + outB, then y += x·resW + resB, a tile at a time.
		l.outW.mul(y, ctx, rows, l.outB)
		r := buf(&ws.res, rows*hiddenDim)
		l.resW.mulThen(r, x, rows, l.resB, func(lo, hi int) {
			addTo(y[lo*hiddenDim:hi*hiddenDim], r[lo*hiddenDim:hi*hiddenDim])
		})
	} else {
		l.outW.mulThen(y, ctx, rows, l.outB, func(lo, hi int) {
			addTo(y[lo*hiddenDim:hi*hiddenDim], x[lo*hiddenDim:hi*hiddenDim])
		})
	}

	f := layerNorm(buf(&ws.f, rows*hiddenDim), y, hiddenDim, l.ffnScale, l.ffnBias)
	inner := buf(&ws.inner, rows*ffnDim)
	l.w1.mulThen(inner, f, rows, l.b1, func(lo, hi int) {
		part := inner[lo*ffnDim : hi*ffnDim]
		for i, v := range part {
			part[i] = max(v, 0)
		}
	})
	// Layer 1 reads its input from ws.z, so layer 0's output must not be
	// overwritten before it has been used: z is written last, from y.
	z := buf(&ws.z, rows*hiddenDim)
	l.w2.mulThen(z, inner, rows, l.b2, func(lo, hi int) {
		addTo(z[lo*hiddenDim:hi*hiddenDim], y[lo*hiddenDim:hi*hiddenDim])
	})
	return z
}

// attention computes multi-head scaled dot-product attention within each
// text into out. qkv holds rows × [Q | K | V], each width wide; out is
// rows × width with the heads side by side. Both products of a head, Q·Kᵀ
// and P·V, run on the GEMM kernel: a text's keys and values are packed as
// the "weights", padded with zeros to whole panels, and its queries to
// whole tiles; zero keys add nothing to the products and their
// probabilities are set to zero.
func attention(out, qkv []float32, width int, spans []span) {
	hd := width / numHeads
	// The graph scales Q (not the logits) by float32(1/√hd).
	scale := float32(1 / math.Sqrt(float64(hd)))
	stride := 3 * width
	parallel(len(spans), func(lo, hi int) {
		var sc struct{ q, keys, vals, logits, ctx, zero []float32 }
		for _, s := range spans[lo:hi] {
			rows := roundUp(s.n, tileRows)
			cols := roundUp(s.n, panelCols)
			q := buf(&sc.q, rows*hd)
			keys := dense{k: hd, n: cols, panels: buf(&sc.keys, hd*cols)}
			vals := dense{k: cols, n: hd, panels: buf(&sc.vals, cols*hd)}
			logits := buf(&sc.logits, rows*cols)
			ctx := buf(&sc.ctx, rows*hd)
			zero := buf(&sc.zero, max(cols, hd))
			clear(zero)
			clear(q[s.n*hd:])
			for head := range numHeads {
				clear(keys.panels)
				clear(vals.panels)
				for i := range s.n {
					row := qkv[(s.start+i)*stride+head*hd:]
					for k, v := range row[:hd] {
						q[i*hd+k] = v * scale
					}
					// Key i is column i of Kᵀ: slot i%16 of panel i/16.
					kp := keys.panels[(i-i%panelCols)*hd+i%panelCols:]
					for l, v := range row[width:][:hd] {
						kp[l*panelCols] = v
					}
					// Value i is row i of V, split across the panels.
					for c := 0; c < hd; c += panelCols {
						copy(vals.panels[c*cols+i*panelCols:][:panelCols], row[2*width+c:][:panelCols])
					}
				}
				keys.mulTiles(logits, q, zero[:cols])
				for i := range s.n {
					softmax(logits[i*cols:][:cols], s.n)
				}
				vals.mulTiles(ctx, logits, zero[:hd])
				for i := range s.n {
					copy(out[(s.start+i)*width+head*hd:][:hd], ctx[i*hd:][:hd])
				}
			}
		}
	})
}

// softmax turns the first n logits of row into probabilities, in place,
// and zeroes the rest. exp and the sum are float32: the largest term is 1,
// so the sum of at most MaxTokens terms loses nothing the tolerance sees.
func softmax(row []float32, n int) {
	peak := row[0]
	for _, v := range row[1:n] {
		peak = max(peak, v)
	}
	var sum float32
	for j, v := range row[:n] {
		e := exp32(v - peak)
		row[j] = e
		sum += e
	}
	inv := 1 / sum
	for j := range row[:n] {
		row[j] *= inv
	}
	clear(row[n:])
}

// exp32 is e^x in float32 for x ≤ 0, within 2 ulp: x = k·ln2 + r with
// |r| ≤ ln2/2, e^r by its Taylor series to r⁷ (the first term left out is
// under 2e-9 of the result), and 2^k written into the exponent. Below
// −87 the result would be subnormal; it is 0.
func exp32(x float32) float32 {
	if x < -87 {
		return 0
	}
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693145751953125 // ln 2 in its top 17 bits: k·ln2hi is exact
		ln2lo = 1.42860682030941723212e-6
	)
	k := float32(int32(x*log2e - 0.5))
	r := (x - k*ln2hi) - k*ln2lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720+r*(1.0/5040)))))))
	return p * math.Float32frombits(uint32(int32(k)+127)<<23)
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// layerNorm normalises each row of x (rows × width) into out, which it
// returns: (γ·rsqrt(σ²+ε))·(x−μ)+β with a two-pass, biased variance.
func layerNorm(out, x []float32, width int, gamma, beta []float32) []float32 {
	n := float32(width)
	parallel(len(out)/width, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := x[r*width:][:width]
			var sum float32
			for _, v := range row {
				sum += v
			}
			mean := sum / n
			var sq float32
			for _, v := range row {
				d := v - mean
				sq += d * d
			}
			rs := float32(1 / math.Sqrt(float64(sq/n+lnEpsilon)))
			dst := out[r*width:][:width]
			for k, v := range row {
				dst[k] = (gamma[k]*rs)*(v-mean) + beta[k]
			}
		}
	})
	return out
}

// addTo adds src to dst element-wise.
func addTo(dst, src []float32) {
	for i, v := range src {
		dst[i] += v
	}
}

// l2normalize scales v to unit length: v·rsqrt(max(Σv², 1e-12)).
func l2normalize(v []float32) {
	var sq float32
	for _, a := range v {
		sq += a * a
	}
	r := float32(1 / math.Sqrt(float64(max(sq, float32(l2Floor)))))
	for i := range v {
		v[i] *= r
	}
}

// parallel runs fn over [0, n) on every available core. The range is cut
// into chunks handed out in turn, so a core slowed by other work (or a
// chunk of longer texts) takes fewer of them instead of holding the rest
// up; fn runs on the calling goroutine too.
func parallel(n int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		fn(0, n)
		return
	}
	par.Chunks(n, max(1, n/(workers*chunksPerWorker)), fn)
}

// chunksPerWorker is how many pieces parallel cuts each core's share into.
const chunksPerWorker = 8
