//go:build unix

package pipeline

import (
	"io/fs"
	"strconv"
	"syscall"
)

// fileID is a file's identity (device and inode), the same for every path
// that reaches it (a symlink, a hard link, a symlinked folder); ok is
// false where the system gives none.
func fileID(st fs.FileInfo) (id string, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return strconv.FormatUint(uint64(s.Dev), 10) + ":" + strconv.FormatUint(uint64(s.Ino), 10), true
}
