package tui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// drain runs cmd and every command its messages lead to, feeding each
// message back into the model, until nothing is left: the background work
// of a test, done in order.
func drain(m *Model, cmd tea.Cmd) { drainEach(m, cmd, nil) }

// drainEach is drain, calling each (when set) after every message taken.
func drainEach(m *Model, cmd tea.Cmd, each func(tea.Msg)) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			if each != nil {
				each(msg)
			}
			queue = append(queue, next)
		}
	}
}
