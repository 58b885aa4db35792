// Package use is toolscope's built-in sentence encoder: Universal Sentence
// Encoder lite (a 2-layer transformer over an 8,000-piece SentencePiece
// vocabulary, 512-d unit vectors), run in pure Go from weights embedded in
// the binary. Its tokenizer and forward pass reproduce the model's own
// JavaScript runtime (@energetic-ai/embeddings@0.2.0); the numbers behind
// every step are in models/use-lite.md.
//
// The model loads on first use (or in the background with Load), so a
// program that never embeds pays nothing for it.
package use

//go:generate go run ./internal/convert -out model

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"toolscope/embed"
)

const (
	// ID names the encoder in reports and cache keys.
	ID = "use-lite"
	// Dimensions is the length of every vector.
	Dimensions = 512
	// MaxTokens is how many tokens of a text the model reads; the rest is
	// cut off, as the original graph does.
	MaxTokens = 128
	// batchTokens is how many tokens one forward pass stacks: enough rows
	// for the GEMMs to run at full speed on both cores, few enough that a
	// batch's activations stay under 30 MB and cancellation stays prompt.
	batchTokens = 1024
	// maxTextBytes bounds what is tokenized of one text. The tokenizer's
	// lattice takes about 70 bytes a code point, and a catalog may hold a
	// 50 MB description; the 128 tokens the model reads cover at most
	// 2,048 code points, and their segmentation would have to hinge on
	// text 30,000 characters further on for the cut to change them.
	maxTextBytes = 32 << 10
)

// loaded is the model, decoded once per process and shared by every
// Encoder.
var loaded struct {
	once  sync.Once
	model *model
	err   error
}

func load() (*model, error) {
	loaded.once.Do(func() { loaded.model, loaded.err = loadModel() })
	return loaded.model, loaded.err
}

// workspaces keeps activation buffers between Embed calls: a caller
// embedding a catalog 256 texts at a time would otherwise allocate tens of
// megabytes per call.
var workspaces sync.Pool

// Encoder is the built-in embedder. The zero value is ready to use, and it
// is safe for concurrent use (set Progress before sharing it).
type Encoder struct {
	// Progress, when set, is called after each batch with the number of
	// texts embedded so far and the total.
	Progress func(done, total int)
}

var _ embed.Embedder = (*Encoder)(nil)

// New returns an encoder; the model itself loads on first use.
func New() *Encoder { return &Encoder{} }

// ID returns "use-lite".
func (*Encoder) ID() string { return ID }

// Dimensions returns 512.
func (*Encoder) Dimensions() int { return Dimensions }

// Load decodes the embedded model now rather than on the first Embed. It is
// safe to call from a background goroutine at startup, and more than once.
func (*Encoder) Load() error {
	_, err := load()
	return err
}

// Calibration gives where this encoder's verdicts start: for adaptive, the
// SPEC's threshold, which the labelled tool twins bear out; for cosine, the
// seed's default, kept because no threshold fitted to the twins transfers
// to single-server catalogs (docs/calibration.md).
func (*Encoder) Calibration(scoring string) (embed.Calibration, bool) {
	switch scoring {
	case "cosine":
		return embed.Calibration{Threshold: 0.85, WatchBand: 0.05}, true
	case "adaptive":
		return embed.Calibration{Threshold: -0.04, WatchBand: 0.05}, true
	}
	return embed.Calibration{}, false
}

// Embed returns one unit vector per text. Only a text's first MaxTokens
// tokens count. Every empty text gets the vector the model gives a text
// with no tokens, l2norm(tanh(head bias)), wherever it stands in the batch.
// Cancelling ctx stops between batches.
func (e *Encoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m, err := load()
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	var batch [][]int
	var which []int
	ws, _ := workspaces.Get().(*workspace)
	if ws == nil {
		ws = new(workspace)
	}
	defer workspaces.Put(ws)
	tokens := 0
	// flush embeds the pending batch; done counts the texts handled once
	// it has run.
	flush := func(done int) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", ID, err)
		}
		if len(batch) > 0 {
			for i, v := range m.forward(ws, batch) {
				out[which[i]] = v
			}
			batch, which, tokens = batch[:0], which[:0], 0
		}
		if e.Progress != nil {
			e.Progress(done, len(texts))
		}
		return nil
	}
	// Tokenizing runs on every core first; the batches are then cut from
	// the ids in order.
	seqs := make([][]int, len(texts))
	parallel(len(texts), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				return
			}
			ids := m.tok.encode(head(texts[i], maxTextBytes))
			seqs[i] = ids[:min(len(ids), MaxTokens)]
		}
	})
	for i, ids := range seqs {
		if len(ids) == 0 {
			out[i] = slices.Clone(m.empty)
			continue
		}
		batch = append(batch, ids)
		which = append(which, i)
		tokens += len(ids)
		if tokens >= batchTokens && i+1 < len(texts) {
			if err := flush(i + 1); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(len(texts)); err != nil {
		return nil, err
	}
	return out, nil
}

// head returns text cut to at most n bytes, at a code point boundary.
func head(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}
