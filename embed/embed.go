// Package embed turns tool texts into vectors for the similarity analysis.
// The Embedder interface is all the lint engine sees; the implementations
// (the built-in sentence encoder, the reference's character-frequency mock,
// an OpenAI-compatible endpoint) and the vector cache live beside it.
package embed

import "context"

// Embedder turns texts into vectors of a fixed length.
type Embedder interface {
	// ID names the embedder in reports and cache keys ("use-lite", "mock",
	// "openai:text-embedding-3-small").
	ID() string
	// Dimensions is the length of every vector Embed returns.
	Dimensions() int
	// Embed returns one vector per text, in order. It honours ctx.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Calibration gives the embedder's own thresholds for a scoring
	// ("cosine" or "adaptive"); ok is false when it has none for it, and the
	// caller must then ask the user for thresholds (and rank anyway).
	Calibration(scoring string) (c Calibration, ok bool)
}

// Calibration is where an embedder's verdicts start: a pair scoring at or
// above Threshold is confusable, one within WatchBand below it is watch.
type Calibration struct {
	Threshold float64 `json:"confusability"`
	WatchBand float64 `json:"watchBand"`
}
