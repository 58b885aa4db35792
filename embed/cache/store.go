package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The store is one bbolt database per cache directory (StoreName), looked
// up key by key: a run reads the pages of the entries it asks for, never
// the whole store, so its time and memory follow its catalog, not what
// else the cache holds.
//
//	bucket "vectors"  key -> crc32c(4) + float32 bits, little-endian
//	bucket "counts"   key -> the same, a one-element vector
//	bucket "used"     key -> last use, unix seconds (8) + the bucket (1)
//	bucket "meta"     "bytes" -> the entries' size (8); "migrated" -> 1
//
// Readers open the file read-only under a shared lock and close it when
// their batch is read; writers take the exclusive lock for one
// transaction. Processes sharing a directory (a CI matrix) therefore read
// side by side and queue only to write, for a few milliseconds each.
//
// The store is bounded: past MaxBytes of entries the least recently used
// are dropped, down to three quarters of it. A use is written back only
// when the last one recorded is older than touchAfter, so a warm run
// repeated within the hour writes nothing.

// StoreName is the store's file in the cache directory.
const StoreName = "cache-v2.db"

// EnvMaxMB is the environment variable that sets the store's cap, in MiB.
const EnvMaxMB = "TOOLSCOPE_CACHE_MAX_MB"

// DefaultMaxBytes is the entries' cap when neither Options nor EnvMaxMB
// says otherwise.
const DefaultMaxBytes = 256 << 20

var (
	bucketVectors = []byte("vectors")
	bucketCounts  = []byte("counts")
	bucketUsed    = []byte("used")
	bucketMeta    = []byte("meta")
	metaBytes     = []byte("bytes")
	metaMigrated  = []byte("migrated")
)

// bucket ids as kept in "used".
const (
	idVectors byte = 'v'
	idCounts  byte = 'c'
)

var (
	// now is the clock of last uses (tests move it).
	now = time.Now
	// touchAfter is how stale a recorded use must be to be written again.
	touchAfter = time.Hour
	// lockWait bounds the wait for another process's lock; past it the
	// batch is served as misses (reads) or kept in memory only (writes).
	lockWait = 10 * time.Second
)

// entryOverhead is what one entry costs beyond its value: its key twice
// (the entry and its use) and the use's stamp.
const entryOverhead = 2*keySize + 9

// pageSize is the store's page: the operating system's, as bbolt makes it.
var pageSize = int64(os.Getpagesize())

// cost is what an entry whose value is n bytes takes on disk, as the cap
// counts it: a value of more than half a page sits on pages of its own
// (two of the built-in encoder's 2 KiB vectors do not fit one 4 KiB
// page), a smaller one shares its page.
func cost(n int) int64 {
	c := int64(n) + entryOverhead
	if c > pageSize/2-64 {
		return (c + pageSize - 1) / pageSize * pageSize
	}
	return c
}

// store is the database of one cache directory.
type store struct {
	dir      string
	path     string
	maxBytes int64
}

func newStore(dir string, maxBytes int64) *store {
	if maxBytes <= 0 {
		maxBytes = envMaxBytes()
	}
	return &store{dir: dir, path: filepath.Join(dir, StoreName), maxBytes: maxBytes}
}

// envMaxBytes is EnvMaxMB's cap, else DefaultMaxBytes.
func envMaxBytes() int64 {
	if s := os.Getenv(EnvMaxMB); s != "" {
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil && n > 0 && n < 1<<40 {
			return n << 20
		}
	}
	return DefaultMaxBytes
}

// bucketName is the bucket of a bucket id.
func bucketName(id byte) []byte {
	if id == idCounts {
		return bucketCounts
	}
	return bucketVectors
}

// encodeValue is a vector as stored.
func encodeValue(vec []float32) []byte {
	buf := make([]byte, 4, 4+4*len(vec))
	for _, f := range vec {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
	}
	binary.LittleEndian.PutUint32(buf, crc32.Checksum(buf[4:], castagnoli))
	return buf
}

// decodeValue reads a stored vector; ok is false for a damaged one.
func decodeValue(v []byte) ([]float32, bool) {
	if len(v) < 8 || len(v)%4 != 0 || (len(v)-4)/4 > MaxDims {
		return nil, false
	}
	if crc32.Checksum(v[4:], castagnoli) != binary.LittleEndian.Uint32(v) {
		return nil, false
	}
	vec := make([]float32, (len(v)-4)/4)
	for i := range vec {
		vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(v[4+4*i:]))
	}
	return vec, true
}

