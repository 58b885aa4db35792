//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEndlessFIFOStopsAtTheLimit: a FIFO fed for ever is read no further
// than the limit.
func TestEndlessFIFOStopsAtTheLimit(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "catalog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	go func() {
		// The writer stops when the reader closes its end.
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = io.Copy(f, &endless{})
	}()
	code, _, errOut := runCmd("", "lint", "--no-similarity", fifo)
	want := "toolscope lint: " + fifo + ": over the 64 MiB input limit"
	if lines := withoutProgress(errOut); code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line starting %q", code, errOut, want)
	}
}
