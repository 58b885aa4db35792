//go:build !unix

package live

import "os/exec"

// detach is a no-op where there are no process groups.
func detach(*exec.Cmd) {}

// terminate ends the child; without process groups only the child itself.
func terminate(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// kill ends the child at once.
func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
