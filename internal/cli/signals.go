package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// stopSignals end a command the way Ctrl-C does: whatever a live source
// started is closed and reaped first. SIGTERM is what service managers,
// CI runners and `timeout` send; SIGHUP what a closed terminal sends.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalError is the cause of a context a stop signal cancelled.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return "stopped by " + signalName(e.sig) }

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// stopGrace is how long a command has, once a stop signal cancelled its
// context, to wind up by itself (close and reap live servers, write what
// it must): past it toolscope exits, whatever the command is blocked on.
var stopGrace = 5 * time.Second

// exitStopped ends the process for a stop signal the command did not
// answer in time; tests replace it.
var exitStopped = func(s os.Signal) {
	fmt.Fprintf(os.Stderr, "toolscope: %s\n", signalError{s})
	code := 1
	if n, ok := s.(syscall.Signal); ok {
		code = 128 + int(n) // the shell's code for a process a signal ended
	}
	os.Exit(code)
}

// caughtSignal is the number of the stop signal that cancelled a
// command's context, 0 while none has.
var caughtSignal atomic.Int32

// exitCode is the process's exit code for a command that returned code:
// a command a stop signal ended, within its grace, exits as the shell
// says a process that signal ended does (128+n: 130 for SIGINT, 143 for
// SIGTERM, 129 for SIGHUP), not 2, so a script or CI runner can tell an
// interruption from bad input. A command that finished anyway (code 0)
// keeps its code.
func exitCode(code int) int {
	if n := caughtSignal.Load(); n != 0 && code != 0 {
		return 128 + int(n)
	}
	return code
}

// signalContext returns a context cancelled, with a signalError as its
// cause, when a stop signal arrives. Until stop is called the signals no
// longer end the process by themselves; a command that has not returned
// stopGrace after the signal is ended by exitStopped.
func signalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		var s os.Signal
		select {
		case s = <-ch:
			if n, ok := s.(syscall.Signal); ok {
				caughtSignal.CompareAndSwap(0, int32(n))
			}
			cancel(signalError{s})
		case <-done:
			return
		}
		grace := time.NewTimer(stopGrace)
		defer grace.Stop()
		select {
		case <-grace.C:
			exitStopped(s)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
