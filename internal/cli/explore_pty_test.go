//go:build unix

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"toolscope/core/live/livetest"
)

// The explorer as a user meets it: the built binary on a pseudo-terminal.
// Each test waits for text on the screen with a generous deadline (the
// machine may be loaded), types keys, and ends the program; the exit code
// must be 0 and no panic may reach the terminal.

// ptyDeadline bounds every wait: long, since a failure is the only thing
// it measures.
const ptyDeadline = 90 * time.Second

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// binary builds toolscope once per test run.
func binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the end-to-end tests build the binary; skipped under -short")
	}
	built.once.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Errorf("no go command to build the binary: %w", err)
			return
		}
		if built.dir, built.err = os.MkdirTemp("", "toolscope-e2e-"); built.err != nil {
			return
		}
		afterTests = append(afterTests, func() { os.RemoveAll(built.dir) })
		built.bin = filepath.Join(built.dir, "toolscope")
		out, err := exec.Command(goBin, "build", "-o", built.bin, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// ptyTerm is the binary running on a pseudo-terminal.
type ptyTerm struct {
	t   testing.TB
	f   *os.File
	cmd *exec.Cmd

	mu  sync.Mutex
	scr *vscreen
	raw bytes.Buffer

	// wrote has a value after the program wrote to the screen.
	wrote    chan struct{}
	readDone chan struct{}
	exited   chan struct{}
	waitErr  error
}

// runOpts are what a run changes from the default: a mock embedder, a
// plain colour terminal, an empty home and cache.
type runOpts struct {
	w, h  int
	args  []string
	env   []string
	stdin *os.File
	// cursorFirst makes the terminal answer its queries out of order.
	cursorFirst bool
}

func startTerm(t testing.TB, o runOpts) *ptyTerm {
	t.Helper()
	bin := binary(t)
	home := t.TempDir()
	cmd := exec.Command(bin, o.args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "TERM=xterm-256color", "LANG=C.UTF-8",
	}, o.env...)
	// The terminal is the session's controlling one, reached through
	// stdout: stdin may be the catalog.
	attrs := &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	if o.stdin != nil {
		cmd.Stdin = o.stdin
	}
	f, err := pty.StartWithAttrs(cmd, &pty.Winsize{Cols: uint16(o.w), Rows: uint16(o.h)}, attrs)
	if errors.Is(err, pty.ErrUnsupported) {
		t.Skip("no pseudo-terminals here")
	}
	if err != nil {
		t.Fatal(err)
	}
	tm := &ptyTerm{t: t, f: f, cmd: cmd, scr: newVScreen(o.w, o.h), wrote: make(chan struct{}, 1), readDone: make(chan struct{}), exited: make(chan struct{})}
	tm.scr.cursorFirst = o.cursorFirst
	go tm.read()
	go func() {
		tm.waitErr = cmd.Wait()
		close(tm.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-tm.exited:
		default:
			cmd.Process.Kill()
			<-tm.exited
		}
		f.Close()
	})
	return tm
}

