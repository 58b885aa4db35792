package lint

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/embed"
)

// Benchmarks for SPEC §8's budgets: rules and similarity over 1,000, 5,000
// and 10,000 tools with the mock embedder, in both scorings, report-only
// (as the reference's figures were taken) and gating. Catalogs are made
// from the real ones in ../shared/catalogs, or from the copies in testdata
// when shared is absent; later copies of a name are renamed so every tool
// takes part.

var benchSizes = []int{1000, 5000, 10000}

var (
	benchToolsOnce sync.Once
	benchTools     []*catalog.Tool
)

// realTools loads every tool of the real catalogs once.
func realTools(tb testing.TB) []*catalog.Tool {
	benchToolsOnce.Do(func() {
		files, _ := filepath.Glob("../../../shared/catalogs/*/*.json")
		if len(files) == 0 {
			tb.Log("../shared/catalogs is absent: synthesising from testdata/catalogs")
			files, _ = filepath.Glob("testdata/catalogs/*.json")
		}
		for _, f := range files {
			cat, err := catalog.Load(f, nil)
			if err != nil {
				tb.Fatalf("%s: %v", f, err)
			}
			benchTools = append(benchTools, cat.Tools...)
		}
	})
	return benchTools
}

// synthCatalog is n real tools, cycling through them with renamed copies.
func synthCatalog(tb testing.TB, n int) *catalog.Catalog {
	src := realTools(tb)
	cat := &catalog.Catalog{Source: fmt.Sprintf("synthetic-%d", n)}
	seen := map[string]bool{}
	for i := range n {
		t := *src[i%len(src)]
		t.Index = i
		name := t.Name
		for k := 2; seen[name]; k++ {
			name = fmt.Sprintf("%s_v%d", t.Name, k)
		}
		seen[name] = true
		t.Name = name
		cat.Tools = append(cat.Tools, &t)
	}
	return cat
}

// cpuTime is the CPU time this process has used, user and system: on a
// shared machine it says what the work cost when wall time cannot.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeap samples the live heap while f runs and returns its peak above
// the heap before f.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	peak = max(peak, read())
	if peak < base {
		return 0
	}
	return peak - base
}

func BenchmarkAnalyze(b *testing.B) {
	for _, n := range benchSizes {
		cat := synthCatalog(b, n)
		for _, scoring := range []Scoring{ScoringRisk, ScoringCosine, ScoringAdaptive} {
			for _, mode := range []string{"report-only", "gate"} {
				b.Run(fmt.Sprintf("tools=%d/%s/%s", n, scoring, mode), func(b *testing.B) {
					opts := DefaultOptions()
					opts.Embedder = embed.Mock{}
					opts.Scoring = scoring
					opts.Neighbours = 0 // as the command line runs it: a report lists none
					if mode == "report-only" {
						inf := math.Inf(1)
						opts.Threshold = &inf
					}
					b.ReportAllocs()
					var peak uint64
					var r *Report
					cpu := cpuTime()
					for b.Loop() {
						peak = max(peak, peakHeap(func() {
							var err error
							if r, err = Analyze(context.Background(), cat, opts); err != nil {
								b.Fatal(err)
							}
						}))
					}
					b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
					b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
					b.ReportMetric(float64(r.Summary.Confusable+r.Summary.Watch), "verdicts")
				})
			}
		}
	}
}

func BenchmarkStructural(b *testing.B) {
	for _, n := range benchSizes {
		cat := synthCatalog(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			opts := DefaultOptions()
			b.ReportAllocs()
			for b.Loop() {
				Structural(cat, opts)
			}
		})
	}
}

// BenchmarkWhatIf is one keystroke of the explorer's what-if field: the
// edited tool scored against every other, mock embedder.
func BenchmarkWhatIf(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		cat := synthCatalog(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			opts := DefaultOptions()
			opts.Embedder = embed.Mock{}
			scores, err := Score(context.Background(), cat, opts)
			if err != nil {
				b.Fatal(err)
			}
			description := cat.Tools[0].Description + " Use it only when the id is known."
			b.ReportAllocs()
			for b.Loop() {
				if _, err := scores.WhatIfExplained(context.Background(), embed.Mock{}, cat.Tools[0].Index, description); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
