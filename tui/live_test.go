package tui

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/live"
	"toolscope/core/live/livetest"
)

// A real server whose tools change after the first list: its
// notification reaches the explorer, which lists again and shows the new
// tool.
func TestLiveServerNotificationRelists(t *testing.T) {
	srv := httptest.NewServer(livetest.Handler(livetest.Behaviour{ChangeAfterList: true}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	src, err := live.Open(ctx, live.Spec{URL: srv.URL}, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat, err := src.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	opts.Catalog, opts.Reload, opts.Changes, opts.Origin = cat, src.List, src.Changes(), "live "+src.String()
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.Init()
	before := len(m.snap.cat.Tools)

	var news tea.Msg
	select {
	case news = <-runAsync(waitChange(src.Changes())):
	case <-ctx.Done():
		t.Fatal("no list_changed notification from the server")
	}
	_, cmd := m.Update(news)
	// The reply to the news is a re-list and a new wait for news, which
	// never returns here: run the re-list, leave the wait.
	loaded := false
	for _, c := range cmd().(tea.BatchMsg) {
		patience := 10 * time.Second
		if loaded {
			patience = 100 * time.Millisecond
		}
		select {
		case msg := <-runAsync(c):
			if _, ok := msg.(loadedMsg); ok {
				loaded = true
				drain(m, func() tea.Msg { return msg })
			}
		case <-time.After(patience):
		}
	}
	if got := len(m.snap.cat.Tools); got != before+1 {
		t.Errorf("after the notification: %d tools, want %d", got, before+1)
	}
}

func runAsync(c tea.Cmd) <-chan tea.Msg {
	out := make(chan tea.Msg, 1)
	go func() { out <- c() }()
	return out
}
