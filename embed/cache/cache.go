// Package cache keeps the vectors an embedder produced, in memory and on
// disk, keyed by the embedder's identity and a hash of the text, so a re-lint
// pays only for the descriptions that changed.
//
// The disk side is one append-only file of checksummed records per embedder
// identity (see file.go). A damaged or truncated file is never fatal: what is
// intact is used, the rest is embedded again, and the file is rewritten
// clean. Any disk trouble leaves the cache working in memory.
package cache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"toolscope/core/safefile"
	"toolscope/embed"
)

// EnvDir is the environment variable that moves the cache directory.
const EnvDir = "TOOLSCOPE_CACHE_DIR"

// DefaultMaxFileBytes bounds one cache file: a file found larger than this
// is started afresh (a cache that only grows must stop somewhere).
const DefaultMaxFileBytes = 256 << 20

// Options configure Wrap.
type Options struct {
	// Dir holds the cache files; "" means DefaultDir().
	Dir string
	// Disabled turns the cache off (--no-cache): Wrap returns the embedder
	// unchanged.
	Disabled bool
	// MaxFileBytes overrides DefaultMaxFileBytes when positive.
	MaxFileBytes int64
}

// Identifier is implemented by embedders whose vectors depend on more than
// their ID (a remote endpoint's address, a requested vector length): the
// cache keys on CacheID instead of ID, so those never share entries.
type Identifier interface {
	CacheID() string
}

// DefaultDir is $TOOLSCOPE_CACHE_DIR, else toolscope/ under the user cache
// directory (~/.cache/toolscope on Linux).
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("vector cache: no user cache directory (set %s): %w", EnvDir, err)
	}
	return filepath.Join(base, "toolscope"), nil
}

// Stats says how a cache has served so far.
type Stats struct {
	// Hits counts texts answered from the cache, Misses texts handed to the
	// embedder (each distinct text once per call).
	Hits, Misses int
	// Path is the cache file, "" when the cache lives in memory only.
	Path string
	// DiskErr is the last disk problem met; the cache keeps working in
	// memory meanwhile.
	DiskErr error
}

// Cache is an embed.Embedder that answers from its cache and hands only the
// misses to the embedder it wraps. It is safe for concurrent use.
type Cache struct {
	inner    embed.Embedder
	identity string
	path     string
	maxBytes int64

	mu     sync.Mutex
	loaded bool
	mem    map[key][]float32
	// dims is the vector length served so far, for an embedder that does not
	// know its own until it has answered once.
	dims  int
	stats Stats
}

// Wrap puts a cache in front of e. It reads nothing until the first Embed.
func Wrap(e embed.Embedder, opts Options) embed.Embedder {
	if opts.Disabled {
		return e
	}
	c := &Cache{inner: e, identity: e.ID(), maxBytes: opts.MaxFileBytes, mem: map[key][]float32{}}
	if id, ok := e.(Identifier); ok {
		c.identity = id.CacheID()
	}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxFileBytes
	}
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			c.stats.DiskErr = err
			return c
		}
	}
	c.path = filepath.Join(dir, fileName(c.identity))
	c.stats.Path = c.path
	return c
}

// ID is the wrapped embedder's.
func (c *Cache) ID() string { return c.inner.ID() }

// Calibration is the wrapped embedder's.
func (c *Cache) Calibration(scoring string) (embed.Calibration, bool) {
	return c.inner.Calibration(scoring)
}

