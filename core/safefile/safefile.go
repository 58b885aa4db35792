// Package safefile writes files the way a file another program or user
// may have planted must be met: whole or not at all, never through a
// symlink, never over anything but a regular file, and under a lock when
// two toolscope processes may write the same file.
//
// Write renders into a temp file that os.CreateTemp makes with O_EXCL and
// a random name in the target's directory, then renames it over the
// target: a rename replaces a symlink instead of following it, and a
// planted PATH.tmp is never opened. Any failure removes the temp file.
//
// Read is the other side: every file a repository or a user points at
// (catalogs, configs, baselines, record files, examples) is read through
// it, bounded before anything is allocated and never waiting on a FIFO.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// DefaultPerm is a new file's permission; a replaced file keeps its own.
const DefaultPerm fs.FileMode = 0o644

// Error is a refused or failed write: the path and why.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrNotRegular is why a write is refused when the target exists and is
// not a regular file (a symlink, a device, a FIFO, a directory).
var ErrNotRegular = errors.New("not a regular file")

// Write replaces path with data, atomically.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces path with what write writes, atomically: when write
// fails, or the disk fills, path is left as it was and no temp file stays.
func WriteFunc(path string, write func(io.Writer) error) error {
	perm, err := existing(path)
	if err != nil {
		return err
	}
	return viaTemp(path, perm, write, func(tmp string) error { return os.Rename(tmp, path) })
}

// Create makes path with data; when anything is at path already (a file,
// a symlink, even a dangling one) it fails with an error wrapping
// fs.ErrExist and leaves it.
func Create(path string, data []byte) error {
	return viaTemp(path, DefaultPerm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, func(tmp string) error {
		// A hard link is made only where nothing is, and never follows a
		// symlink that is there.
		if err := os.Link(tmp, path); err != nil {
			return err
		}
		return os.Remove(tmp)
	})
}

// Check says whether Write would replace path: nil when path is a regular
// file or absent, the refusal Write would give otherwise. It lets a
// read-change-write refuse before reading through a symlink.
func Check(path string) error {
	_, err := existing(path)
	return err
}

// existing is the permission of the regular file at path to keep, or
// DefaultPerm when there is none; anything else at path is refused.
func existing(path string) (fs.FileMode, error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return DefaultPerm, nil
	case err != nil:
		return 0, &Error{path, err}
	case !st.Mode().IsRegular():
		return 0, &Error{path, fmt.Errorf("%w (%s): not replaced", ErrNotRegular, kind(st.Mode()))}
	}
	return st.Mode().Perm(), nil
}

// kind names a file type for messages.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// viaTemp writes a fresh temp file beside path, gives it perm, then
// places it with place; on any failure the temp file is removed.
func viaTemp(path string, perm fs.FileMode, write func(io.Writer) error, place func(tmp string) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return &Error{path, unwrapPath(err)}
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := write(f); err != nil {
		return &Error{path, unwrapPath(err)}
	}
	if err := f.Chmod(perm); err != nil {
		return &Error{path, unwrapPath(err)}
	}
	// Sync before the rename, so a crash cannot leave an empty file where
	// the old one was.
	if err := f.Sync(); err != nil {
		return &Error{path, unwrapPath(err)}
	}
	if err := f.Close(); err != nil {
		return &Error{path, unwrapPath(err)}
	}
	if err := place(tmp); err != nil {
		return &Error{path, unwrapPath(err)}
	}
	return nil
}

// unwrapPath drops a *PathError's operation and temp path: the message
// names the target, not the temp file.
func unwrapPath(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SameFile reports whether the paths a and b name one file, by identity
// rather than spelling: when both exist, whether they resolve to the same
// file (os.SameFile on what each leads to, through symlinks and hard
// links alike); when either does not, whether they are one absolute path
// once the symlinks in their directories are resolved. A run compares
// every file it writes with every file it reads this way before it starts
// anything, so that no output replaces an input.
func SameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return canonical(a) == canonical(b)
}

// canonical is path made absolute with its directory's symlinks resolved
// (as far as they exist), for comparing a path that names no file yet.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(real, base)
	}
	return abs
}

// Preflight says, before anything is paid for or started, whether Write
// could replace path: Check's refusals (a symlink, anything but a regular
// file), and a directory where no file can be made (read-only, missing).
// It makes and removes one temp file there.
func Preflight(path string) error {
	if err := Check(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return &Error{path, fmt.Errorf("cannot be written: %w", unwrapPath(err))}
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
