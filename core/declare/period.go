package declare

import (
	"slices"
	"strings"
	"time"

	"toolscope/core/jsonv"
)

// Period is a tool's period declaration, read and judged: which arguments
// bound the window the answer covers, how they are written, and the facts
// about the source.
type Period struct {
	// Sugar is true when the tool used the single-argument form (argument +
	// spelling or accepts); Forms then holds the one joined form it means.
	Sugar bool
	// Forms are the alternatives a call may take, in preference order.
	Forms []Form
	Facts Facts
	// Pos is where the declaration stands in the source.
	Pos jsonv.Pos
}

// FormKind names the shape of one period form.
type FormKind string

// The shapes a period form may take.
const (
	// KindJoined is one string argument holding the whole window, spelled
	// as one of the PeriodSpellings.
	KindJoined FormKind = "joined"
	// KindBounds is two arguments, one per end of the window.
	KindBounds FormKind = "bounds"
	// KindObject is one object argument holding both ends under two keys.
	KindObject FormKind = "object"
	// KindDay is one `YYYY-MM-DD` argument: that whole day.
	KindDay FormKind = "day"
	// KindLookback is a number of units back from now.
	KindLookback FormKind = "lookback"
)

// formKinds lists the kinds in the order messages name them.
var formKinds = []FormKind{KindJoined, KindBounds, KindObject, KindDay, KindLookback}

// As is how one end of a bounds or object form is written.
type As string

// The ways an end may be written.
const (
	AsEpochMS As = "epoch-ms" // milliseconds since 1970-01-01T00:00:00Z
	AsEpochS  As = "epoch-s"  // seconds since 1970-01-01T00:00:00Z
	AsISO     As = "iso"      // an ISO 8601 instant with a zone
	AsWall    As = "wall"     // a wall time with no zone
	AsDate    As = "date"     // a day, YYYY-MM-DD
)

var asValues = []As{AsEpochMS, AsEpochS, AsISO, AsWall, AsDate}

// Edge says whether the end of a window belongs to it.
type Edge string

// The two edges; an end that declares none is read as inclusive.
const (
	EdgeInclusive Edge = "inclusive"
	EdgeExclusive Edge = "exclusive"
)

// Bound is one end of a bounds form (Argument is an argument) or of an
// object form (Argument is a key inside the object argument).
type Bound struct {
	Argument string
	As       As
	Edge     Edge
}

// Form is one shape a call may give its period in.
type Form struct {
	Kind FormKind
	// Argument carries the window in joined, object, day and lookback forms
	// (in a lookback form, the number of units).
	Argument string
	// Spellings are a joined form's spellings, in preference order.
	Spellings []Spelling
	// From and To are the ends of a bounds or object form.
	From, To Bound
	// Unit is a lookback form's fixed unit; UnitArgument names the argument
	// that carries the unit instead.
	Unit         string
	UnitArgument string
	// ZoneArgument carries the IANA zone the form's wall times, dates and
	// days are read in.
	ZoneArgument string
}

// windowArguments are the arguments that carry the window itself: every
// argument of the form but its zone. A form is given whole when the call
// gives all of them.
func (f *Form) windowArguments() []string {
	switch f.Kind {
	case KindBounds:
		return []string{f.From.Argument, f.To.Argument}
	case KindLookback:
		if f.UnitArgument != "" {
			return []string{f.Argument, f.UnitArgument}
		}
	}
	return []string{f.Argument}
}

// Arguments lists every argument the form names, its zone argument last.
func (f *Form) Arguments() []string {
	args := f.windowArguments()
	if f.ZoneArgument != "" {
		args = append(args, f.ZoneArgument)
	}
	return args
}

