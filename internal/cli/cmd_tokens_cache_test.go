package cli

import (
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"toolscope/embed/cache"
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
	path := filepath.Join(dir, cache.StoreName)
	before := storeTxID(t, path)
	if before < 0 {
		t.Fatal("the first run left no store in the cache directory")
	}
	for _, c := range []struct {
		name   string
		before func()
		args   []string
		// writes says whether the run may write to the store.
		writes bool
	}{
		{"warm", nil, args, false},
		{"damaged store", func() {
			data, _ := os.ReadFile(path)
			os.WriteFile(path, append([]byte("torn"), data[:len(data)/2]...), 0o600)
		}, args, true},
		{"no cache", nil, []string{"lint", "--no-cache", "--embedder", "mock", "--format", "json", demoPath}, false},
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
			after := storeTxID(t, path)
			if !c.writes && before >= 0 && after != before {
				t.Errorf("the run wrote to the store (transaction %d, was %d)", after, before)
			}
			before = after
		})
	}
}

// storeTxID is the last transaction of the cache's store at path, -1 when
// it is no database (damaged, and not read again by this process's meter).
func storeTxID(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		return -1
	}
	defer db.Close()
	tx, err := db.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	return int(tx.ID())
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
