package live

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// stderrKeep is how much of a server's stderr is kept: enough for the
// stack trace or usage message that explains a failure.
const stderrKeep = 16 << 10

// process is a stdio server started by toolscope. It owns the child from
// start to reaping: the pipes are plain os.Pipe files (so no exec goroutine
// can block Wait while a grandchild holds one open), one goroutine waits for
// the exit, and close ends the child and its process group.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of the child's stdin
	stdout *os.File // our end of the child's stdout
	stderr *tail

	exited  chan struct{} // closed once the child is reaped
	waitErr error         // Wait's result, set before exited closes
	// drained is closed once the child's stderr reached its end: all it
	// wrote is in the tail.
	drained chan struct{}

	// stdoutEnded is set once the child's stdout reached its end, which
	// a child does by exiting (or by closing it on purpose).
	stdoutEnded atomic.Bool
	// closedLive is set when close began while the child still ran with
	// its stdout open: its exit is then toolscope's doing, no cause.
	closedLive atomic.Bool

	// grace is how long close waits after closing stdin (and again after
	// SIGTERM) before the next, harsher step.
	grace     time.Duration
	closeOnce sync.Once
}

// startProcess starts argv[0] with argv[1:], the given environment and
// stdin/stdout pipes for JSON-RPC.
func startProcess(argv []string, env []string, grace time.Duration) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	detach(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		return nil, err
	}
	// The child holds its own copies now; ours would keep the pipes open
	// after it exits and hide the end of its output.
	closeAll(inR, outW, errW)
	p := &process{cmd: cmd, stdin: inW, stdout: outR, stderr: &tail{max: stderrKeep},
		exited: make(chan struct{}), drained: make(chan struct{}), grace: grace}
	go func() {
		_, _ = io.Copy(p.stderr, errR)
		errR.Close()
		close(p.drained)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// exitStatus says how the child ended, once it has: "exit status 3",
// "signal: killed". ok is false while it still runs.
func (p *process) exitStatus() (string, bool) {
	select {
	case <-p.exited:
	default:
		return "", false
	}
	if p.waitErr == nil {
		return "exit status 0", true
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.ProcessState.String(), true
	}
	return p.waitErr.Error(), true
}

// stderrDrain bounds the wait, after the child exits, for the end of its
// stderr: a grandchild that inherited the pipe may hold it open for ever.
const stderrDrain = time.Second

// awaitExit waits up to d for the child to end and reports its status.
// Once the child has ended it also waits for its stderr to be read to the
// end, so an exit is never reported with its last words missing.
func (p *process) awaitExit(d time.Duration) (string, bool) {
	if !p.waitExited(d) {
		return "", false
	}
	p.awaitStderr(stderrDrain)
	return p.exitStatus()
}

// waitExited waits up to d for the child to end.
func (p *process) waitExited(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// awaitStderr waits up to d for the child's stderr to reach its end.
func (p *process) awaitStderr(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.drained:
	case <-t.C:
	}
}

// close ends the child the way the MCP spec asks of a stdio client: close
// its stdin, wait, SIGTERM, wait, SIGKILL. The whole process group is
// signalled so a launcher (npx, uvx, a shell) does not leave its server
// behind. It returns once the child is reaped.
func (p *process) close() {
	p.closeOnce.Do(func() {
		select {
		case <-p.exited:
		default:
			p.closedLive.Store(!p.stdoutEnded.Load())
		}
		p.stdin.Close()
		if !p.waitExited(p.grace) {
			terminate(p.cmd)
			if !p.waitExited(p.grace) {
				kill(p.cmd)
				<-p.exited
			}
		}
		// Grandchildren that outlived the leader have no reason to stay.
		kill(p.cmd)
		p.stdout.Close()
	})
}

// pipeReader and pipeWriter are the two halves the SDK's IOTransport
// speaks JSON-RPC over. Closing the writer ends the child; the reader's Close
// is a no-op so the child's last words are still read while it shuts down.
type (
	pipeReader struct{ p *process }
	pipeWriter struct{ p *process }
)

func (r pipeReader) Read(b []byte) (int, error) {
	n, err := r.p.stdout.Read(b)
	if err == io.EOF {
		r.p.stdoutEnded.Store(true)
	}
	return n, err
}

func (pipeReader) Close() error                  { return nil }
func (w pipeWriter) Write(b []byte) (int, error) { return w.p.stdin.Write(b) }
func (w pipeWriter) Close() error                { w.p.close(); return nil }

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool // bytes were dropped from the front
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(b), nil
}

// text returns what was kept, starting at a line boundary when the front
// was cut, and whether it starts inside a line whose front was cut (what
// was kept has no newline to start after).
func (t *tail) text() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	midLine := false
	if t.cut {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		} else {
			midLine = true
		}
	}
	return strings.ToValidUTF8(s, "\uFFFD"), midLine
}
