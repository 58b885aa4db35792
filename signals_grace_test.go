//go:build unix

package main

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
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
