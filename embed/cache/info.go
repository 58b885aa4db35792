package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Info describes the cache of a directory, for `toolscope cache`.
type Info struct {
	// Dir is the cache directory, Path its store's file.
	Dir, Path string
	// Exists says whether the store's file is there.
	Exists bool
	// FileBytes is the file's size on disk; EntryBytes what its entries
	// take, which MaxBytes caps.
	FileBytes, EntryBytes, MaxBytes int64
	// Vectors and Counts are the entries of each kind.
	Vectors, Counts int
	// OldFiles are append-only files of the cache's version before, not
	// moved into the store yet (a run moves them), and their bytes.
	OldFiles []string
	OldBytes int64
}

// Inspect reads the cache of dir ("" for DefaultDir) without changing it.
func Inspect(dir string) (Info, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return Info{}, err
		}
	}
	s := newStore(dir, 0)
	info := Info{Dir: dir, Path: s.path, MaxBytes: s.maxBytes, OldFiles: s.oldFiles()}
	for _, f := range info.OldFiles {
		if st, err := os.Stat(f); err == nil {
			info.OldBytes += st.Size()
		}
	}
	st, err := os.Stat(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return info, nil
	}
	if err != nil {
		return info, fmt.Errorf("cache %s: %w", s.path, err)
	}
	info.Exists, info.FileBytes = true, st.Size()
	err = guard(func() error {
		db, err := bolt.Open(s.path, 0o600, &bolt.Options{ReadOnly: true, Timeout: lockWait})
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketVectors); b != nil {
				info.Vectors = b.Stats().KeyN
			}
			if b := tx.Bucket(bucketCounts); b != nil {
				info.Counts = b.Stats().KeyN
			}
			if b := tx.Bucket(bucketMeta); b != nil {
				info.EntryBytes = sizeOf(b)
			}
			return nil
		})
	})
	if err != nil {
		return info, fmt.Errorf("cache %s: %w (toolscope cache clear starts it afresh)", s.path, err)
	}
	return info, nil
}

// Clear removes the store of dir ("" for DefaultDir) and the old files,
// and reports the bytes freed. It waits for runs writing to the store;
// runs reading it meanwhile finish on what they opened.
func Clear(dir string) (int64, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return 0, err
		}
	}
	s := newStore(dir, 0)
	var freed int64
	for _, f := range s.oldFiles() {
		if st, err := os.Stat(f); err == nil {
			if err := os.Remove(f); err != nil {
				return freed, fmt.Errorf("cache: %w", err)
			}
			freed += st.Size()
		}
	}
	st, err := os.Stat(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return freed, nil
	}
	if err != nil {
		return freed, fmt.Errorf("cache %s: %w", s.path, err)
	}
	// Hold the store's lock while removing it, so no write is half done.
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: lockWait})
	if err == nil {
		defer db.Close()
	}
	if err := os.Remove(s.path); err != nil {
		return freed, fmt.Errorf("cache: %w", err)
	}
	// Stray temporary files of the old format's rewrites.
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".rewrite-*")); len(tmp) > 0 {
		for _, f := range tmp {
			os.Remove(f)
		}
	}
	return freed + st.Size(), nil
}
