package live

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"toolscope/core/live/livetest"
)

// envOrphanHelper makes TestServerDiesWithToolscope, re-executed, play the
// toolscope that is killed: it lists a server, prints its pid and waits
// for its own end.
const envOrphanHelper = "TOOLSCOPE_TEST_ORPHAN_HELPER"

// gone reports whether pid has ended: no such process, or a zombie that
// whoever adopted it has not reaped yet.
func gone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the command name, which is in parentheses.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	return strings.HasPrefix(strings.TrimSpace(rest), "Z")
}

// TestServerDiesWithToolscope: a toolscope killed outright (SIGKILL, the
// OOM killer) cannot close its stdio server, which runs in its own process
// group; the kernel ends it instead, even one that ignores its stdin
// closing and SIGTERM.
func TestServerDiesWithToolscope(t *testing.T) {
	if os.Getenv(envOrphanHelper) != "" {
		s, err := Open(context.Background(), stdioSpec(t, livetest.Behaviour{Linger: true}), testOptions(transport{}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.List(context.Background()); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("server %d\n", s.conn(0).proc.cmd.Process.Pid)
		time.Sleep(time.Minute) // killed long before
		return
	}
	helper := exec.Command(os.Args[0], "-test.run=^TestServerDiesWithToolscope$")
	helper.Env = append(os.Environ(), envOrphanHelper+"=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer helper.Process.Kill()
	// The helper prints the server's pid once it has listed it; a failed
	// helper ends its output without one. Its test framework output may
	// come first.
	var pid int
	lines := bufio.NewScanner(out)
	for pid == 0 && lines.Scan() {
		if n, ok := strings.CutPrefix(lines.Text(), "server "); ok {
			pid, _ = strconv.Atoi(n)
		}
	}
	if pid == 0 {
		t.Fatal("the helper listed no server")
	}
	defer syscall.Kill(pid, syscall.SIGKILL) // should the test fail
	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	end := time.Now().Add(5 * time.Second)
	for !gone(pid) && time.Now().Before(end) {
		time.Sleep(20 * time.Millisecond)
	}
	if !gone(pid) {
		t.Errorf("server %d outlived the toolscope that started it by 5s", pid)
	}
}