// String describes the form in a few words: `bounds start_time (epoch-ms) ..
// end_time (epoch-ms, exclusive)`.
func (f *Form) String() string {
	var b strings.Builder
	b.WriteString(string(f.Kind))
	b.WriteByte(' ')
	switch f.Kind {
	case KindJoined:
		b.WriteString(f.Argument)
		b.WriteString(" (")
		b.WriteString(joinNames(f.Spellings, " or "))
		b.WriteByte(')')
	case KindBounds:
		writeBound(&b, f.From, false)
		b.WriteString(" .. ")
		writeBound(&b, f.To, true)
	case KindObject:
		b.WriteString(f.Argument)
		b.WriteString(" {")
		b.WriteString(f.From.Argument)
		b.WriteString(" .. ")
		b.WriteString(f.To.Argument)
		b.WriteString("} ")
		writeBound(&b, Bound{As: f.To.As, Edge: f.To.Edge}, true)
	case KindDay:
		if f.Argument == string(KindDay) {
			// An argument named day would read "day day".
			b.WriteString("(argument day)")
			break
		}
		b.WriteString(f.Argument)
	case KindLookback:
		b.WriteString(f.Argument)
		if f.UnitArgument != "" {
			b.WriteString(" x ")
			b.WriteString(f.UnitArgument)
		} else {
			b.WriteString(" (")
			b.WriteString(f.Unit)
			b.WriteByte(')')
		}
	}
	if f.ZoneArgument != "" {
		b.WriteString(", zone in ")
		b.WriteString(f.ZoneArgument)
	}
	return b.String()
}

func writeBound(b *strings.Builder, bd Bound, end bool) {
	if bd.Argument != "" {
		b.WriteString(bd.Argument)
		b.WriteByte(' ')
	}
	b.WriteByte('(')
	b.WriteString(string(bd.As))
	if end && bd.Edge != "" {
		b.WriteString(", ")
		b.WriteString(string(bd.Edge))
	}
	b.WriteByte(')')
}

// Direction is the side of now a source holds.
type Direction string

// The two directions; empty means not declared, not checked.
const (
	Past   Direction = "past"
	Future Direction = "future"
)

// Duration is a declared duration: its text as written and its length. The
// zero Duration means not declared.
type Duration struct {
	Text   string
	Length time.Duration
}

// Facts are what a period declares about its source. Zero fields were not
// declared.
type Facts struct {
	Direction   Direction
	Retention   Duration // the oldest data the source keeps
	MaxRange    Duration // the widest window the tool accepts at once
	Granularity Duration // the source's smallest step
	// FiltersToAsked: the tool drops rows outside the asked window.
	FiltersToAsked bool
	// WallZoneApp: wall times, dates and days with no zone argument read in
	// the app's zone.
	WallZoneApp bool
}

// Arguments lists every argument the period names, in form order, each once.
func (p *Period) Arguments() []string {
	if p == nil {
		return nil
	}
	var out []string
	for i := range p.Forms {
		for _, a := range p.Forms[i].Arguments() {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// Argument is the one argument the period is known by: the single
// argument, else the first form's first argument; "" for no period.
func (p *Period) Argument() string {
	if p == nil || len(p.Forms) == 0 {
		return ""
	}
	return p.Forms[0].windowArguments()[0]
}

// SentForm is the form a call took: the first form it gives whole, else the
// first it gives in part, else -1 (every form left out). The zone argument
// does not count: forms may share it.
func SentForm(forms []Form, args *jsonv.Value) int {
	part := -1
	for i := range forms {
		given := 0
		wa := forms[i].windowArguments()
		for _, a := range wa {
			if !IsMissing(args, a) {
				given++
			}
		}
		if given == len(wa) {
			return i
		}
		if given > 0 && part < 0 {
			part = i
		}
	}
	return part
}

// UntakenBesides lists the arguments of every form but forms[taken] that
// forms[taken] does not also name: the alternatives the call did not take.
// It is empty for a single form, and for a taken index out of range.
func UntakenBesides(forms []Form, taken int) []string {
	if taken < 0 || taken >= len(forms) {
		return nil
	}
	own := forms[taken].Arguments()
	var out []string
	for i := range forms {
		if i == taken {
			continue
		}
		for _, a := range forms[i].Arguments() {
			if !slices.Contains(own, a) && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// OwedForm is the form a call that leaves every form out owes: one that
// answered fills whole, else the first the rules assume whole (its default
// is the window), else the first, asked by its own asks. answered may be
// nil (nothing answered yet). Never every form at once: that would ask the
// person for two windows.
func OwedForm(forms []Form, rules *Rules, answered func(argument string) bool) int {
	if answered != nil {
		for i := range forms {
			if allArguments(&forms[i], answered) {
				return i
			}
		}
	}
	for i := range forms {
		assumed := func(a string) bool {
			r := rules.Rule(a)
			return r != nil && r.Kind == Assume
		}
		if allArguments(&forms[i], assumed) {
			return i
		}
	}
	return 0
}

func allArguments(f *Form, ok func(string) bool) bool {
	for _, a := range f.windowArguments() {
		if !ok(a) {
			return false
		}
	}
	return true
}
