//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	defer func(d time.Duration) { OpenTimeout = d }(OpenTimeout)
	OpenTimeout = 50 * time.Millisecond
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	if f, err := os.Create(sparse); err == nil {
		_ = f.Truncate(20 << 30)
		f.Close()
	}
	fifo := filepath.Join(dir, "fifo")
	_ = syscall.Mkfifo(fifo, 0o600)
	zero := filepath.Join(dir, "zero")
	_ = os.Symlink("/dev/zero", zero)
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o666); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		o    ReadOptions
		want string // the data, when read
		err  error  // what the error wraps
	}{
		{"regular", small, ReadOptions{Max: 10}, "0123456789", nil},
		{"regular over the limit", small, ReadOptions{Max: 9}, "", ErrTooLarge},
		{"sparse 20 GB, refused before reading", sparse, ReadOptions{Max: 1 << 20, Streams: true}, "", ErrTooLarge},
		{"missing", filepath.Join(dir, "none"), ReadOptions{Max: 10}, "", fs.ErrNotExist},
		{"directory", dir, ReadOptions{Max: 10, Streams: true}, "", ErrDirectory},
		{"a device", zero, ReadOptions{Max: 10}, "", ErrNotRegular},
		{"a device as a stream stops at the limit", zero, ReadOptions{Max: 1 << 20, Streams: true}, "", ErrTooLarge},
		{"a FIFO", fifo, ReadOptions{Max: 10}, "", ErrNotRegular},
		{"a FIFO with no writer", fifo, ReadOptions{Max: 10, Streams: true}, "", ErrOpenTimeout},
		{"writable by everyone", open, ReadOptions{Max: 10, Owned: true}, "", ErrNotOwned},
		{"writable by everyone, no check asked", open, ReadOptions{Max: 10}, "x", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Lstat(c.path); err != nil && c.err != fs.ErrNotExist {
				t.Skipf("cannot make it here: %v", err)
			}
			data, err := Read(c.path, c.o)
			if c.err == nil {
				if err != nil || string(data) != c.want {
					t.Fatalf("Read = %q, %v; want %q", data, err, c.want)
				}
				return
			}
			if !errors.Is(err, c.err) {
				t.Fatalf("Read error %v; want one wrapping %v", err, c.err)
			}
			var e *Error
			if !errors.As(err, &e) || e.Path != c.path {
				t.Errorf("error %v does not name %s", err, c.path)
			}
		})
	}
}

// TestReadFIFOWithAWriter: a FIFO whose writer comes after the reader is
// read whole, not taken for empty.
func TestReadFIFOWithAWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = f.Write([]byte("hello"))
	}()
	data, err := Read(fifo, ReadOptions{Max: 10, Streams: true})
	if err != nil || string(data) != "hello" {
		t.Fatalf("Read = %q, %v; want hello", data, err)
	}
}
