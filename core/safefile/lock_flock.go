//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package safefile

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Lock takes an exclusive lock for writing path, waiting for another
// process's to end, and returns its release. The lock is on path's
// directory, not on path: Write replaces path's inode, and a lock file
// beside it would be one more file to plant a symlink at.
func Lock(path string) (unlock func(), err error) {
	dir := filepath.Dir(path)
	d, err := os.Open(dir)
	if err != nil {
		return nil, &Error{path, unwrapPath(err)}
	}
	for {
		err = unix.Flock(int(d.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	switch err {
	case nil:
	case unix.ENOLCK, unix.EOPNOTSUPP, unix.ENOSYS:
		// A file system without locks (some network mounts): the write
		// stays atomic, only concurrent writers are not held off.
		d.Close()
		return func() {}, nil
	default:
		d.Close()
		return nil, &Error{path, err}
	}
	return func() {
		unix.Flock(int(d.Fd()), unix.LOCK_UN)
		d.Close()
	}, nil
}
