package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/embed"
	"toolscope/internal/measure"
	"toolscope/internal/realcat"
)

// The budgets of the default lint (built-in encoder, risk scoring), run as
// the command runs: a catalog file read, embedded, scored and reported as
// text. Cold runs read and write no vector cache; warm runs read one
// filled beforehand. The catalogs are real: the first 1,000 tools of
// lark-mcp-all-tools, all 2,470 of stabletoolbench-rapidapi, and 5,000 and
// 10,000 tools cycled through every catalog of ../shared/catalogs (later
// copies of a name renamed). They are skipped when ../shared is absent.

const sharedCatalogs = "../shared/catalogs"

// rawTool is a tool in MCP form, as the benchmarks write catalogs.
type rawTool = realcat.Tool

// readRawTools reads a catalog file's tools in MCP form, from an MCP
// tools/list result, an OpenAI list or an Anthropic list.
func readRawTools(tb testing.TB, path string) []rawTool {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("the shared catalogs are not beside the repository: %v", err)
	}
	tools, err := realcat.Parse(path, data)
	if err != nil {
		tb.Fatal(err)
	}
	return tools
}

// budgetCatalog writes n tools to a file in a temporary directory: the
// first n of one catalog (name given), or, for name "", n cycled through
// every shared catalog with later copies renamed.
func budgetCatalog(tb testing.TB, name string, n int) string {
	tb.Helper()
	var src []rawTool
	if name != "" {
		src = readRawTools(tb, filepath.Join(sharedCatalogs, name))
		if len(src) < n {
			tb.Fatalf("%s has %d tools, want %d", name, len(src), n)
		}
	} else {
		files, _ := filepath.Glob(filepath.Join(sharedCatalogs, "*", "*.json"))
		if len(files) == 0 {
			tb.Skipf("the shared catalogs are not beside the repository (%s)", sharedCatalogs)
		}
		for _, f := range files {
			src = append(src, readRawTools(tb, f)...)
		}
	}
	tools := make([]rawTool, n)
	seen := map[string]bool{}
	for i := range tools {
		t := src[i%len(src)]
		base := t.Name
		for k := 2; seen[t.Name]; k++ {
			t.Name = fmt.Sprintf("%s_v%d", base, k)
		}
		seen[t.Name] = true
		tools[i] = t
	}
	data, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("tools-%d.json", n))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// lintOnce runs `toolscope lint ARGS... CATALOG` (the text report) in-process
// and fails unless it exits 0 or 1 (a failed gate is a finished run).
func lintOnce(tb testing.TB, catalog string, args ...string) {
	tb.Helper()
	var errOut syncBuffer
	code := run(append(append([]string{"lint"}, args...), catalog), stdio{in: nil, out: io.Discard, err: &errOut})
	if code > 1 {
		tb.Fatalf("lint exited %d: %s", code, errOut.String())
	}
}

// syncBuffer collects what a run writes to stderr.
type syncBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// benchLint times lint runs of catalog and reports CPU seconds and the
// heap's peak per run.
func benchLint(b *testing.B, catalog string, args ...string) {
	var peak uint64
	cpu := measure.CPUTime()
	for b.Loop() {
		peak = max(peak, measure.PeakHeap(func() { lintOnce(b, catalog, args...) }))
	}
	b.ReportMetric((measure.CPUTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

// BenchmarkBudgetCold is the default lint with an empty cache: budgets
// 4 s for 1,000 real tools and 10 s for 2,470.
func BenchmarkBudgetCold(b *testing.B) {
	for _, c := range []struct {
		name    string
		catalog string
		n       int
	}{
		{"tools=1000", "mcp/lark-mcp-all-tools.json", 1000},
		{"tools=2470", "corpus/stabletoolbench-rapidapi.clean.openai.json", 2470},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchLint(b, budgetCatalog(b, c.catalog, c.n), "--no-cache")
		})
	}
}

// BenchmarkBudgetWarm is the default lint with every vector in the cache:
// budgets 0.3 s for 1,000 tools, 1.5 s for 5,000, 5 s and 400 MB for
// 10,000. Filling the cache first embeds every text once (minutes for
// 10,000 tools), outside the timing.
func BenchmarkBudgetWarm(b *testing.B) {
	for _, c := range []struct {
		name    string
		catalog string
		n       int
		args    []string
	}{
		{"tools=1000", "mcp/lark-mcp-all-tools.json", 1000, nil},
		{"tools=5000", "", 5000, nil},
		{"tools=10000", "", 10000, nil},
		{"tools=10000/json", "", 10000, []string{"--format", "json"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.Setenv("TOOLSCOPE_CACHE_DIR", b.TempDir())
			catalog := budgetCatalog(b, c.catalog, c.n)
			lintOnce(b, catalog) // fills the cache
			benchLint(b, catalog, c.args...)
		})
	}
}

// BenchmarkExplorerReplay is the explorer's replay of recorded judgments
// on 5,000 tools, as it runs on every change of the verdicts (a threshold
// key, a judgment): the questions are found once per catalog and scoring.
func BenchmarkExplorerReplay(b *testing.B) {
	cat, err := catalog.Load(budgetCatalog(b, "", 5000), nil)
	if err != nil {
		b.Fatal(err)
	}
	opts := lint.DefaultOptions()
	opts.Embedder = embed.Mock{}
	opts.Neighbours = judgeNeighbours
	r, err := lint.Analyze(context.Background(), cat, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("TOOLSCOPE_CACHE_DIR", b.TempDir())
	recs := judge.NewRecords()
	recs.Add(judge.PersonAccept(judge.FromCatalog(cat.Tools[0]), judge.FromCatalog(cat.Tools[1]), "told apart"))
	replay := (&judgeFlags{}).replayerOf("judgments.jsonl", recs)
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			(&judgeFlags{}).replayerOf("judgments.jsonl", recs)(r, cat)
		}
	})
	b.Run("again", func(b *testing.B) {
		replay(r, cat)
		for b.Loop() {
			replay(r, cat)
		}
	})
}
