package cache

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestCountsPersistAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	texts := []string{"alpha", "beta", "", "gamma"}
	first := NewCounts(Options{Dir: dir})
	if got := first.LookupCounts("tokens o200k", texts); !slices.Equal(got, []int{-1, -1, -1, -1}) {
		t.Fatalf("an empty store answered %v", got)
	}
	first.KeepCounts("tokens o200k", texts[:3], []int{3, 0, 7})

	second := NewCounts(Options{Dir: dir})
	if got, want := second.LookupCounts("tokens o200k", texts), []int{3, 0, 7, -1}; !slices.Equal(got, want) {
		t.Errorf("a later run read %v, want %v", got, want)
	}
	if got := second.LookupCounts("tokens cl100k", texts[:1]); got[0] != -1 {
		t.Errorf("another identity read %d", got[0])
	}
	st := second.Stats("tokens o200k")
	if st.Hits != 3 || st.Misses != 1 || st.DiskErr != nil || filepath.Dir(st.Path) != dir {
		t.Errorf("stats %+v", st)
	}
	// The counts have their own bucket, apart from the vectors'.
	if n := len(storeRecords(t, dir, idCounts)); n != 3 {
		t.Errorf("%d counts stored, want 3", n)
	}
	if n := len(storeRecords(t, dir, idVectors)); n != 0 {
		t.Errorf("counts written as vectors: %d", n)
	}
}

func TestCountsOutOfRangeAreNotKept(t *testing.T) {
	dir := t.TempDir()
	c := NewCounts(Options{Dir: dir})
	c.KeepCounts("id", []string{"neg", "huge", "edge"}, []int{-5, maxCount + 1, maxCount})
	got := NewCounts(Options{Dir: dir}).LookupCounts("id", []string{"neg", "huge", "edge"})
	if want := []int{-1, -1, maxCount}; !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
}

func TestCountsDisabledAndNil(t *testing.T) {
	c := NewCounts(Options{Disabled: true})
	if c != nil {
		t.Fatal("a disabled store is not nil")
	}
	c.KeepCounts("id", []string{"a"}, []int{1})
	if got := c.LookupCounts("id", []string{"a", "b"}); !slices.Equal(got, []int{-1, -1}) {
		t.Errorf("a nil store answered %v", got)
	}
	if st := c.Stats("id"); st != (Stats{}) {
		t.Errorf("stats %+v", st)
	}
}

func TestCountsSurviveDamage(t *testing.T) {
	dir := t.TempDir()
	NewCounts(Options{Dir: dir}).KeepCounts("id", []string{"a", "b"}, []int{1, 2})
	path := filepath.Join(dir, StoreName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)/3], 0o600); err != nil {
		t.Fatal(err)
	}
	c := NewCounts(Options{Dir: dir})
	if got, want := c.LookupCounts("id", []string{"a", "b"}), []int{-1, -1}; !slices.Equal(got, want) {
		t.Errorf("read %v from a damaged store, want %v", got, want)
	}
	c.KeepCounts("id", []string{"a", "b"}, []int{1, 2})
	if got, want := NewCounts(Options{Dir: dir}).LookupCounts("id", []string{"a", "b"}), []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("read %v after the store was started afresh, want %v", got, want)
	}
}

func TestCountsUnwritableDirWorkInMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := NewCounts(Options{Dir: dir}) // a file where the directory should be
	c.KeepCounts("id", []string{"a"}, []int{4})
	if got := c.LookupCounts("id", []string{"a"}); got[0] != 4 {
		t.Errorf("read %d from memory, want 4", got[0])
	}
	if st := c.Stats("id"); st.DiskErr == nil {
		t.Error("no disk error reported")
	}
}

func TestCountsConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			c := NewCounts(Options{Dir: dir})
			for i := range 20 {
				text := string(rune('a'+w)) + string(rune('a'+i))
				c.KeepCounts("id", []string{text}, []int{w*100 + i})
				c.LookupCounts("id", []string{text})
			}
		})
	}
	wg.Wait()
	c := NewCounts(Options{Dir: dir})
	for w := range 4 {
		for i := range 20 {
			text := string(rune('a'+w)) + string(rune('a'+i))
			if got := c.LookupCounts("id", []string{text}); got[0] != w*100+i {
				t.Fatalf("%q: %d, want %d", text, got[0], w*100+i)
			}
		}
	}
}
