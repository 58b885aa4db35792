package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
)

// goldenScreens are the main screens, each reached by keys from the
// first frame once the similarity is in.
var goldenScreens = []struct {
	name string
	keys []tea.KeyMsg
	// wait is text the screen shows once the keys' background work is in.
	wait string
	// probed opens the explorer with a recorded probe (testProbe).
	probed bool
}{
	{"main", nil, "", false},
	{"tool", []tea.KeyMsg{keyMsg("end"), keyMsg("2"), keyMsg("w")}, "", false},
	{"ranking", []tea.KeyMsg{keyMsg("3"), keyMsg("g")}, "", false},
	{"drawer", []tea.KeyMsg{keyMsg("down"), keyMsg("a"),
		{Type: tea.KeyRunes, Runes: []rune(`{"volume_id": "vol-1", "window": "2 hours", "extra": 1}`), Paste: true}}, `model's own "2 hours"`, false},
	{"compare", []tea.KeyMsg{keyMsg("3"), keyMsg("enter")}, "", false},
	{"ranking_probed", []tea.KeyMsg{keyMsg("3"), keyMsg("g")}, "", true},
}

// TestGoldens runs the explorer as a program at 80x24 and 160x45, colour
// off, and pins each main screen; `go test ./tui -update` rewrites them.
func TestGoldens(t *testing.T) {
	profile := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.Ascii)
	defer lipgloss.SetColorProfile(profile)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		for _, sc := range goldenScreens {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				opts := mockOptions(t)
				if sc.probed {
					opts.Probe = testProbe(t)
				}
				tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(size[0], size[1]))
				// The verdicts and the findings are both in once the header
				// names the embedder and the gate fails (the catalog has an
				// error).
				teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
					return bytes.Contains(b, []byte("mock risk")) && bytes.Contains(b, []byte("FAIL"))
				},
					teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
				for _, k := range sc.keys {
					tm.Send(k)
				}
				if sc.wait != "" {
					teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(sc.wait)) },
						teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
				view := final.View()
				if w, h := lipgloss.Width(view), lipgloss.Height(view); w > size[0] || h > size[1] {
					t.Fatalf("screen is %dx%d in a %dx%d terminal", w, h, size[0], size[1])
				}
				teatest.RequireEqualOutput(t, []byte(trimLines(view)))
			})
		}
	}
}

// trimLines drops the padding at the ends of lines, which says nothing
// and makes diffs noisy.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}
