package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

// CacheFile is the disk cache's name under the cache directory; the
// version starts a fresh file if the record format changes (v2: each line
// names the endpoint that answered).
const CacheFile = "judgments-v2.jsonl"

// Cache keeps every judgment a model made on disk, keyed like the records
// (the pair's texts, the model, the prompt version), so that a run asks
// only what no run asked before. Lines are appended with one write each,
// and appends and reads hold the directory's lock (core/safefile.Lock, as
// the vector cache's do), so a reader never takes another process's
// append half done for a damaged line; a damaged line (a torn append
// after a crash) is skipped on reading.
type Cache struct {
	path string
	// Records hold every cached judgment, whichever endpoint answered: a
	// replay with no judge named takes any.
	*Records
	// at holds the judgments by key and endpoint: a judge named replays
	// only what its own endpoint answered (one model name on two servers
	// may be two models).
	at map[string]Judgment
	// reviewAt holds the tools' reviews by key and endpoint, as at does
	// the judgments.
	reviewAt map[string]Review

	mu sync.Mutex
	// Err is the last disk problem; the cache keeps working in memory.
	err error
	// damaged counts the lines skipped as damaged when the file was read.
	damaged int
}

// OpenCache reads the cache under dir ("" keeps it in memory only).
func OpenCache(dir string) *Cache {
	c := &Cache{Records: NewRecords(), at: map[string]Judgment{}, reviewAt: map[string]Review{}}
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
	c.parse(data)
	return c
}

// cacheLine is one line of the cache file: a judgment and the endpoint
// that made it.
type cacheLine struct {
	Endpoint string `json:"endpoint"`
	Judgment
}

// parse adds the cache file's lines, counting the damaged ones.
func (c *Cache) parse(data []byte) {
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if len(line) > maxLineBytes {
			c.damaged++
			continue
		}
		if isReviewLine(line) {
			if err := c.parseReview(line); err != nil {
				c.damaged++
			}
			continue
		}
		var cl cacheLine
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cl); err != nil || dec.More() || cl.Endpoint == "" || checkKeys(line) != nil {
			c.damaged++
			continue
		}
		j, err := checkRecord(cl.Judgment)
		if err != nil {
			c.damaged++
			continue
		}
		c.add(j, cl.Endpoint)
	}
}

// add holds j as endpoint's.
func (c *Cache) add(j Judgment, endpoint string) {
	c.Records.Add(j)
	c.mu.Lock()
	defer c.mu.Unlock()
	if j.B < j.A {
		// As Records.Add orders it.
		j.A, j.B = j.B, j.A
		if j.Fix != nil {
			f := Fix{A: j.Fix.B, B: j.Fix.A}
			j.Fix = &f
		}
	}
	c.at[j.Key()+"\x00"+endpoint] = j
}

// Lookup finds the judgment of exactly this pair's texts by this judge,
// prompt version and endpoint.
func (c *Cache) Lookup(p Pair, by, prompt, endpoint string) (Judgment, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	j, ok := c.at[key(p.Names(), p.TextHash(), by, prompt)+"\x00"+endpoint]
	return j, ok
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

// Store records j, answered by endpoint, in memory and appends it to the
// file.
func (c *Cache) Store(j Judgment, endpoint string) {
	c.add(j, endpoint)
	if c.path == "" {
		return
	}
	line, _ := json.Marshal(cacheLine{Endpoint: endpoint, Judgment: j})
	c.appendLine(line)
}

// appendLine appends one record, escaped, to the file under its lock;
// a failure is kept in Err and the cache goes on in memory.
func (c *Cache) appendLine(line []byte) {
	line = append(termsafe.EscapeJSON(line), '\n')
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
