package embed

import (
	"context"
	"unicode/utf16"
)

// MockDimensions is the length of the mock embedder's vectors.
const MockDimensions = 32

// Mock is the reference implementation's character-frequency embedder: each
// UTF-16 code unit of a text adds 1 at index code%32. It needs no model and
// is exactly reproducible, which is what the parity tests and the demo need;
// it knows nothing about meaning, so its verdicts are not to be trusted.
type Mock struct{}

// ID names the embedder in reports.
func (Mock) ID() string { return "mock" }

// Dimensions is MockDimensions.
func (Mock) Dimensions() int { return MockDimensions }

// Embed counts each text's UTF-16 code units by code%32.
func (Mock) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*MockDimensions)
	for i, text := range texts {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		v := flat[i*MockDimensions : (i+1)*MockDimensions : (i+1)*MockDimensions]
		for _, r := range text {
			if r >= 0x10000 {
				hi, lo := utf16.EncodeRune(r)
				v[hi%MockDimensions]++
				v[lo%MockDimensions]++
				continue
			}
			v[r%MockDimensions]++
		}
		out[i] = v
	}
	return out, nil
}

// Calibration is the reference's for the cosine scoring (threshold 0.94,
// watch band 0.02); the mock has none for the adaptive scoring.
func (Mock) Calibration(scoring string) (Calibration, bool) {
	if scoring == "cosine" {
		return Calibration{Threshold: 0.94, WatchBand: 0.02}, true
	}
	return Calibration{}, false
}

// Note warns that the mock's absolute verdicts mean little.
func (Mock) Note() string {
	return "the mock embedder counts characters, it does not read meaning: trust the relative order of pairs, not its verdicts"
}

// Noter is implemented by embedders that carry a caveat for every report
// made with them.
type Noter interface {
	Note() string
}
