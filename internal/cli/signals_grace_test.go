//go:build unix

package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"toolscope/core/live/livetest"
)

// TestStopSignalEndsABlockedCommand: a stop signal ends the process even
// when the command is blocked where its context is not watched (an open
// that never returns): past the grace the process is ended.
func TestStopSignalEndsABlockedCommand(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			ended := make(chan os.Signal, 1)
			defer func(g time.Duration, f func(os.Signal)) { stopGrace, exitStopped = g, f }(stopGrace, exitStopped)
			stopGrace = time.Millisecond
			exitStopped = func(s os.Signal) { ended <- s }
			ctx, stop := signalContext(context.Background())
			defer stop()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			<-ctx.Done()
			// The command "hangs" here: it never calls stop.
			select {
			case s := <-ended:
				if s != sig {
					t.Errorf("ended by %v, want %v", s, sig)
				}
			case <-time.After(time.Minute):
				t.Fatal("a stop signal did not end a command that never returned")
			}
		})
	}
}

// End to end on the built binary: lint stopped by SIGTERM or SIGINT while
// a server lists, winding up within its grace, exits as the shell says a
// process that signal ended does (143, 130), not 2.
func TestStoppedCommandExitsWithTheSignalsCode(t *testing.T) {
	bin := binary(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			cfg := stdioConfig(t, livetest.Behaviour{PidFile: pidFile, SlowList: time.Hour})
			cmd := exec.Command(bin, "lint", "--no-similarity", "--mcp-config", cfg)
			var errb strings.Builder
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(time.Minute)
			for {
				if _, err := os.Stat(pidFile); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the server never listed")
				}
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(c.sig)
			err := cmd.Wait()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != c.code || !strings.Contains(errb.String(), "stopped by "+signalName(c.sig)) {
				t.Errorf("exit %v, stderr %q; want exit %d", err, errb.String(), c.code)
			}
		})
	}
}

// exitCode keeps a command's code unless a stop signal ended it.
func TestExitCodeAfterAStopSignal(t *testing.T) {
	defer caughtSignal.Store(0)
	caughtSignal.Store(0)
	if exitCode(2) != 2 || exitCode(0) != 0 {
		t.Error("without a signal the command's code changed")
	}
	caughtSignal.Store(int32(syscall.SIGTERM))
	if exitCode(2) != 143 || exitCode(1) != 143 || exitCode(0) != 0 {
		t.Errorf("after SIGTERM: %d, %d, %d; want 143, 143, 0", exitCode(2), exitCode(1), exitCode(0))
	}
}
