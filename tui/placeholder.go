package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// placeholder stands in for a pane whose engine has not landed yet.
type placeholder struct{ name string }

func newPlaceholder(name string) *placeholder { return &placeholder{name} }
func (p *placeholder) setSize(w, h int)       {}
func (p *placeholder) Update(tea.Msg) tea.Cmd { return nil }
func (p *placeholder) View() string           { return "" }
func (p *placeholder) title() string          { return p.name }
func (p *placeholder) Keys() []key.Binding    { return nil }
func (p *placeholder) Typing() bool           { return false }