// corrupt reports whether err says the file is no bbolt database of ours.
func corrupt(err error) bool {
	return errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrVersionMismatch) ||
		errors.Is(err, bolterrors.ErrChecksum) || errors.Is(err, errPanicked)
}

var errPanicked = errors.New("damaged store")

// guard runs fn, turning a panic of the database on a damaged file, or a
// fault reading past the end of a truncated one, into errPanicked.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanicked, r)
		}
	}()
	return fn()
}

// lookup returns the stored vector of each key (nil for a miss). Entries
// whose recorded use is stale are written back as used now.
func (s *store) lookup(id byte, keys []key) ([][]float32, error) {
	out := make([][]float32, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	if _, err := os.Stat(s.path); errors.Is(err, os.ErrNotExist) {
		if !s.hasOld() {
			return out, nil
		}
		if err := s.migrate(); err != nil {
			return out, err
		}
	}
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{ReadOnly: true, Timeout: lockWait})
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return out, nil
		}
		if corrupt(err) {
			s.discard()
		}
		return out, fmt.Errorf("vector cache %s: %w", s.path, err)
	}
	var stale []key
	cutoff := now().Add(-touchAfter).Unix()
	err = guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			b, used := tx.Bucket(bucketName(id)), tx.Bucket(bucketUsed)
			if b == nil {
				return nil
			}
			for i, k := range keys {
				v := b.Get(k[:])
				if v == nil {
					continue
				}
				vec, ok := decodeValue(v)
				if !ok {
					continue
				}
				out[i] = vec
				if used != nil {
					if u := used.Get(k[:]); len(u) < 8 || int64(binary.LittleEndian.Uint64(u)) < cutoff {
						stale = append(stale, k)
					}
				}
			}
			return nil
		})
	})
	db.Close()
	if err != nil {
		if corrupt(err) {
			s.discard()
		}
		return make([][]float32, len(keys)), fmt.Errorf("vector cache %s: %w", s.path, err)
	}
	if len(stale) > 0 {
		if err := s.write(id, stale, nil); err != nil {
			return out, err
		}
	}
	return out, nil
}

// write stores vecs under keys (touch only, when vecs is nil: the keys'
// entries are marked used now) and drops the least recently used entries
// if the store has grown past its cap.
func (s *store) write(id byte, keys []key, vecs [][]float32) error {
	if len(keys) == 0 {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	db, err := s.openWrite()
	if err != nil {
		return err
	}
	defer db.Close()
	stamp := binary.LittleEndian.AppendUint64(nil, uint64(now().Unix()))
	err = guard(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			b, used, meta, err := buckets(tx, id)
			if err != nil {
				return err
			}
			size := sizeOf(meta)
			for i, k := range keys {
				if vecs == nil {
					if b.Get(k[:]) == nil {
						continue
					}
				} else {
					val := encodeValue(vecs[i])
					if old := b.Get(k[:]); old != nil {
						size -= cost(len(old))
					}
					if err := b.Put(k[:], val); err != nil {
						return err
					}
					size += cost(len(val))
				}
				if err := used.Put(k[:], append(slices.Clip(stamp), id)); err != nil {
					return err
				}
			}
			if size > s.maxBytes {
				if size, err = evict(tx, size, s.maxBytes*3/4); err != nil {
					return err
				}
			}
			return setSize(meta, size)
		})
	})
	if err != nil {
		if corrupt(err) {
			db.Close()
			s.discard()
		}
		return fmt.Errorf("vector cache %s: %w", s.path, err)
	}
	return nil
}

