package use

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/internal/measure"
)

// textOfTokens returns a text of exactly n tokens, made of distinct words.
func textOfTokens(tb testing.TB, tok *tokenizer, n int) string {
	tb.Helper()
	words := strings.Fields("list the volumes in a storage pool with their size state and owner then report each one")
	var b []string
	for i := 0; len(tok.encode(strings.Join(b, " "))) < n; i++ {
		b = append(b, words[i%len(words)])
	}
	text := strings.Join(b, " ")
	if got := len(tok.encode(text)); got != n {
		tb.Fatalf("built a text of %d tokens, want %d", got, n)
	}
	return text
}

// BenchmarkEmbed reports texts per second at 10, 20 and 60 tokens a text,
// in batches of 256 texts.
func BenchmarkEmbed(b *testing.B) {
	e := New()
	if err := e.Load(); err != nil {
		b.Fatal(err)
	}
	tok := testTokenizer(b)
	for _, n := range []int{10, 20, 60} {
		texts := make([]string, 256)
		for i := range texts {
			texts[i] = textOfTokens(b, tok, n)
		}
		b.Run(fmt.Sprintf("tokens=%d", n), func(b *testing.B) {
			cpu := measure.CPUTime()
			for b.Loop() {
				if _, err := e.Embed(context.Background(), texts); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, b.N*len(texts), measure.CPUTime()-cpu, "texts")
		})
	}
}

// reportRate reports work per wall second and, where the platform tells,
// per CPU second (per core fully used).
func reportRate(b *testing.B, work int, cpu time.Duration, unit string) {
	b.ReportMetric(float64(work)/b.Elapsed().Seconds(), unit+"/s")
	if cpu > 0 {
		b.ReportMetric(float64(work)/cpu.Seconds(), unit+"/cpu-s")
	}
}

// BenchmarkCatalogCold embeds the first 1,000 tools of a real catalog as
// the lint would with an empty cache: name and description, one text each.
func BenchmarkCatalogCold(b *testing.B) {
	cat, err := catalog.Load("../../../shared/catalogs/mcp/lark-mcp-all-tools.json", nil)
	if err != nil {
		b.Skipf("the shared catalogs are not beside the repository: %v", err)
	}
	if len(cat.Tools) < 1000 {
		b.Fatalf("catalog has %d tools", len(cat.Tools))
	}
	texts := make([]string, 1000)
	tokens := 0
	tok := testTokenizer(b)
	for i, t := range cat.Tools[:1000] {
		texts[i] = t.Name + ": " + t.Description
		tokens += min(len(tok.encode(texts[i])), MaxTokens)
	}
	b.Logf("1,000 texts, %d tokens after the 128-token cut", tokens)
	e := New()
	if err := e.Load(); err != nil {
		b.Fatal(err)
	}
	cpu := measure.CPUTime()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b, b.N*len(texts), measure.CPUTime()-cpu, "texts")
}

// BenchmarkLoad decodes the embedded model: the float16 weights widened to
// float32 and packed for the kernel, the timing table and the tokenizer.
func BenchmarkLoad(b *testing.B) {
	cpu := measure.CPUTime()
	for b.Loop() {
		if _, err := loadModel(); err != nil {
			b.Fatal(err)
		}
	}
	if spent := measure.CPUTime() - cpu; spent > 0 {
		b.ReportMetric(float64(spent.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
