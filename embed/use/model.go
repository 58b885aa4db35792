package use

import (
	_ "embed"
	"fmt"
	"math"
	"slices"

	"toolscope/embed/use/internal/weights"
)

// The model files, written by `go generate` (internal/convert) from the npm
// package recorded in model/SOURCE.md.
var (
	//go:embed model/weights.bin
	weightsBin []byte
	//go:embed model/vocab.txt
	vocabTxt string
)

// Shapes of the model (models/use-lite.md §3).
const (
	vocabRows  = 8002 // embedding rows; the last two are never indexed
	embedDim   = 256  // token embedding and layer-0 input width
	hiddenDim  = 512  // layer-1 width and output size
	ffnDim     = 1536 // FFN inner width
	numHeads   = 4
	timingDims = embedDim / 2
	// lnEpsilon is the graph's layer_norm/Cast/x, float32(1e-6).
	lnEpsilon = 9.999999974752427e-07
	// l2Floor is the graph's l2_normalize/Maximum/y, float32(1e-12).
	l2Floor = 9.999999960041972e-13
)

// layer is one pre-LN transformer layer.
type layer struct {
	// in is the layer's input width, which is also its attention width
	// (Q, K and V are in wide each, split into numHeads heads).
	in int

	attnScale, attnBias []float32 // LN before attention, [in]
	qkvW                *dense    // [in, 3·in]
	qkvB                []float32
	outW                *dense // [in, hiddenDim]
	outB                []float32
	// resW, resB project the raw input onto the output width
	// (AdjustResidualInput, layer 0 only); nil means the identity.
	resW              *dense // [in, hiddenDim]
	resB              []float32
	ffnScale, ffnBias []float32 // LN before the FFN, [hiddenDim]
	w1                *dense    // [hiddenDim, ffnDim]
	b1                []float32
	w2                *dense // [ffnDim, hiddenDim]
	b2                []float32
}

// model holds every weight as float32, dequantised once at load.
type model struct {
	tok        *tokenizer
	embeddings []float32 // [vocabRows, embedDim]
	// timing[p*embedDim:][:embedDim] is the timing signal at position p:
	// sin(p·inv[k]) then cos(p·inv[k]), from the stored inverse timescales.
	timing []float32
	layers [2]layer
	headW  *dense // [hiddenDim, hiddenDim]
	headB  []float32
	// empty is the vector of an empty text: l2norm(tanh(headB)), what the
	// JavaScript runtime gives an empty text mid-batch.
	empty []float32
}

// loadModel decodes the embedded files.
func loadModel() (*model, error) {
	tok, err := newTokenizer(vocabTxt)
	if err != nil {
		return nil, fmt.Errorf("use-lite model: %w", err)
	}
	tensors, err := weights.Read(weightsBin)
	if err != nil {
		return nil, fmt.Errorf("use-lite model: weights.bin: %w", err)
	}
	byName := make(map[string]weights.Tensor, len(tensors))
	for _, t := range tensors {
		byName[t.Name] = t
	}
	var bad error
	get := func(name string, shape ...int) []float32 {
		t, ok := byName[name]
		if !ok || !slices.Equal(t.Shape, shape) {
			if bad == nil {
				bad = fmt.Errorf("use-lite model: weights.bin: tensor %s is missing or not shaped %v", name, shape)
			}
			return make([]float32, shapeSize(shape))
		}
		return t.Data
	}
	mat := func(name string, k, n int) *dense {
		d, err := newDense(get(name, k, n), k, n)
		if err != nil && bad == nil {
			bad = fmt.Errorf("use-lite model: %s: %w", name, err)
		}
		return d
	}
	m := &model{
		tok:        tok,
		embeddings: get("embeddings", vocabRows, embedDim),
		headW:      mat("head.w", hiddenDim, hiddenDim),
		headB:      get("head.b", hiddenDim),
	}
	for i, in := range []int{embedDim, hiddenDim} {
		p := fmt.Sprintf("l%d.", i)
		l := &m.layers[i]
		l.in = in
		l.attnScale = get(p+"attn.ln.scale", in)
		l.attnBias = get(p+"attn.ln.bias", in)
		l.qkvW = mat(p+"attn.qkv.w", in, 3*in)
		l.qkvB = get(p+"attn.qkv.b", 3*in)
		l.outW = mat(p+"attn.out.w", in, hiddenDim)
		l.outB = get(p+"attn.out.b", hiddenDim)
		if in != hiddenDim {
			l.resW = mat(p+"residual.w", in, hiddenDim)
			l.resB = get(p+"residual.b", hiddenDim)
		}
		l.ffnScale = get(p+"ffn.ln.scale", hiddenDim)
		l.ffnBias = get(p+"ffn.ln.bias", hiddenDim)
		l.w1 = mat(p+"ffn.w1", hiddenDim, ffnDim)
		l.b1 = get(p+"ffn.b1", ffnDim)
		l.w2 = mat(p+"ffn.w2", ffnDim, hiddenDim)
		l.b2 = get(p+"ffn.b2", hiddenDim)
	}
	if bad != nil {
		return nil, bad
	}
	m.timing = timingTable(get("timing.inv", 1, timingDims))
	m.empty = make([]float32, hiddenDim)
	for i, b := range m.headB {
		m.empty[i] = float32(math.Tanh(float64(b)))
	}
	l2normalize(m.empty)
	return m, nil
}

func shapeSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// timingTable computes the timing signal of every position once; the
// position product is float32, as in the graph.
func timingTable(inv []float32) []float32 {
	t := make([]float32, MaxTokens*embedDim)
	for p := range MaxTokens {
		row := t[p*embedDim:][:embedDim]
		for k, f := range inv {
			angle := float64(float32(p) * f)
			row[k] = float32(math.Sin(angle))
			row[timingDims+k] = float32(math.Cos(angle))
		}
	}
	return t
}
