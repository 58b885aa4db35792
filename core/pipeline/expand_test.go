package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A directory's walk that cannot read a subdirectory names the
// subdirectory, not the directory given.
func TestWalkErrorNamesTheSubdirectory(t *testing.T) {
	err := walkError(".", &fs.PathError{Op: "open", Path: "services/private", Err: fs.ErrPermission})
	if got := err.Error(); got != "services/private: permission denied" {
		t.Errorf("got %q", got)
	}
	if got := walkError("tools", errors.New("broken")).Error(); got != "tools: broken" {
		t.Errorf("got %q", got)
	}
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory: the walk itself is not tried")
	}
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	if err := os.Mkdir(private, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(private, 0o755) })
	if _, err := Expand([]string{dir}); err == nil || !strings.HasPrefix(err.Error(), private+":") {
		t.Errorf("error %v, want it to name %s", err, private)
	}
}
