package tui

import "github.com/charmbracelet/lipgloss"

// Styles holds every look the explorer uses, built once; panes take their
// frame sizes from here rather than from magic numbers.
type Styles struct {
	// Pane frames: the focused pane's border stands out.
	Pane        lipgloss.Style
	PaneFocused lipgloss.Style
	PaneTitle   lipgloss.Style

	Header   lipgloss.Style
	Footer   lipgloss.Style
	KeyHint  lipgloss.Style
	Tab      lipgloss.Style
	TabOn    lipgloss.Style
	Selected lipgloss.Style
	Match    lipgloss.Style
	Plain    lipgloss.Style
	Muted    lipgloss.Style
	Bold     lipgloss.Style

	// Verdicts and severities.
	Error      lipgloss.Style
	Warn       lipgloss.Style
	OK         lipgloss.Style
	Confusable lipgloss.Style
	Watch      lipgloss.Style

	// Term marks in the pair comparison.
	Shared   lipgloss.Style
	Distinct lipgloss.Style

	Overlay lipgloss.Style
}

// DefaultStyles is the explorer's palette; colours degrade to plain text
// when the terminal (or a test) has none.
func DefaultStyles() Styles {
	border := lipgloss.RoundedBorder()
	pane := lipgloss.NewStyle().Border(border).BorderForeground(lipgloss.Color("240"))
	return Styles{
		Pane:        pane,
		PaneFocused: pane.BorderForeground(lipgloss.Color("12")),
		PaneTitle:   lipgloss.NewStyle().Bold(true),
		Header:      lipgloss.NewStyle().Bold(true),
		Footer:      lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		KeyHint:     lipgloss.NewStyle().Foreground(lipgloss.Color("12")),
		Tab:         lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		TabOn:       lipgloss.NewStyle().Bold(true).Underline(true),
		Selected:    lipgloss.NewStyle().Reverse(true),
		Match:       lipgloss.NewStyle().Foreground(lipgloss.Color("11")).Underline(true),
		Plain:       lipgloss.NewStyle(),
		Muted:       lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		Bold:        lipgloss.NewStyle().Bold(true),
		Error:       lipgloss.NewStyle().Foreground(lipgloss.Color("9")),
		Warn:        lipgloss.NewStyle().Foreground(lipgloss.Color("11")),
		OK:          lipgloss.NewStyle().Foreground(lipgloss.Color("10")),
		Confusable:  lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Bold(true),
		Watch:       lipgloss.NewStyle().Foreground(lipgloss.Color("11")),
		Shared:      lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Underline(true),
		Distinct:    lipgloss.NewStyle().Foreground(lipgloss.Color("10")).Bold(true),
		Overlay:     lipgloss.NewStyle().Border(border).BorderForeground(lipgloss.Color("12")).Padding(0, 1),
	}
}
