package judge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"toolscope/core/safefile"
)

// Several caches on one directory (separate runs) append large records
// while another keeps opening it: no reader ever meets a damaged line,
// and every record is in the file at the end.
func TestCacheConcurrentWritersAndReaders(t *testing.T) {
	dir := t.TempDir()
	const writers, each = 4, 12
	// A record of several pages, so an append is not one page copy.
	reason := strings.Repeat("both search logs; ", 16<<10)
	var wg sync.WaitGroup
	done := make(chan struct{})
	var reads, damaged atomic.Int32
	go func() {
		defer close(done)
		for {
			c := OpenCache(dir)
			reads.Add(1)
			if c.Err() != nil {
				t.Error(c.Err())
				return
			}
			if c.Damaged() > 0 {
				damaged.Add(1)
			}
			if c.Len() == writers*each {
				return
			}
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := OpenCache(dir)
			for i := range each {
				c.Store(Judgment{A: fmt.Sprintf("tool_%d", w), B: fmt.Sprintf("other_%d", i), Label: i % 4,
					Reason: reason, By: PersonBy, Texts: fmt.Sprintf("sha256:%d-%d", w, i)}, "http://127.0.0.1:1/v1/chat/completions")
			}
			if c.Err() != nil {
				t.Error(c.Err())
			}
		}()
	}
	wg.Wait()
	<-done
	if n := damaged.Load(); n > 0 {
		t.Errorf("%d of %d reads met a damaged line while the writers appended", n, reads.Load())
	}
	final := OpenCache(dir)
	if final.Len() != writers*each || final.Damaged() != 0 {
		t.Errorf("the file holds %d records (want %d), %d damaged", final.Len(), writers*each, final.Damaged())
	}
}

// A run opening the cache while another run's append is half written
// waits for the append to end: it reads the whole record, not a damaged
// line. The half record is written here under the directory's lock, as
// Store holds it.
func TestCacheReadWaitsForAnAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, CacheFile)
	line, _ := json.Marshal(cacheLine{Endpoint: "http://127.0.0.1:1/v1/chat/completions", Judgment: Judgment{A: "a", B: "b", Label: 0, Reason: "told apart", By: PersonBy, Texts: "sha256:1"}})
	line = append(line, '\n')
	unlock, err := safefile.Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, line[:len(line)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	read := make(chan *Cache)
	go func() { read <- OpenCache(dir) }()
	// A reader that ignored the lock would read the half record now. (No
	// assertion depends on this pause: with the lock the reader waits
	// however long it is.)
	var early *Cache
	select {
	case early = <-read:
	case <-time.After(100 * time.Millisecond):
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(line[len(line)/2:])
	f.Close()
	unlock()
	c := early
	if c == nil {
		c = <-read
	}
	if c.Damaged() != 0 || c.Len() != 1 {
		t.Errorf("the reader met %d damaged lines and %d records (want 0 and 1): it read an append half done", c.Damaged(), c.Len())
	}
}
