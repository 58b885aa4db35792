package tui

// Mode is how the panes share the screen.
type Mode int

// The three arrangements, narrowest first.
const (
	// ModeTabs shows one pane at a time under a tab bar (80x24 and below).
	ModeTabs Mode = iota
	// ModeStack puts the tool list on the left and the tool over the pairs
	// on the right.
	ModeStack
	// ModeWide puts the tool list, the tool and the pairs side by side.
	ModeWide
)

// Layout thresholds and bounds, in terminal cells. They are checked against
// each other in the layout tests.
const (
	StackMinWidth  = 100 // narrower: tabs
	WideMinWidth   = 140 // narrower: stack
	SplitMinHeight = 18  // lower: tabs, whatever the width and drawer

	ToolsMinWidth = 28
	ToolsMaxWidth = 44
	PairsMinWidth = 38
	PairsMaxWidth = 100

	// PanesMinHeight is the least the pane row keeps when the drawer opens
	// beside it; DrawerMinHeight the least the drawer gets.
	PanesMinHeight  = 8
	DrawerMinHeight = 7
)

// Rect is a screen area; a zero Rect is not shown.
type Rect struct{ X, Y, W, H int }

// Empty reports whether r has no cells.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Layout places every part of the screen. In ModeTabs the pane rects are all
// Body (only the active tab is drawn) and Drawer is Body too.
type Layout struct {
	Mode   Mode
	Width  int
	Height int
	Header Rect
	// Banner is a line under the header for an error that must be seen.
	Banner Rect
	TabBar Rect
	Footer Rect
	// Body is the area under the header (and tab bar) above the footer.
	Body   Rect
	Tools  Rect
	Tool   Rect
	Pairs  Rect
	Drawer Rect
	// banner records that a banner was asked for, whether or not it fit.
	banner bool
}

// BannerMinHeight is the least height at which an error banner gets its
// own line; lower, the error waits for a larger screen.
const BannerMinHeight = 6

// ComputeLayout is the one place screen arithmetic happens: given the
// terminal size, whether the arguments drawer is open and whether an error
// banner is up, it returns where everything goes. Every rect lies inside
// the terminal, at any size.
func ComputeLayout(width, height int, drawerOpen, banner bool) Layout {
	width, height = max(width, 0), max(height, 0)
	l := Layout{Width: width, Height: height, banner: banner}
	// Header and footer first: the status and the key hints survive on the
	// smallest screens.
	top, bottom := 0, height
	if bottom-top >= 1 {
		l.Header = Rect{0, 0, width, 1}
		top++
	}
	if bottom-top >= 1 {
		l.Footer = Rect{0, height - 1, width, 1}
		bottom--
	}
	if banner && height >= BannerMinHeight {
		l.Banner = Rect{0, top, width, 1}
		top++
	}
	body := bottom - top
	if width < StackMinWidth || body < SplitMinHeight-2 {
		l.Mode = ModeTabs
		if body >= 1 {
			l.TabBar = Rect{0, top, width, 1}
			top++
			body--
		}
		l.Body = Rect{0, top, width, body}
		l.Tools, l.Tool, l.Pairs, l.Drawer = l.Body, l.Body, l.Body, l.Body
		return l
	}
	l.Body = Rect{0, top, width, body}
	// SplitMinHeight leaves room for both minimums (checked in the tests).
	drawerH := 0
	if drawerOpen {
		drawerH = min(max(body*2/5, DrawerMinHeight), body-PanesMinHeight)
	}
	panesH := body - drawerH
	if drawerOpen {
		l.Drawer = Rect{0, top + panesH, width, drawerH}
	}
	if width >= WideMinWidth {
		l.Mode = ModeWide
		toolsW := clampInt(width*22/100, ToolsMinWidth, ToolsMaxWidth)
		// The pairs get the larger share: names side by side need it,
		// while the tool's text wraps.
		pairsW := clampInt(width*40/100, PairsMinWidth, PairsMaxWidth)
		l.Tools = Rect{0, top, toolsW, panesH}
		l.Tool = Rect{toolsW, top, width - toolsW - pairsW, panesH}
		l.Pairs = Rect{width - pairsW, top, pairsW, panesH}
		return l
	}
	l.Mode = ModeStack
	toolsW := clampInt(width*30/100, ToolsMinWidth, ToolsMaxWidth)
	toolH := panesH * 3 / 5
	l.Tools = Rect{0, top, toolsW, panesH}
	l.Tool = Rect{toolsW, top, width - toolsW, toolH}
	l.Pairs = Rect{toolsW, top + toolH, width - toolsW, panesH - toolH}
	return l
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }
