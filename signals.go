package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
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

// signalContext returns a context cancelled, with a signalError as its
// cause, when a stop signal arrives. Until stop is called the signals no
// longer end the process by themselves.
func signalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(signalError{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
