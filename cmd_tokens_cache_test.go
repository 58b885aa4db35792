package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The JSON report's token counts are kept in the cache directory: a second
// run reads them instead of counting, and writes the same bytes; a damaged
// file or --no-cache changes nothing either.
func TestLintTokenCountsKeptInCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TOOLSCOPE_CACHE_DIR", dir)
	args := []string{"lint", "--embedder", "mock", "--format", "json", demoPath}
	code, first, errOut := runCmd("", args...)
	if code > 1 || first == "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "tokens-*.bin"))
	if len(files) != 1 {
		t.Fatalf("token count files in the cache: %v", files)
	}
	info, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		before func()
		args   []string
	}{
		{"warm", nil, args},
		{"damaged file", func() {
			data, _ := os.ReadFile(files[0])
			os.WriteFile(files[0], append([]byte("torn"), data[:len(data)/2]...), 0o600)
		}, args},
		{"no cache", nil, []string{"lint", "--no-cache", "--embedder", "mock", "--format", "json", demoPath}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.before != nil {
				c.before()
			}
			code, out, errOut := runCmd("", c.args...)
			if code > 1 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if out != first {
				t.Errorf("the report differs from the first run's")
			}
		})
	}
	// A warm run appended nothing: every count was read back.
	if after, err := os.Stat(files[0]); err != nil || after.Size() > info.Size() {
		t.Errorf("the counts file grew from %d bytes (%v)", info.Size(), err)
	}
}

// --no-cache reads and writes no counts.
func TestLintNoCacheWritesNoCounts(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TOOLSCOPE_CACHE_DIR", dir)
	if code, _, errOut := runCmd("", "lint", "--no-cache", "--embedder", "mock", "--format", "json", demoPath); code > 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("--no-cache wrote %v", entries)
	}
}
