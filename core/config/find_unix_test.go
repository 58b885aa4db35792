//go:build unix

package config

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A toolscope.yaml found by search that is a named pipe is refused with
// a line naming it: read, it would block lint for ever.
func TestFindRefusesANamedPipe(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got, err := Find(dir)
	if err == nil || got != "" || !strings.HasPrefix(err.Error(), p+": not a regular file") {
		t.Errorf("Find = %q, %v; want the pipe refused", got, err)
	}
}
