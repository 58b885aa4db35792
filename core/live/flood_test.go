package live_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/live"
	"toolscope/core/live/livetest"
	"toolscope/tui"
)

// TestListChangedFloodInTheExplorer: a stdio server that sends thousands
// of list_changed at once is re-listed a handful of times by the
// explorer, never twice at once, and the last re-list sees its last
// change. (The test binary serves as the server: see TestMain.)
func TestListChangedFloodInTheExplorer(t *testing.T) {
	const flood = 5000
	b, err := json.Marshal(livetest.Behaviour{FloodChanges: flood, Legacy: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	src, err := live.Open(ctx, live.Spec{Command: os.Args[0], Env: map[string]string{livetest.EnvBehaviour: string(b)}}, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat, err := src.List(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	relists, running, most := 0, 0, 0
	sawAdded := make(chan struct{})
	var once sync.Once
	reload := func(ctx context.Context) (*catalog.Catalog, error) {
		mu.Lock()
		relists++
		running++
		most = max(most, running)
		mu.Unlock()
		c, err := src.List(ctx)
		mu.Lock()
		running--
		mu.Unlock()
		if _, ok := c.Lookup(livetest.Added); err == nil && ok {
			once.Do(func() { close(sawAdded) })
		}
		return c, err
	}
	keys, keysW := io.Pipe()
	defer keysW.Close()
	p := tea.NewProgram(tui.New(tui.Options{Catalog: cat, Reload: reload, Changes: src.Changes(), Now: time.Now}),
		tea.WithInput(keys), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case <-sawAdded:
	case <-ctx.Done():
		t.Error("no re-list saw the tool added after the flood")
	}
	p.Quit()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if most != 1 {
		t.Errorf("%d re-lists ran at once, want 1", most)
	}
	if relists > flood/100 {
		t.Errorf("%d notifications made %d re-lists, want a handful", flood, relists)
	}
	t.Logf("%d notifications: %d re-lists", flood, relists)
}
