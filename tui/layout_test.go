package tui

import "testing"

func TestLayoutConstantsAgree(t *testing.T) {
	if StackMinWidth >= WideMinWidth {
		t.Errorf("StackMinWidth %d must be below WideMinWidth %d", StackMinWidth, WideMinWidth)
	}
	// The wide panes at their widest must leave the tool pane room.
	if WideMinWidth-ToolsMinWidth-PairsMinWidth < 40 {
		t.Errorf("at WideMinWidth the tool pane gets %d cells, want at least 40", WideMinWidth-ToolsMinWidth-PairsMinWidth)
	}
	if StackMinWidth-ToolsMaxWidth < 50 {
		t.Errorf("at StackMinWidth the right column gets %d cells, want at least 50", StackMinWidth-ToolsMaxWidth)
	}
	if SplitMinHeight-2 < PanesMinHeight+DrawerMinHeight {
		t.Errorf("SplitMinHeight %d leaves the panes and the drawer less than %d+%d", SplitMinHeight, PanesMinHeight, DrawerMinHeight)
	}
}

func TestComputeLayoutModes(t *testing.T) {
	tests := []struct {
		name   string
		w, h   int
		drawer bool
		want   Mode
	}{
		{"80x24 is tabs", 80, 24, false, ModeTabs},
		{"99 wide is tabs", 99, 40, false, ModeTabs},
		{"100 wide stacks", 100, 30, false, ModeStack},
		{"139 wide stacks", 139, 30, false, ModeStack},
		{"140 wide is wide", 140, 30, false, ModeWide},
		{"160x45 is wide", 160, 45, false, ModeWide},
		{"wide but short is tabs", 200, SplitMinHeight - 1, false, ModeTabs},
		{"drawer opens beside the panes at the least height", 160, SplitMinHeight, true, ModeWide},
		{"drawer fits beside the panes", 160, 45, true, ModeWide},
		{"tiny", 20, 5, true, ModeTabs},
		{"nothing", 0, 0, false, ModeTabs},
		{"negative", -3, -9, true, ModeTabs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ComputeLayout(tt.w, tt.h, tt.drawer, false)
			if l.Mode != tt.want {
				t.Fatalf("mode = %v, want %v", l.Mode, tt.want)
			}
		})
	}
}

func TestComputeLayoutWide(t *testing.T) {
	l := ComputeLayout(160, 45, true, false)
	if l.Header != (Rect{0, 0, 160, 1}) || l.Footer != (Rect{0, 44, 160, 1}) {
		t.Fatalf("header %v footer %v", l.Header, l.Footer)
	}
	if got := l.Tools.W + l.Tool.W + l.Pairs.W; got != 160 {
		t.Errorf("pane widths sum to %d, want 160", got)
	}
	if l.Tools.X+l.Tools.W != l.Tool.X || l.Tool.X+l.Tool.W != l.Pairs.X {
		t.Errorf("panes do not abut: %v %v %v", l.Tools, l.Tool, l.Pairs)
	}
	if l.Drawer.Y != l.Tools.Y+l.Tools.H || l.Drawer.Y+l.Drawer.H != l.Footer.Y {
		t.Errorf("drawer %v does not fill between panes %v and footer %v", l.Drawer, l.Tools, l.Footer)
	}
	if l.Drawer.H < DrawerMinHeight || l.Tools.H < PanesMinHeight {
		t.Errorf("drawer %d / panes %d under their minimum", l.Drawer.H, l.Tools.H)
	}
	closed := ComputeLayout(160, 45, false, false)
	if !closed.Drawer.Empty() || closed.Tools.H != 43 {
		t.Errorf("closed drawer: drawer %v, tools height %d want 43", closed.Drawer, closed.Tools.H)
	}
}

func TestComputeLayoutStack(t *testing.T) {
	l := ComputeLayout(120, 40, false, false)
	if l.Tool.X != l.Tools.W || l.Pairs.X != l.Tools.W {
		t.Errorf("right column not beside the tools: %v %v %v", l.Tools, l.Tool, l.Pairs)
	}
	if l.Tool.H+l.Pairs.H != l.Tools.H || l.Pairs.Y != l.Tool.Y+l.Tool.H {
		t.Errorf("tool %v over pairs %v does not fill the tools height %d", l.Tool, l.Pairs, l.Tools.H)
	}
}

func TestComputeLayoutBanner(t *testing.T) {
	l := ComputeLayout(160, 45, false, true)
	if l.Banner != (Rect{0, 1, 160, 1}) || l.Tools.Y != 2 || l.Tools.H != 42 {
		t.Errorf("banner %v, tools %v", l.Banner, l.Tools)
	}
	if l := ComputeLayout(80, BannerMinHeight-1, false, true); !l.Banner.Empty() {
		t.Errorf("banner %v on a %d-line screen", l.Banner, BannerMinHeight-1)
	}
	// The banner takes a line from the panes, which may tip a short
	// screen into tabs.
	if l := ComputeLayout(160, SplitMinHeight, false, true); l.Mode != ModeTabs {
		t.Errorf("mode %v at the least split height with a banner", l.Mode)
	}
}

func TestComputeLayoutTabs(t *testing.T) {
	l := ComputeLayout(80, 24, false, false)
	if l.TabBar != (Rect{0, 1, 80, 1}) {
		t.Errorf("tab bar %v", l.TabBar)
	}
	if l.Body != (Rect{0, 2, 80, 21}) {
		t.Errorf("body %v", l.Body)
	}
	for _, r := range []Rect{l.Tools, l.Tool, l.Pairs, l.Drawer} {
		if r != l.Body {
			t.Errorf("pane %v is not the body %v", r, l.Body)
		}
	}
}

// Every rect stays inside the terminal and nothing overlaps the header or
// footer, at every size the explorer may meet.
func TestComputeLayoutFitsEverySize(t *testing.T) {
	for w := 0; w <= 250; w += 3 {
		for h := 0; h <= 80; h++ {
			for _, flags := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				drawer := flags[0]
				l := ComputeLayout(w, h, drawer, flags[1])
				for name, r := range map[string]Rect{"header": l.Header, "banner": l.Banner, "tabs": l.TabBar, "footer": l.Footer, "body": l.Body, "tools": l.Tools, "tool": l.Tool, "pairs": l.Pairs, "drawer": l.Drawer} {
					if r.Empty() {
						continue
					}
					if r.X < 0 || r.Y < 0 || r.X+r.W > w || r.Y+r.H > h {
						t.Fatalf("%dx%d drawer=%v: %s %v outside the terminal", w, h, drawer, name, r)
					}
					if name != "header" && name != "banner" && r.Y < l.Header.H+l.Banner.H {
						t.Fatalf("%dx%d: %s %v overlaps the header", w, h, name, r)
					}
					if name != "footer" && !l.Footer.Empty() && r.Y+r.H > l.Footer.Y {
						t.Fatalf("%dx%d: %s %v overlaps the footer", w, h, name, r)
					}
				}
			}
		}
	}
}
