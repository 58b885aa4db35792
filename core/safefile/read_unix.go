//go:build unix

package safefile

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// openNonBlocking opens path for reading without waiting: a FIFO with no
// writer, a device that blocks on open, return at once.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
}

// setBlocking makes reads of f wait for data instead of failing with
// EAGAIN (a terminal, a device opened without blocking).
func setBlocking(f *os.File) error {
	return syscall.SetNonblock(int(f.Fd()), false)
}

// openFIFO opens the FIFO at path for reading, waiting up to timeout for a
// writer. When none comes, the waiting open is released by opening the
// FIFO's writing end once, without blocking, and closed.
func openFIFO(path string, timeout time.Duration) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_CLOEXEC, 0)
		ch <- opened{f, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, unwrapPath(o.err)
		}
		return o.f, nil
	case <-timer.C:
	}
	if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0); err == nil {
		if o := <-ch; o.f != nil {
			o.f.Close()
		}
		w.Close()
	}
	return nil, fmt.Errorf("%w in %s", ErrOpenTimeout, timeout)
}
