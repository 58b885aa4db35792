//go:build linux

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"toolscope/internal/realcat"
)

// BenchmarkProcess times the built binary as a user runs it in CI: `go
// build`, then `toolscope lint --format json CATALOG` on real tools, the
// report written to a file. The catalogs merge every catalog of
// ../shared/catalogs, a tool from each in turn, into 1,000, 2,000 and
// 5,000 tools of distinct names (internal/realcat; `go run
// ./internal/cmd/mergecatalogs` writes the same files). Each case reports
// the wall time per run (ns/op), the CPU time of the process (user and
// system, cpu-s/op) and its peak resident memory (maxrss-MB).
//
//	go test -run '^$' -bench Process -benchtime 3x .
//
// "warm" runs read a cache filled by a run before (vectors and token
// counts), "cold" ones (--no-cache) read and write none; the mock
// embedder's vectors are never cached, its runs read cached token counts
// unless cold. Skipped when ../shared is absent.
func BenchmarkProcess(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(sharedCatalogs, "*", "*.json"))
	if len(files) == 0 {
		b.Skipf("the shared catalogs are not beside the repository (%s)", sharedCatalogs)
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "toolscope")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	catalogs := map[int]string{}
	for _, n := range []int{1000, 2000, 5000} {
		data, err := realcat.MergeFiles(files, n)
		if err != nil {
			b.Fatal(err)
		}
		catalogs[n] = filepath.Join(dir, fmt.Sprintf("merged-%d.json", n))
		if err := os.WriteFile(catalogs[n], data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	mockCosine := []string{"--embedder", "mock", "--scoring", "cosine", "--threshold", "off"}
	for _, c := range []struct {
		name string
		n    int
		args []string
		cold bool
	}{
		{"default/warm/tools=1000", 1000, nil, false},
		{"default/cold/tools=1000", 1000, nil, true},
		{"default/warm/tools=5000", 5000, nil, false},
		{"mock-gate/warm/tools=5000", 5000, []string{"--embedder", "mock"}, false},
		{"mock-gate/cold/tools=5000", 5000, []string{"--embedder", "mock"}, true},
		{"mock-cosine/warm/tools=1000", 1000, mockCosine, false},
		{"mock-cosine/cold/tools=1000", 1000, mockCosine, true},
		{"mock-cosine/warm/tools=2000", 2000, mockCosine, false},
		{"mock-cosine/cold/tools=2000", 2000, mockCosine, true},
		{"mock-cosine/warm/tools=5000", 5000, mockCosine, false},
		{"mock-cosine/cold/tools=5000", 5000, mockCosine, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			cache := b.TempDir()
			args := append([]string{"lint", "--no-config", "--format", "json=" + filepath.Join(cache, "report.json")}, c.args...)
			if c.cold {
				args = append(args, "--no-cache")
			}
			args = append(args, catalogs[c.n])
			if !c.cold {
				runBinary(b, bin, cache, args) // fills the cache
			}
			var cpu time.Duration
			var rss int64
			for b.Loop() {
				u := runBinary(b, bin, cache, args)
				cpu += time.Duration(u.Utime.Nano() + u.Stime.Nano())
				rss = max(rss, u.Maxrss)
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(rss)/1024, "maxrss-MB")
		})
	}
}

// runBinary runs the binary with the cache directory given and returns its
// resource use; a run that exits over 1 (1 is a failed gate) fails.
func runBinary(b *testing.B, bin, cache string, args []string) *syscall.Rusage {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TOOLSCOPE_CACHE_DIR="+cache, "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 1 {
		b.Fatalf("%s %v: exit %d: %v\n%s", bin, args, code, err, out)
	}
	return cmd.ProcessState.SysUsage().(*syscall.Rusage)
}
