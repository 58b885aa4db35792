package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"toolscope/core/safefile"
)

// CacheFile is the disk cache's name under the cache directory; the
// version starts a fresh file if the record format changes.
const CacheFile = "judgments-v1.jsonl"

// Cache keeps every judgment a model made on disk, keyed like the records
// (the pair's texts, the model, the prompt version), so that a run asks
// only what no run asked before. Lines are appended with one write each,
// and appends and reads hold the directory's lock (core/safefile.Lock, as
// the vector cache's do), so a reader never takes another process's
// append half done for a damaged line; a damaged line (a torn append
// after a crash) is skipped on reading.
type Cache struct {
	path string
	*Records

	mu sync.Mutex
	// Err is the last disk problem; the cache keeps working in memory.
	err error
	// damaged counts the lines skipped as damaged when the file was read.
	damaged int
}

// OpenCache reads the cache under dir ("" keeps it in memory only).
func OpenCache(dir string) *Cache {
	c := &Cache{Records: NewRecords()}
	if dir == "" {
		return c
	}
	c.path = filepath.Join(dir, CacheFile)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		// Nothing cached yet: Store makes the directory.
		return c
	}
	unlock, err := safefile.Lock(c.path)
	if err != nil {
		c.err = fmt.Errorf("judgment cache: %w", err)
		return c
	}
	data, err := readBounded(c.path, false)
	unlock()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.err = fmt.Errorf("judgment cache %w", err)
		return c
	}
	// Damaged lines (a torn append) are skipped, never fatal.
	c.Records.parse(data, func(int, error) error { c.damaged++; return nil })
	return c
}

// Damaged is the number of lines skipped as damaged when the file was read.
func (c *Cache) Damaged() int { return c.damaged }

// Path is the cache file, "" in memory only.
func (c *Cache) Path() string { return c.path }

// Err is the last disk problem met, nil if none.
func (c *Cache) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Store records j in memory and appends it to the file.
func (c *Cache) Store(j Judgment) {
	c.Records.Add(j)
	if c.path == "" {
		return
	}
	line, _ := json.Marshal(j)
	line = append(line, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		c.err = fmt.Errorf("judgment cache: %w", err)
		return
	}
	unlock, err := safefile.Lock(c.path)
	if err != nil {
		c.err = fmt.Errorf("judgment cache: %w", err)
		return
	}
	defer unlock()
	f, err := os.OpenFile(c.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		c.err = fmt.Errorf("judgment cache: %w", err)
		return
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.err = fmt.Errorf("judgment cache: append to %s: %w", c.path, err)
	}
}
