package tui

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/fsnotify/fsnotify"
)

// settle is how long the watcher waits after the last event before it
// reports a change: an editor's save is several events (write, rename,
// chmod) and the catalog should be read once, whole.
const settle = 150 * time.Millisecond

// watcher reports saves of one file. It watches the file's directory, not
// the file, because editors save by writing a new file and renaming it over
// the old one, which a watch on the file itself would lose.
type watcher struct {
	fs      *fsnotify.Watcher
	changes chan struct{}
	errs    chan error
	done    chan struct{}
	// once makes close safe to call again: the explorer is closed both
	// when it quits and when its caller cleans up.
	once sync.Once
}

// fileChangedMsg says the watched file was saved.
type fileChangedMsg struct{}

// watchErrMsg says watching failed; the explorer keeps running without it.
type watchErrMsg struct{ err error }

func startWatch(path string) (*watcher, error) {
	fs, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("watch %s: %w", path, err)
	}
	if err := fs.Add(filepath.Dir(abs)); err != nil {
		fs.Close()
		return nil, fmt.Errorf("watch %s: %w", path, err)
	}
	w := &watcher{fs: fs, changes: make(chan struct{}, 1), errs: make(chan error, 1), done: make(chan struct{})}
	go w.loop(abs)
	return w, nil
}

func (w *watcher) loop(abs string) {
	var timer <-chan time.Time
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == abs && !ev.Has(fsnotify.Chmod) {
				timer = time.After(settle)
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			select {
			case w.errs <- err:
			default:
			}
		case <-timer:
			timer = nil
			// One pending change is enough: a reload reads the latest file.
			select {
			case w.changes <- struct{}{}:
			default:
			}
		case <-w.done:
			return
		}
	}
}

// next waits for the next change or error.
func (w *watcher) next() tea.Cmd {
	return func() tea.Msg {
		select {
		case <-w.changes:
			return fileChangedMsg{}
		case err := <-w.errs:
			return watchErrMsg{err}
		case <-w.done:
			return nil
		}
	}
}

// close stops the watch; calling it again does nothing.
func (w *watcher) close() {
	w.once.Do(func() {
		close(w.done)
		w.fs.Close()
	})
}
