package live

import "syscall"

// dieWithParent has the kernel send the child SIGKILL when toolscope dies.
// SIGKILL, not SIGTERM: no one is left to follow a server that ignores
// SIGTERM with a harder signal. Only the child itself gets it; what it
// started in its group is left to it (and sees its stdin close).
//
// The kernel sends it when the thread that started the child ends, not the
// process; Go ends a thread only when a goroutine locked to it returns,
// and no server is started from such a goroutine.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
