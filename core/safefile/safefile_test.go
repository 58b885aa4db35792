//go:build unix

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// leftovers lists the files in dir other than the names given.
func leftovers(t *testing.T, dir string, keep ...string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		found := false
		for _, k := range keep {
			found = found || e.Name() == k
		}
		if !found {
			out = append(out, e.Name())
		}
	}
	return out
}

// A planted PATH.tmp symlink is never written through; the target is
// replaced by a regular file holding the new data, and the file the
// symlink pointed at is untouched.
func TestWriteIgnoresAPlantedTempSymlink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	path := filepath.Join(dir, "baseline.json")
	os.WriteFile(path, []byte("old"), 0o600)
	os.Symlink(victim, path+".tmp")
	if err := Write(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("the target is not a regular file: %v %v", st, err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode %v was not kept", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("the target holds %q", b)
	}
	if left := leftovers(t, dir, "baseline.json", "baseline.json.tmp"); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// Anything but a regular file at the target is refused and left as it
// is: a symlink (to a file or dangling), a FIFO, a directory, a device.
func TestWriteRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("precious"), 0o644)
	tests := []struct {
		name string
		make func(path string) error
		kind string
	}{
		{"a symlink", func(p string) error { return os.Symlink(outside, p) }, "a symlink"},
		{"a dangling symlink", func(p string) error { return os.Symlink(filepath.Join(dir, "nowhere"), p) }, "a symlink"},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "a FIFO"},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }, "a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := tt.make(path); err != nil {
				t.Skip(err)
			}
			before, _ := os.Lstat(path)
			err := Write(path, []byte("new"))
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tt.kind) || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("Write = %v; want a refusal naming %s", err, tt.kind)
			}
			after, _ := os.Lstat(path)
			if after == nil || after.Mode() != before.Mode() {
				t.Errorf("the %s was replaced", tt.name)
			}
		})
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("written through a symlink: %q", b)
	}
	full := deviceFull(t)
	if err := Write(full, []byte("x")); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
		t.Errorf("Write %s = %v", full, err)
	}
	if st, err := os.Lstat(full); err != nil || st.Mode().IsRegular() {
		t.Errorf("%s became a regular file", full)
	}
	if left := leftovers(t, dir, "a_symlink", "a_dangling_symlink", "a_FIFO", "a_directory"); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// A write that fails (the rendering, or the disk) leaves the old file and
// no temp file.
func TestFailedWriteLeavesTheOldFileAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "toolscope.yaml")
	os.WriteFile(path, []byte("old"), 0o644)
	boom := errors.New("boom")
	err := WriteFunc(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("WriteFunc = %v", err)
	}
	// A file size limit makes the disk "full" for this process.
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = 4096
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	err = Write(path, make([]byte, 1<<20))
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	if err == nil {
		t.Error("a write past the file size limit succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the old file holds %q", b)
	}
	if left := leftovers(t, dir, "toolscope.yaml"); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// Create makes a new file and refuses to replace anything, a dangling
// symlink included.
func TestCreate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "toolscope.yaml")
	if err := Create(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := Create(path, []byte("two")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over a file = %v", err)
	}
	link := filepath.Join(dir, "link.yaml")
	target := filepath.Join(dir, "created-through-the-link")
	os.Symlink(target, link)
	if err := Create(link, []byte("x")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over a dangling symlink = %v", err)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("Create wrote through a dangling symlink")
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("the file holds %q", b)
	}
	if left := leftovers(t, dir, "toolscope.yaml", "link.yaml"); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// Writers that read, change and write the same file under Lock lose none
// of each other's changes.
func TestLockKeepsEveryConcurrentChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "list")
	const writers = 20
	errs := make(chan error, writers)
	for i := range writers {
		go func() {
			unlock, err := Lock(path)
			if err != nil {
				errs <- err
				return
			}
			defer unlock()
			old, err := os.ReadFile(path)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs <- err
				return
			}
			errs <- Write(path, append(old, byte('a'+i), '\n'))
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "\n"); n != writers {
		t.Errorf("%d of %d changes kept:\n%s", n, writers, b)
	}
}

// deviceFull is a full device to write to: a copy of /dev/full in a temp
// directory when the tests may make one (root), else /dev/full itself, in
// a directory the tests cannot write, so a regression cannot replace it.
func deviceFull(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 7))); err == nil {
		return p
	}
	if os.Getuid() == 0 {
		t.Fatal("root and no device node made: not touching /dev/full")
	}
	return "/dev/full"
}

// SameFile compares files by identity: a symlink and a hard link to a
// file are that file, a path not yet made is compared with its folder's
// symlinks resolved, and two files are two.
func TestSameFileComparesIdentity(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	b := filepath.Join(dir, "b.json")
	os.WriteFile(a, []byte("a"), 0o644)
	os.WriteFile(b, []byte("a"), 0o644)
	os.Symlink(a, filepath.Join(dir, "sym.json"))
	os.Link(a, filepath.Join(dir, "hard.json"))
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "alias"))
	cases := []struct {
		x, y string
		same bool
	}{
		{a, a, true},
		{a, filepath.Join(dir, ".", "a.json"), true},
		{a, filepath.Join(dir, "sym.json"), true},
		{a, filepath.Join(dir, "hard.json"), true},
		{a, b, false},
		{filepath.Join(dir, "real", "new.json"), filepath.Join(dir, "alias", "new.json"), true},
		{filepath.Join(dir, "real", "new.json"), filepath.Join(dir, "real", "other.json"), false},
	}
	for _, c := range cases {
		if got := SameFile(c.x, c.y); got != c.same {
			t.Errorf("SameFile(%s, %s) = %v, want %v", c.x, c.y, got, c.same)
		}
	}
}
