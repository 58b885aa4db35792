package similarity

import (
	"context"
	"fmt"
	"testing"
	"toolscope/core/internal/testcat"
	"toolscope/embed"
)

// BenchmarkWhatIf is one keystroke of the explorer's what-if field: the
// edited tool scored against every other, mock embedder; drafts=1 with
// another tool's draft in too (a pair scored with both drafts).
func BenchmarkWhatIf(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		cat := testcat.Synth(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			opts := DefaultOptions()
			opts.Embedder = embed.Mock{}
			scores, err := Score(context.Background(), cat, opts)
			if err != nil {
				b.Fatal(err)
			}
			description := cat.Tools[0].Description + " Use it only when the id is known."
			// With drafts: the other side of a pair drafted too.
			for _, drafts := range []map[int]string{nil, {cat.Tools[1].Index: cat.Tools[1].Description + " Use it for lists."}} {
				b.Run(fmt.Sprintf("drafts=%d", len(drafts)), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := scores.WhatIfExplained(context.Background(), embed.Mock{}, cat.Tools[0].Index, description, drafts); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
