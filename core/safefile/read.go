package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"time"
)

// ReadOptions say what Read accepts.
type ReadOptions struct {
	// Max is the most bytes read; a regular file larger than Max is
	// refused before anything is read or allocated.
	Max int64
	// Streams admits what has no size to check first: a pipe or FIFO, a
	// character device such as /dev/stdin. Each is read no further than
	// Max. Without it anything but a regular file is refused unread.
	Streams bool
	// Owned refuses a file (or a symlink to it) that another user owns or
	// may write: see CheckOwner. It is for files a repository supplies
	// that decide what a run reports.
	Owned bool
}

// OpenTimeout is how long Read waits for a FIFO's writer to appear.
var OpenTimeout = 10 * time.Second

// ErrTooLarge is why a file over ReadOptions.Max is refused.
var ErrTooLarge = errors.New("over the size limit")

// ErrDirectory is why a directory is not read as a file.
var ErrDirectory = errors.New("is a directory")

// ErrOpenTimeout is why a FIFO no one writes to is given up.
var ErrOpenTimeout = errors.New("no writer came to the FIFO")

// TooLargeError is a file refused for its size; Size is its size when it
// was known before reading (a regular file), else 0.
type TooLargeError struct {
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("file is %d bytes, over the %s limit", e.Size, Bytes(e.Max))
	}
	return fmt.Sprintf("over the %s limit (reading stopped there)", Bytes(e.Max))
}

func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Bytes renders a limit as people write it: "64 MiB", "1024 KiB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads the file at path whole, as a file someone else may have
// planted must be read: a regular file (or, with Streams, a pipe or
// device) and nothing else; never more than Max bytes held, and a regular
// file's size checked before anything is allocated; opening never blocks
// (a FIFO with no writer is given up after OpenTimeout). Errors are *Error
// values naming path; a missing file's wraps fs.ErrNotExist.
func Read(path string, o ReadOptions) ([]byte, error) {
	if o.Owned {
		if err := CheckOwner(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &Error{path, fs.ErrNotExist}
			}
			return nil, &Error{path, notOwned{err}}
		}
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, &Error{path, unwrapPath(err)}
	}
	defer func() { f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{path, unwrapPath(err)}
	}
	m := st.Mode()
	switch {
	case m.IsRegular():
		if st.Size() > o.Max {
			return nil, &Error{path, &TooLargeError{Size: st.Size(), Max: o.Max}}
		}
		data, err := ReadLimited(f, st.Size(), o.Max)
		if err != nil {
			return nil, &Error{path, err}
		}
		return data, nil
	case m.IsDir():
		return nil, &Error{path, ErrDirectory}
	case !o.Streams:
		return nil, &Error{path, fmt.Errorf("%w (%s)", ErrNotRegular, kind(m))}
	case m&fs.ModeNamedPipe != 0:
		// Opened without blocking, a FIFO whose writer has not come yet
		// reads as empty: wait for the writer, a while. The first end
		// stays open until then, so that a writer already there is not
		// left without a reader.
		fifo, err := openFIFO(path, OpenTimeout)
		if err != nil {
			return nil, &Error{path, err}
		}
		f.Close()
		f = fifo
	default:
		if err := setBlocking(f); err != nil {
			return nil, &Error{path, unwrapPath(err)}
		}
	}
	data, err := ReadLimited(f, 0, o.Max)
	if err != nil {
		return nil, &Error{path, err}
	}
	return data, nil
}

// ReadLimited reads r to its end, or fails with a *TooLargeError once it
// holds more than max bytes, having read no more than one byte past it.
// size is what r is expected to hold (0: unknown), to allocate once.
func ReadLimited(r io.Reader, size, max int64) ([]byte, error) {
	limit := max + 1 // one byte more tells the input is too big
	if size <= 0 || size > max {
		size = 4096
	}
	buf := make([]byte, 0, min(size+1, limit))
	for {
		if int64(len(buf)) >= limit {
			return nil, &TooLargeError{Max: max}
		}
		if len(buf) == cap(buf) {
			// Doubling, but never past the limit: the buffer stays within
			// the limit's size whatever the input.
			buf = slices.Grow(buf, int(min(2*int64(cap(buf)), limit))-len(buf))
		}
		n, err := r.Read(buf[len(buf):int(min(int64(cap(buf)), limit))])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if int64(len(buf)) > max {
				return nil, &TooLargeError{Max: max}
			}
			return buf, nil
		}
		if err != nil {
			return nil, unwrapPath(err)
		}
	}
}

// ErrNotOwned is why Read refuses, under ReadOptions.Owned, a file that
// another user owns or may write.
var ErrNotOwned = errors.New("not the user's own")

// notOwned is CheckOwner's reason, matching ErrNotOwned.
type notOwned struct{ error }

func (notOwned) Is(target error) bool { return target == ErrNotOwned }
