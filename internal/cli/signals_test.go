//go:build unix

package cli

import (
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/live/livetest"
)

// signalWhenListing waits until the stdio test server behind pidFile is
// listing, then sends sig to this process every 50 ms until done closes,
// and returns the server's process id. While it runs the test itself
// catches sig too, so a signal sent before toolscope listens cannot end
// the test binary.
func signalWhenListing(t *testing.T, pidFile string, sig syscall.Signal, done <-chan struct{}) <-chan int {
	t.Helper()
	guard := make(chan os.Signal, 16)
	signal.Notify(guard, sig)
	// The guard stays until the sender has returned: a send racing the
	// close of done would otherwise reach a process no longer catching
	// sig, and end the test binary ("signal: hangup").
	finished := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
		}
		signal.Stop(guard)
	})
	pidc := make(chan int, 1)
	go func() {
		defer close(finished)
		pid := 0
		for pid == 0 {
			select {
			case <-done:
				pidc <- 0
				return
			case <-time.After(20 * time.Millisecond):
			}
			if data, err := os.ReadFile(pidFile); err == nil {
				pid, _ = strconv.Atoi(string(data))
			}
		}
		pidc <- pid
		for {
			select {
			case <-done:
				return
			default:
			}
			_ = syscall.Kill(os.Getpid(), sig)
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return pidc
}

// gone reports whether no process has the id any more (it was reaped).
func gone(pid int) bool { return syscall.Kill(pid, 0) == syscall.ESRCH }

// TestStopSignalsCloseLiveServers: SIGINT, SIGTERM and SIGHUP during a
// listing end lint, check-args and the explorer the same way, with the
// stdio server ended and reaped before toolscope exits.
func TestStopSignalsCloseLiveServers(t *testing.T) {
	keys, keysW := io.Pipe() // the explorer's keys: none, for ever
	t.Cleanup(func() { keysW.Close() })
	testProgramOptions = []tea.ProgramOption{tea.WithInput(keys), tea.WithOutput(io.Discard)}
	t.Cleanup(func() { testProgramOptions = nil })
	commands := []struct {
		name string
		args []string
		tty  bool
		want string
		slow bool // the listing is slow; otherwise the explorer runs
	}{
		{"lint", []string{"lint", "--no-similarity"}, false, "tools/list page 1: cancelled (stopped by %s)", true},
		{"check-args", []string{"check-args"}, false, "tools/list page 1: cancelled (stopped by %s)", true},
		{"explorer listing", nil, true, "tools/list page 1: cancelled (stopped by %s)", true},
		{"explorer running", nil, true, "toolscope: the explorer stopped: stopped by %s", false},
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		for _, c := range commands {
			t.Run(c.name+" "+signalName(sig), func(t *testing.T) {
				pidFile := filepath.Join(t.TempDir(), "pid")
				b := livetest.Behaviour{PidFile: pidFile}
				if c.slow {
					b.SlowList = time.Hour
				}
				cfg := stdioConfig(t, b)
				args := append(append([]string{}, c.args...), "--mcp-config", cfg)
				if c.name == "check-args" {
					args = append(args, "get_volume_status")
				}
				done := make(chan struct{})
				pidc := signalWhenListing(t, pidFile, sig, done)
				var out, errb strings.Builder
				code := run(args, stdio{in: strings.NewReader(""), out: &out, err: &errb, outTTY: c.tty})
				close(done)
				pid := <-pidc
				want := strings.Replace(c.want, "%s", signalName(sig), 1)
				if code != 2 || !strings.Contains(errb.String(), want) {
					t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errb.String(), want)
				}
				if pid == 0 || !gone(pid) {
					t.Errorf("the server (pid %d) was not ended and reaped", pid)
				}
			})
		}
	}
}
