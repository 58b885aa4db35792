package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"toolscope/internal/realcat"
)

// processCost is one finished run's wall time, CPU time and peak memory.
type processCost struct {
	wall, cpu time.Duration
	rssKB     int64
}

// timeRun runs cmd to its end and returns what it cost; a run that exits
// over 1 (1 is a failed gate) fails.
func timeRun(b *testing.B, cmd *exec.Cmd) processCost {
	b.Helper()
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 1 {
		b.Fatalf("%v: exit %d: %v\n%s", cmd.Args, code, err, out)
	}
	u := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return processCost{wall, time.Duration(u.Utime.Nano() + u.Stime.Nano()), u.Maxrss}
}

// reportRatios reports the medians of a/b, pair by pair (each pair run
// back to back, so a machine whose speed drifts moves both).
func reportRatios(b *testing.B, a, c []processCost, prefix string) {
	med := func(f func(processCost) float64) float64 {
		r := make([]float64, len(a))
		for k := range a {
			r[k] = f(a[k]) / f(c[k])
		}
		slices.Sort(r)
		return r[len(r)/2]
	}
	b.ReportMetric(med(func(p processCost) float64 { return p.wall.Seconds() }), prefix+"wall-ratio")
	b.ReportMetric(med(func(p processCost) float64 { return p.cpu.Seconds() }), prefix+"cpu-ratio")
	b.ReportMetric(med(func(p processCost) float64 { return float64(p.rssKB) }), prefix+"rss-ratio")
}

// BenchmarkSharedCache measures what a cache shared with other catalogs
// costs a warm run: `lint --format json` of 1,000 real tools (the
// built-in encoder) with a cache that also holds the entries of 10,000
// other tools (every other tool of ../shared/catalogs, then copies of
// them with their names and descriptions changed), against the same run
// with a cache of its own. Runs alternate; it reports the medians of
// shared/own for wall time, CPU time and peak memory (the budget: 1.3 at
// most). Filling the shared cache embeds 10,000 descriptions once, a few
// minutes. Skipped when ../shared is absent.
func BenchmarkSharedCache(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(sharedCatalogs, "*", "*.json"))
	if len(files) == 0 {
		b.Skipf("the shared catalogs are not beside the repository (%s)", sharedCatalogs)
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "toolscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	own, others := sharedCacheCatalogs(b, files, dir)
	ownCache, sharedCache := filepath.Join(dir, "own"), filepath.Join(dir, "shared")
	run := func(cache, catalog string) *exec.Cmd {
		cmd := exec.Command(bin, "lint", "--no-config", "--format", "json="+filepath.Join(dir, "report.json"), catalog)
		cmd.Env = append(os.Environ(), "TOOLSCOPE_CACHE_DIR="+cache, "NO_COLOR=1")
		return cmd
	}
	timeRun(b, run(sharedCache, others))
	timeRun(b, run(sharedCache, own))
	timeRun(b, run(ownCache, own))
	var shared, alone []processCost
	for b.Loop() {
		shared = append(shared, timeRun(b, run(sharedCache, own)))
		alone = append(alone, timeRun(b, run(ownCache, own)))
	}
	reportRatios(b, shared, alone, "shared/own-")
}

// sharedCacheCatalogs writes the 1,000 tools of a run and 10,000 others.
func sharedCacheCatalogs(b *testing.B, files []string, dir string) (own, others string) {
	b.Helper()
	var cats [][]realcat.Tool
	for _, f := range files {
		tools, err := realcat.Read(f)
		if err != nil {
			b.Fatal(err)
		}
		cats = append(cats, tools)
	}
	names := map[string]bool{}
	for _, c := range cats {
		for _, t := range c {
			names[t.Name] = true
		}
	}
	all, err := realcat.Merge(cats, len(names))
	if err != nil {
		b.Fatal(err)
	}
	if len(all) < 2000 {
		b.Skipf("the shared catalogs hold %d distinct tools, too few", len(all))
	}
	write := func(name string, tools []realcat.Tool) string {
		data, err := json.Marshal(map[string]any{"tools": tools})
		if err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	rest := all[1000:]
	var more []realcat.Tool
	for k := 0; len(more) < 10000; k++ {
		t := rest[k%len(rest)]
		if k >= len(rest) {
			v := k/len(rest) + 1
			t.Name = fmt.Sprintf("%s_v%d", t.Name, v)
			t.Description = strings.TrimSpace(t.Description + fmt.Sprintf(" (variant %d)", v))
		}
		more = append(more, t)
	}
	return write("own.json", all[:1000]), write("others.json", more)
}

// BenchmarkReference measures toolscope side by side with a reference
// linter, each run as a user times it, report only: toolscope with the
// mock embedder, cosine scoring and no threshold, the reference as
// $TOOLSCOPE_REFERENCE_CMD says (a command line in which {catalog} is
// the catalog file, run by sh), on 1,000, 2,000 and 5,000 real tools of
// distinct names. Runs alternate; it reports the medians of
// reference/toolscope for wall and CPU time, and toolscope/reference for
// peak memory. Skipped when the reference or ../shared is absent.
func BenchmarkReference(b *testing.B) {
	ref := os.Getenv("TOOLSCOPE_REFERENCE_CMD")
	if ref == "" {
		b.Skip("no reference: set TOOLSCOPE_REFERENCE_CMD to its command line, {catalog} for the catalog")
	}
	files, _ := filepath.Glob(filepath.Join(sharedCatalogs, "*", "*.json"))
	if len(files) == 0 {
		b.Skipf("the shared catalogs are not beside the repository (%s)", sharedCatalogs)
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "toolscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, n := range []int{1000, 2000, 5000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			data, err := realcat.MergeFiles(files, n)
			if err != nil {
				b.Fatal(err)
			}
			catalog := filepath.Join(dir, fmt.Sprintf("merged-%d.json", n))
			if err := os.WriteFile(catalog, data, 0o644); err != nil {
				b.Fatal(err)
			}
			cache := b.TempDir()
			ours := func() *exec.Cmd {
				cmd := exec.Command(bin, "lint", "--no-config", "--embedder", "mock", "--scoring", "cosine", "--threshold", "off",
					"--format", "json="+filepath.Join(cache, "report.json"), catalog)
				cmd.Env = append(os.Environ(), "TOOLSCOPE_CACHE_DIR="+cache, "NO_COLOR=1")
				return cmd
			}
			theirs := func() *exec.Cmd {
				return exec.Command("sh", "-c", strings.ReplaceAll(ref, "{catalog}", catalog))
			}
			timeRun(b, ours())
			timeRun(b, theirs())
			var a, r []processCost
			for b.Loop() {
				r = append(r, timeRun(b, theirs()))
				a = append(a, timeRun(b, ours()))
			}
			med := func(x, y []processCost, f func(processCost) float64) float64 {
				q := make([]float64, len(x))
				for k := range x {
					q[k] = f(x[k]) / f(y[k])
				}
				slices.Sort(q)
				return q[len(q)/2]
			}
			b.ReportMetric(med(r, a, func(p processCost) float64 { return p.wall.Seconds() }), "ref/ours-wall")
			b.ReportMetric(med(r, a, func(p processCost) float64 { return p.cpu.Seconds() }), "ref/ours-cpu")
			b.ReportMetric(med(a, r, func(p processCost) float64 { return float64(p.rssKB) }), "ours/ref-rss")
		})
	}
}
