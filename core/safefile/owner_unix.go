//go:build unix

package safefile

import (
	"fmt"
	"os"
	"syscall"
)

// CheckOwner says why a file a repository supplies may not be trusted: the file
// (or a symlink to it) belongs to another user, or others may write it,
// or a group other than the user's own may. A group-writable file of the
// user's own group stays readable: many systems give each user a group of
// their own and a umask of 002.
func CheckOwner(path string) error {
	uid, gid := os.Getuid(), os.Getgid()
	for _, stat := range []func(string) (os.FileInfo, error){os.Lstat, os.Stat} {
		st, err := stat(path)
		if err != nil {
			return err
		}
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		if int(sys.Uid) != uid {
			return fmt.Errorf("owned by uid %d, not by you (uid %d)", sys.Uid, uid)
		}
		if st.Mode()&os.ModeSymlink != 0 {
			continue
		}
		switch perm := st.Mode().Perm(); {
		case perm&0o002 != 0:
			return fmt.Errorf("writable by every user (mode %04o)", perm)
		case perm&0o020 != 0 && int(sys.Gid) != gid:
			return fmt.Errorf("writable by group %d, not yours (mode %04o)", sys.Gid, perm)
		}
	}
	return nil
}
