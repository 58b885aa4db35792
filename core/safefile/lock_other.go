//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package safefile

import "sync"

var mu sync.Mutex

// Lock serialises the writes of this process where no file lock is at
// hand; other processes are not held off.
func Lock(string) (unlock func(), err error) {
	mu.Lock()
	return mu.Unlock, nil
}