// Dimensions is the wrapped embedder's, or, while it does not know yet, the
// length of the vectors served from the cache.
func (c *Cache) Dimensions() int {
	if d := c.inner.Dimensions(); d > 0 {
		return d
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dims
}

// Unwrap returns the wrapped embedder (to reach what only it offers).
func (c *Cache) Unwrap() embed.Embedder { return c.inner }

// Stats reports hits, misses and disk trouble so far.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Embed answers what it can from the cache and embeds the rest in one call
// to the wrapped embedder, each distinct text once. The vectors returned are
// the caller's to keep and change.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	keys := make([]key, len(texts))
	for i, t := range texts {
		keys[i] = keyOf(c.identity, t)
	}

	c.mu.Lock()
	c.load()
	found := make([][]float32, len(texts))
	var missTexts []string
	var missKeys []key
	pending := map[key]bool{}
	for i, k := range keys {
		if v, ok := c.mem[k]; ok && c.fits(len(v)) {
			found[i] = v
			c.stats.Hits++
			continue
		}
		if !pending[k] {
			pending[k] = true
			missTexts = append(missTexts, texts[i])
			missKeys = append(missKeys, k)
		}
	}
	c.stats.Misses += len(missTexts)
	c.mu.Unlock()

	if len(missTexts) > 0 {
		vecs, err := c.inner.Embed(ctx, missTexts)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(missTexts) {
			return nil, fmt.Errorf("%s: %d vectors for %d texts", c.inner.ID(), len(vecs), len(missTexts))
		}
		c.store(missKeys, vecs)
		fresh := make(map[key][]float32, len(missKeys))
		for i, k := range missKeys {
			fresh[k] = vecs[i]
		}
		for i, k := range keys {
			if found[i] == nil {
				found[i] = fresh[k]
			}
		}
	}
	return copyAll(found), nil
}

// fits says whether a cached vector of length n may be served now. Called
// with mu held.
func (c *Cache) fits(n int) bool {
	want := c.inner.Dimensions()
	if want <= 0 {
		want = c.dims
	}
	if want <= 0 {
		c.dims = n
		return true
	}
	return n == want
}

// store keeps fresh vectors in memory and appends them to the file in one
// write.
func (c *Cache) store(keys []key, vecs [][]float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var buf []byte
	for i, k := range keys {
		v := append([]float32(nil), vecs[i]...)
		c.mem[k] = v
		if c.dims == 0 {
			c.dims = len(v)
		}
		if len(v) >= 1 && len(v) <= MaxDims {
			buf = appendRecord(buf, k, v)
		}
	}
	if c.path == "" || len(buf) == 0 {
		return
	}
	if err := appendFile(c.path, buf); err != nil {
		c.stats.DiskErr = err
	}
}

// load reads the cache file once. A damaged file has its intact records
// kept and is rewritten clean; an oversized one is started afresh. Called
// with mu held.
func (c *Cache) load() {
	if c.loaded || c.path == "" {
		return
	}
	c.loaded = true
	info, err := os.Stat(c.path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		c.stats.DiskErr = fmt.Errorf("vector cache %s: %w", c.path, err)
		return
	}
	// Appends and rewrites hold the directory's lock, so this read never
	// sees another process's append half done (which would read as damage
	// and be rewritten away) and no append lands in a file being replaced.
	unlock, err := safefile.Lock(c.path)
	if err != nil {
		c.stats.DiskErr = fmt.Errorf("vector cache: %w", err)
		return
	}
	defer unlock()
	if info.Size() > c.maxBytes {
		if err := replaceFile(c.path, nil); err != nil {
			c.stats.DiskErr = err
		}
		return
	}
	data, err := os.ReadFile(c.path)
	if err != nil {
		c.stats.DiskErr = fmt.Errorf("vector cache %s: %w", c.path, err)
		return
	}
	damaged := decode(data, func(k key, vec []float32) { c.mem[k] = vec })
	if !damaged {
		return
	}
	var clean []byte
	for k, v := range c.mem {
		clean = appendRecord(clean, k, v)
	}
	if err := replaceFile(c.path, clean); err != nil {
		c.stats.DiskErr = err
	}
}

// appendFile adds data at the end of path with a single write, creating the
// file and its directory as needed.
func appendFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	unlock, err := safefile.Lock(path)
	if err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	defer unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("vector cache: append to %s: %w", path, err)
	}
	return nil
}

// replaceFile swaps in new contents atomically (a temporary file renamed
// over the old one), so a reader sees the old file or the new, never half.
// Callers hold the directory's lock, so no append is lost to the swap.
func replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".rewrite-*")
	if err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("vector cache: rewrite %s: %w", path, err)
	}
	return nil
}

// copyAll returns the vectors in one fresh block, so callers may change
// them without touching the cache.
func copyAll(vecs [][]float32) [][]float32 {
	n := 0
	for _, v := range vecs {
		n += len(v)
	}
	block := make([]float32, n)
	out := make([][]float32, len(vecs))
	for i, v := range vecs {
		out[i] = block[:len(v):len(v)]
		copy(out[i], v)
		block = block[len(v):]
	}
	return out
}
