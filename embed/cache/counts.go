package cache

import "sync"

// Counts keeps token counts beside the vectors, keyed like them by a hash
// of the counting's identity (the encoding and the tokenizer's version)
// and the text: in the store's "counts" bucket, each a one-element vector
// holding the count. It is a tokens.Store; a nil *Counts stores nothing.
type Counts struct {
	db      *store
	diskErr error

	mu    sync.Mutex
	files map[string]*Cache
}

// maxCount is the largest count a record holds exactly (a float32 is exact
// up to 2^24); a larger one is counted again each run.
const maxCount = 1 << 24

// NewCounts opens the counts kept in opts.Dir (DefaultDir when ""). It
// returns nil when opts.Disabled. Nothing is read until the first lookup;
// disk trouble leaves it working in memory, as the vector cache does.
func NewCounts(opts Options) *Counts {
	if opts.Disabled {
		return nil
	}
	c := &Counts{files: map[string]*Cache{}}
	dir := opts.Dir
	if dir == "" {
		dir, c.diskErr = DefaultDir()
	}
	if c.diskErr == nil {
		c.db = newStore(dir, opts.MaxBytes)
	}
	return c
}

// file is the store of one identity.
func (c *Counts) file(identity string) *Cache {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.files[identity]
	if f == nil {
		f = &Cache{identity: identity, db: c.db, bucket: idCounts, mem: map[key][]float32{}, asked: map[key]bool{}}
		if c.diskErr != nil {
			f.stats.DiskErr = c.diskErr
		} else {
			f.stats.Path = c.db.path
		}
		c.files[identity] = f
	}
	return f
}

// LookupCounts returns the stored count of each text under identity, -1
// where none is stored.
func (c *Counts) LookupCounts(identity string, texts []string) []int {
	out := make([]int, len(texts))
	if c == nil {
		for i := range out {
			out[i] = -1
		}
		return out
	}
	keys := keysOf(identity, texts)
	f := c.file(identity)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetch(keys)
	for i, k := range keys {
		out[i] = -1
		if v, ok := f.mem[k]; ok && len(v) == 1 && v[0] >= 0 && v[0] <= maxCount && v[0] == float32(int(v[0])) {
			out[i] = int(v[0])
			f.stats.Hits++
		} else {
			f.stats.Misses++
		}
	}
	return out
}

// KeepCounts stores counts of texts under identity, in memory and in one
// append to the file.
func (c *Counts) KeepCounts(identity string, texts []string, counts []int) {
	if c == nil {
		return
	}
	var keep []string
	var vecs [][]float32
	for i, t := range texts {
		if n := counts[i]; n >= 0 && n <= maxCount {
			keep = append(keep, t)
			vecs = append(vecs, []float32{float32(n)})
		}
	}
	if len(keep) == 0 {
		return
	}
	f := c.file(identity)
	f.store(keysOf(identity, keep), vecs)
}

// Stats reports how the counts of identity have been served.
func (c *Counts) Stats(identity string) Stats {
	if c == nil {
		return Stats{}
	}
	return c.file(identity).Stats()
}

// keysOf hashes each text under the identity.
func keysOf(identity string, texts []string) []key {
	keys := make([]key, len(texts))
	for i, t := range texts {
		keys[i] = keyOf(identity, t)
	}
	return keys
}
