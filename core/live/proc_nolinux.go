//go:build unix && !linux

package live

import "syscall"

// dieWithParent does nothing: only Linux can tie a child's life to its
// parent's, so elsewhere a server toolscope did not close outlives it.
func dieWithParent(*syscall.SysProcAttr) {}