// openWrite opens the store for writing, starting afresh over a file that
// is no database of ours.
func (s *store) openWrite() (*bolt.DB, error) {
	opts := &bolt.Options{Timeout: lockWait, FreelistType: bolt.FreelistMapType}
	db, err := bolt.Open(s.path, 0o600, opts)
	if err != nil && corrupt(err) {
		s.discard()
		db, err = bolt.Open(s.path, 0o600, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("vector cache %s: %w", s.path, err)
	}
	return db, nil
}

// discard removes a damaged store: the next write starts afresh.
func (s *store) discard() { os.Remove(s.path) }

// buckets returns (making them) the entries' bucket of id, "used" and
// "meta".
func buckets(tx *bolt.Tx, id byte) (b, used, meta *bolt.Bucket, err error) {
	if b, err = tx.CreateBucketIfNotExists(bucketName(id)); err != nil {
		return
	}
	if used, err = tx.CreateBucketIfNotExists(bucketUsed); err != nil {
		return
	}
	meta, err = tx.CreateBucketIfNotExists(bucketMeta)
	return
}

func sizeOf(meta *bolt.Bucket) int64 {
	if v := meta.Get(metaBytes); len(v) == 8 {
		return int64(binary.LittleEndian.Uint64(v))
	}
	return 0
}

func setSize(meta *bolt.Bucket, size int64) error {
	return meta.Put(metaBytes, binary.LittleEndian.AppendUint64(nil, uint64(max(size, 0))))
}

// evict drops the least recently used entries until size is at most
// target, and returns the size left.
func evict(tx *bolt.Tx, size, target int64) (int64, error) {
	type use struct {
		k     []byte
		stamp uint64
		id    byte
	}
	var uses []use
	used := tx.Bucket(bucketUsed)
	err := used.ForEach(func(k, v []byte) error {
		if len(v) == 9 {
			uses = append(uses, use{append([]byte(nil), k...), binary.LittleEndian.Uint64(v), v[8]})
		}
		return nil
	})
	if err != nil {
		return size, err
	}
	// Oldest first; ties by key, so every process drops the same entries.
	sort.Slice(uses, func(i, j int) bool {
		if uses[i].stamp != uses[j].stamp {
			return uses[i].stamp < uses[j].stamp
		}
		return bytes.Compare(uses[i].k, uses[j].k) < 0
	})
	for _, u := range uses {
		if size <= target {
			break
		}
		b := tx.Bucket(bucketName(u.id))
		if b != nil {
			if v := b.Get(u.k); v != nil {
				size -= cost(len(v))
				if err := b.Delete(u.k); err != nil {
					return size, err
				}
			}
		}
		if err := used.Delete(u.k); err != nil {
			return size, err
		}
	}
	return size, nil
}

// oldFiles are the files of the store before this one: one append-only
// file per identity (file.go).
func (s *store) oldFiles() []string {
	var out []string
	for _, pat := range []string{"vectors-v1-*.bin", "tokens-v1-*.bin"} {
		m, _ := filepath.Glob(filepath.Join(s.dir, pat))
		out = append(out, m...)
	}
	return out
}

func (s *store) hasOld() bool { return len(s.oldFiles()) > 0 }

// migrate moves the entries of the old files into the store, the most
// recently written file first, up to the cap, and removes the files. Of
// processes racing to do it, the first does and the others find it done.
func (s *store) migrate() error {
	files := s.oldFiles()
	sort.SliceStable(files, func(i, j int) bool { return modTime(files[i]).After(modTime(files[j])) })
	db, err := s.openWrite()
	if err != nil {
		return err
	}
	defer db.Close()
	err = guard(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			_, _, meta, err := buckets(tx, idVectors)
			if err != nil {
				return err
			}
			if meta.Get(metaMigrated) != nil {
				return nil
			}
			if _, err := tx.CreateBucketIfNotExists(bucketCounts); err != nil {
				return err
			}
			used := tx.Bucket(bucketUsed)
			size := sizeOf(meta)
			for _, f := range files {
				id := idVectors
				if strings.HasPrefix(filepath.Base(f), "tokens-") {
					id = idCounts
				}
				info, err := os.Stat(f)
				if err != nil || info.Size() > 1<<30 {
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				b := tx.Bucket(bucketName(id))
				stamp := binary.LittleEndian.AppendUint64(nil, uint64(info.ModTime().Unix()))
				var perr error
				decode(data, func(k key, vec []float32) {
					if perr != nil || size >= s.maxBytes || b.Get(k[:]) != nil {
						return
					}
					val := encodeValue(vec)
					if perr = b.Put(k[:], val); perr == nil {
						perr = used.Put(k[:], append(slices.Clip(stamp), id))
					}
					size += cost(len(val))
				})
				if perr != nil {
					return perr
				}
			}
			if err := setSize(meta, size); err != nil {
				return err
			}
			return meta.Put(metaMigrated, []byte{1})
		})
	})
	if err != nil {
		return fmt.Errorf("vector cache %s: %w", s.path, err)
	}
	for _, f := range files {
		os.Remove(f)
	}
	return nil
}

func modTime(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}
