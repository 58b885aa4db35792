//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own process group, so the whole group can be
// ended and a terminal's Ctrl-C reaches toolscope, which then closes the
// server the orderly way. Where the system offers it (Linux), the child is
// also killed when toolscope dies without closing it (SIGKILL, the OOM
// killer): its own group would otherwise keep it running.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// terminate asks the child's process group to end.
func terminate(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

// kill ends the child's process group at once.
func kill(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
