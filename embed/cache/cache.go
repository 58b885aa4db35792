// Package cache keeps the vectors an embedder produced, in memory and on
// disk, keyed by the embedder's identity and a hash of the text, so a re-lint
// pays only for the descriptions that changed.
//
// The disk side is one bbolt database per cache directory (store.go), read
// key by key and bounded by a size cap with least-recently-used eviction. A
// damaged entry is a miss and a damaged database is started afresh; any
// disk trouble leaves the cache working in memory. The append-only files
// of the versions before (file.go) are moved into it once.
package cache

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"toolscope/embed"
)

// EnvDir is the environment variable that moves the cache directory.
const EnvDir = "TOOLSCOPE_CACHE_DIR"

// Options configure Wrap.
type Options struct {
	// Dir holds the cache files; "" means DefaultDir().
	Dir string
	// Disabled turns the cache off (--no-cache): Wrap returns the embedder
	// unchanged.
	Disabled bool
	// MaxBytes caps the store's entries when positive; else EnvMaxMB, else
	// DefaultMaxBytes.
	MaxBytes int64
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
	// Path is the store's file, "" when the cache lives in memory only.
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

	// db is the directory's store (nil: memory only), bucket the part of
	// it this cache keeps.
	db     *store
	bucket byte

	mu  sync.Mutex
	mem map[key][]float32
	// asked holds the keys already looked up in the store this process.
	asked map[key]bool
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
	c := &Cache{inner: e, identity: e.ID(), bucket: idVectors, mem: map[key][]float32{}, asked: map[key]bool{}}
	if id, ok := e.(Identifier); ok {
		c.identity = id.CacheID()
	}
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			c.stats.DiskErr = err
			return c
		}
	}
	c.db = newStore(dir, opts.MaxBytes)
	c.stats.Path = c.db.path
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
	c.fetch(keys)
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

// store keeps fresh vectors in memory and writes them to the store in one
// transaction.
func (c *Cache) store(keys []key, vecs [][]float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var wkeys []key
	var wvecs [][]float32
	for i, k := range keys {
		v := append([]float32(nil), vecs[i]...)
		c.mem[k] = v
		if c.dims == 0 {
			c.dims = len(v)
		}
		if len(v) >= 1 && len(v) <= MaxDims {
			wkeys = append(wkeys, k)
			wvecs = append(wvecs, v)
		}
	}
	if c.db == nil || len(wkeys) == 0 {
		return
	}
	if err := c.db.write(c.bucket, wkeys, wvecs); err != nil {
		c.stats.DiskErr = err
	}
}

// fetch fills the memory with the stored entries of keys it does not hold
// yet, reading only those from the store. Called with mu held.
func (c *Cache) fetch(keys []key) {
	if c.db == nil {
		return
	}
	var want []key
	seen := map[key]bool{}
	for _, k := range keys {
		if _, ok := c.mem[k]; !ok && !seen[k] && !c.asked[k] {
			seen[k] = true
			want = append(want, k)
		}
	}
	if len(want) == 0 {
		return
	}
	vecs, err := c.db.lookup(c.bucket, want)
	if err != nil {
		c.stats.DiskErr = err
	}
	for i, k := range want {
		c.asked[k] = true
		if vecs[i] != nil {
			c.mem[k] = vecs[i]
		}
	}
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