func (tm *ptyTerm) read() {
	defer close(tm.readDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := tm.f.Read(buf)
		if n > 0 {
			tm.mu.Lock()
			tm.raw.Write(buf[:n])
			answer := tm.scr.write(buf[:n])
			tm.mu.Unlock()
			if len(answer) > 0 {
				tm.f.Write(answer)
			}
			select {
			case tm.wrote <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// screen is the terminal's screen now.
func (tm *ptyTerm) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.scr.text()
}

// waitFor waits until the screen satisfies ok.
func (tm *ptyTerm) waitFor(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(ptyDeadline)
	for {
		s := tm.screen()
		if ok(s) {
			return s
		}
		select {
		case <-tm.exited:
			tm.t.Fatalf("the explorer ended while waiting for %s (%v):\n%s", what, tm.waitErr, tm.output())
		default:
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("no %s on the screen after %s:\n%s", what, ptyDeadline, s)
		}
		select {
		case <-tm.wrote:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitText waits for every text on the screen.
func (tm *ptyTerm) waitText(texts ...string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q", texts), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// waitScored waits until the header names the embedder and scoring that
// gave the verdicts, and no work is left: what needs the scores works.
func (tm *ptyTerm) waitScored(similarity string) string {
	tm.t.Helper()
	return tm.waitFor("the verdicts by "+similarity, func(s string) bool {
		header, _, _ := strings.Cut(s, "\n")
		return strings.Contains(header, similarity) && strings.Contains(header, "FAIL") && !strings.Contains(header, "…")
	})
}

// waitGone waits until text is off the screen.
func (tm *ptyTerm) waitGone(text string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q gone", text), func(s string) bool { return !strings.Contains(s, text) })
}

// settle waits until the explorer has drawn nothing for 300 ms (at most
// the pty deadline), so that a key sent next is read on its own.
func (tm *ptyTerm) settle() {
	deadline := time.Now().Add(ptyDeadline)
	for time.Now().Before(deadline) {
		select {
		case <-tm.wrote:
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}

func (tm *ptyTerm) send(keys string) {
	tm.t.Helper()
	if _, err := tm.f.Write([]byte(keys)); err != nil {
		tm.t.Fatal(err)
	}
}

func (tm *ptyTerm) resize(w, h int) {
	tm.t.Helper()
	tm.mu.Lock()
	tm.scr.resize(w, h)
	tm.mu.Unlock()
	if err := pty.Setsize(tm.f, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)}); err != nil {
		tm.t.Fatal(err)
	}
}

// output is everything the program wrote, escapes stripped, for a
// failure's message.
func (tm *ptyTerm) output() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	raw := tm.raw.String()
	if len(raw) > 4000 {
		raw = raw[len(raw)-4000:]
	}
	return regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]`).ReplaceAllString(raw, "")
}

// end waits for the program to exit and checks it left as it should:
// exit 0, the normal screen back, and no panic on the terminal.
func (tm *ptyTerm) end() {
	tm.t.Helper()
	select {
	case <-tm.exited:
	case <-time.After(ptyDeadline):
		tm.t.Fatalf("the explorer did not exit after %s; screen:\n%s", ptyDeadline, tm.screen())
	}
	// The rest of the output, until the terminal's other end is gone.
	select {
	case <-tm.readDone:
	case <-time.After(10 * time.Second):
	}
	tm.mu.Lock()
	raw := tm.raw.String()
	enter, leave, alt := tm.scr.altEnter, tm.scr.altLeave, tm.scr.alt
	tm.mu.Unlock()
	if tm.waitErr != nil {
		tm.t.Errorf("exit: %v; output:\n%s", tm.waitErr, tm.output())
	}
	for _, bad := range []string{"panic", "goroutine ", "toolscope:"} {
		if strings.Contains(raw, bad) {
			tm.t.Errorf("%q on the terminal:\n%s", bad, tm.output())
		}
	}
	if enter != 1 || leave != 1 || alt {
		tm.t.Errorf("the alternate screen was entered %d and left %d times (still on it: %v)", enter, leave, alt)
	}
}

// selectedRow is the tool list's selected row: the first marked ▸, up to
// its pane's edge (other panes share the screen line).
func selectedRow(screen string) string {
	_, row, ok := strings.Cut(screen, "▸")
	if !ok {
		return ""
	}
	row, _, _ = strings.Cut(row, "│")
	return row
}

// footerOf is the screen's last line with text.
func footerOf(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return lines[len(lines)-1]
}

// copyDemo writes the demo catalog to a temporary file and returns its path.
func copyDemo(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile("fixtures/demo/ops-demo.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ops-demo.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExplorerWalkOnATerminal opens a catalog file at two sizes, moves with
// bursts of keys, jumps to the end of the ranking, resizes, filters, opens
// help, and quits.
func TestExplorerWalkOnATerminal(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, runOpts{w: size[0], h: size[1], args: []string{"--embedder", "mock", copyDemo(t)}})
			tm.waitScored("mock risk")
			tm.waitText("ops-demo.json", "FAIL", "get_volume_status")
			// Three rows in one read: all three count.
			tm.send("jjj")
			tm.waitFor("the fourth tool selected", func(s string) bool { return strings.Contains(selectedRow(s), "resize_volume") })
			tm.send("kk")
			tm.waitFor("the second tool selected", func(s string) bool { return strings.Contains(selectedRow(s), "hist_volume_status") })

			// The ranking, to its end and back.
			tm.send("3g")
			s := tm.waitText("Ranking")
			tm.send("G")
			last := regexp.MustCompile(`\b(\d+)/(\d+)\b`)
			tm.waitFor("the last ranked pair selected", func(s string) bool {
				for _, m := range last.FindAllStringSubmatch(s, -1) {
					if m[1] == m[2] && m[1] != "1" && strings.Contains(s, "Ranking") {
						return true
					}
				}
				return false
			})
			_ = s

			// A resize to a tiny terminal and back.
			tm.resize(30, 10)
			tm.waitFor("the screen at 30 columns", func(s string) bool {
				for _, l := range strings.Split(s, "\n") {
					if len([]rune(l)) > 30 {
						return false
					}
				}
				return strings.Contains(s, "quit")
			})
			tm.resize(size[0], size[1])
			tm.waitText("Ranking")

			// The filter, then help, closed by q.
			tm.send("1/hist")
			filtered := regexp.MustCompile(`Tools \d+/21`)
			tm.waitFor("the filtered list", func(s string) bool {
				// Wide, the ranking beside the list follows the filter.
				wide := size[0] >= 140
				return filtered.MatchString(s) && strings.Contains(s, "hist_volume_metrics") && (!wide || strings.Contains(s, "Ranking · filtered"))
			})
			tm.send("\x1b")
			tm.waitText("Tools 21")
			tm.send("?")
			tm.waitText("Help")
			tm.send("q")
			tm.waitGone("Help")
			tm.send("q")
			tm.end()
		})
	}
}

// TestExplorerQuitsEveryWay ends the explorer every way there is, from
// every screen that takes keys, and checks each exit.
func TestExplorerQuitsEveryWay(t *testing.T) {
	type step struct{ keys, wait string }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"q", []step{{"q", ""}}},
		{"ctrl+c", []step{{"\x03", ""}}},
		{"ctrl+c from help", []step{{"?", "Help"}, {"\x03", ""}}},
		{"q closes help, then q", []step{{"?", "Help"}, {"q", "-Help"}, {"q", ""}}},
		{"ctrl+c from the drawer's editor", []step{{"a", "footer:esc back · ctrl+c quit"}, {"\x03", ""}}},
		{"q from the drawer", []step{{"a", "footer:esc back · ctrl+c quit"}, {"\x1b", "footer:? help · q quit"}, {"q", ""}}},
		{"ctrl+c from the what-if", []step{{"d", "What if"}, {"\x03", ""}}},
		{"esc from the what-if, then q", []step{{"d", "What if"}, {"\x1b", "-What if"}, {"q", ""}}},
		{"q from the comparison", []step{{"3", ""}, {"\r", "shared terms"}, {"q", ""}}},
		{"ctrl+c from the export prompt", []step{{"e", "JSON"}, {"\x03", ""}}},
		{"ctrl+c answers ctrl+r's question no, a second asks about the draft, y quits", []step{{"d", "What if"}, {"X", ""}, {"\x12", "drop the edited"}, {"q", "waiting for an answer"}, {"\x03", "-drop the edited"}, {"\x03", "quit and lose"}, {"y", ""}}},
		{"yes to the quit prompt", []step{{"a", "footer:esc back · ctrl+c quit"}, {"{", ""}, {"\x1b", "footer:? help · q quit"}, {"q", "quit and lose"}, {"y", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, runOpts{w: 120, h: 40, args: []string{"--embedder", "mock", copyDemo(t)}})
			tm.waitScored("mock risk")
			for _, s := range tc.steps {
				tm.send(s.keys)
				switch {
				case strings.HasPrefix(s.wait, "footer:"):
					// The footer is drawn last: once it shows the key's
					// effect, the key was taken (an esc and the next key
					// read together would be one alt key).
					tm.waitFor("the footer "+s.wait, func(scr string) bool {
						return strings.Contains(footerOf(scr), s.wait[len("footer:"):])
					})
				case strings.HasPrefix(s.wait, "-"):
					tm.waitGone(s.wait[1:])
				case s.wait != "":
					tm.waitText(s.wait)
				}
			}
			tm.end()
		})
	}
}

// TestExplorerSourcesOnATerminal opens each kind of source (a file,
// stdin, the bundled demo, a live server) and quits from it.
func TestExplorerSourcesOnATerminal(t *testing.T) {
	stdin := func(t *testing.T) *os.File {
		f, err := os.Open(copyDemo(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, tc := range []struct {
		name string
		opts func(t *testing.T) runOpts
	}{
		{"file", func(t *testing.T) runOpts { return runOpts{args: []string{"--embedder", "mock", copyDemo(t)}} }},
		{"stdin", func(t *testing.T) runOpts { return runOpts{args: []string{"--embedder", "mock", "-"}, stdin: stdin(t)} }},
		{"demo", func(t *testing.T) runOpts { return runOpts{} }},
		{"live server", func(t *testing.T) runOpts {
			return runOpts{args: []string{"--embedder", "mock", "--mcp-config", stdioConfig(t, livetest.Behaviour{})}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.opts(t)
			o.w, o.h = 100, 30
			tm := startTerm(t, o)
			// Every source here starts with the same volume tools.
			tm.waitText("hist_volume_status")
			tm.send("jj")
			tm.waitFor("the third tool selected", func(s string) bool { return strings.Contains(selectedRow(s), "list_volumes") })
			tm.send("q")
			tm.end()
		})
	}
}

// BenchmarkKeystrokeToFrame is a key typed on the terminal to the frame
// that shows it, through the built binary: j and k alternately in the
// tool list of the demo catalog at 200x60, each waited for on the screen.
func BenchmarkKeystrokeToFrame(b *testing.B) {
	tm := startTerm(b, runOpts{w: 200, h: 60, args: []string{"--embedder", "mock", copyDemo(b)}})
	tm.waitScored("mock risk")
	rows := []string{"hist_volume_status", "get_volume_status"}
	b.ResetTimer()
	for i := range b.N {
		tm.send([]string{"j", "k"}[i%2])
		tm.waitFor("the selection moved", func(s string) bool { return strings.Contains(selectedRow(s), rows[i%2]) })
	}
	b.StopTimer()
	tm.send("q")
	tm.end()
}

// TestExplorerColourFollowsTheTerminal pins colour and the terminal
// queries: NO_COLOR (or a terminal without colour) turns every style off;
// with colour, the screen is coloured. The one background-colour query
// (OSC 11, then CSI 6n to see whether the terminal answers) is Bubble Tea
// v1's, made when its package starts; the explorer adds none, and a dumb
// terminal gets none.
func TestExplorerColourFollowsTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		colour  bool
		queries int
	}{
		{"colour", nil, true, 2},
		{"NO_COLOR", []string{"NO_COLOR=1"}, false, 2},
		{"a terminal without colour", []string{"TERM=dumb"}, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, runOpts{w: 100, h: 30, args: []string{"--embedder", "mock", copyDemo(t)}, env: tc.env})
			tm.waitScored("mock risk")
			tm.send("q")
			tm.end()
			tm.mu.Lock()
			raw, queries := tm.raw.String(), tm.scr.queries
			tm.mu.Unlock()
			coloured := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|9[0-7]|38;5;[0-9]+)m`).MatchString(raw)
			styled := regexp.MustCompile(`\x1b\[[0-9;]*m`).MatchString(raw)
			if coloured != tc.colour || !tc.colour && styled {
				t.Errorf("coloured %v, styled %v; want colour %v", coloured, styled, tc.colour)
			}
			if queries > tc.queries {
				t.Errorf("%d terminal queries, want at most %d", queries, tc.queries)
			}
		})
	}
}

// TestExplorerQuitsWhenTheTerminalAnswersOutOfOrder pins q on a terminal
// that answers the cursor query before the colour query: the colour's
// answer then reaches the explorer as input, and must not be taken for
// keys (its "/" opened the filter, which then took the q as text).
func TestExplorerQuitsWhenTheTerminalAnswersOutOfOrder(t *testing.T) {
	tm := startTerm(t, runOpts{w: 120, h: 40, args: []string{"--embedder", "mock", "--no-config", copyDemo(t)}, cursorFirst: true})
	tm.waitScored("mock risk")
	if s := tm.screen(); strings.Contains(s, "rgb:") || strings.Contains(s, "0000/0000") {
		t.Fatalf("the terminal's answer shows on the screen:\n%s", s)
	}
	tm.send("q")
	tm.end()
}
