package declare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"toolscope/core/jsonv"
)

// Resolution is what the boundary would do with one call's arguments under
// a tool's rules (SPEC §3.4): each ruled argument's fate, the batch of asks,
// and how the period reads. It is advice for the author, never a change to
// the call.
type Resolution struct {
	Arguments []Fate `json:"arguments"`
	// Asks names the arguments asked of the person, all in one batch before
	// anything runs.
	Asks   []string          `json:"asks,omitempty"`
	Period *PeriodResolution `json:"period,omitempty"`
}

// FateKind is what becomes of a ruled argument, or where a period value
// comes from.
type FateKind string

// The fates.
const (
	// FateOwn: the call gives the value; it runs as the model's own.
	FateOwn FateKind = "own"
	// FateAssumed: left out, filled with the declared value, recorded as default.
	FateAssumed FateKind = "assumed"
	// FateAsked: left out, asked of the person, recorded as answered.
	FateAsked FateKind = "asked"
	// FateUntaken: left out, and belongs to a period form the call did not
	// take, so nothing fills it.
	FateUntaken FateKind = "untaken"
	// FateMissing: a period value left out that no rule fills.
	FateMissing FateKind = "missing"
)

// Fate is one ruled argument's fate in a call.
type Fate struct {
	Argument string   `json:"argument"`
	Fate     FateKind `json:"fate"`
	// Value is the model's own value or the assumed one.
	Value *jsonv.Value `json:"value,omitempty"`
	// Question and Choices are what the person is asked.
	Question string         `json:"question,omitempty"`
	Choices  []*jsonv.Value `json:"choices,omitempty"`
}

// PeriodResolution is how a call's period reads.
type PeriodResolution struct {
	// Forms describes each form the period takes, in preference order.
	Forms []string `json:"forms"`
	// Taken is the form the call took, -1 when it leaves every form out.
	Taken int `json:"taken"`
	// Owed is the form a call that leaves every form out owes, else -1.
	Owed int `json:"owed"`
	// Untaken lists the arguments of the alternatives not taken.
	Untaken []string `json:"untaken,omitempty"`
	// Values are the taken (or owed) form's values, each read by its role.
	Values []Reading `json:"values"`
	// Zone names the zone the window is shown in.
	Zone string         `json:"zone"`
	zone *time.Location // Zone itself, for the text
	// Window is the span the values denote, when they all read and place.
	Window *Window `json:"window,omitempty"`
	// FromInZone and ToInZone are the window's ends in Zone, RFC 3339.
	FromInZone string `json:"fromInZone,omitempty"`
	ToInZone   string `json:"toInZone,omitempty"`
	// Unplaced says why values that read denote no window.
	Unplaced string `json:"unplaced,omitempty"`
	// Advice lists the window's conflicts with the declared facts.
	Advice []string `json:"advice,omitempty"`
}

// Reading is one period value read by its role in the form.
type Reading struct {
	Argument string `json:"argument"`
	// As is what the role reads: a spelling, an `as`, `day`, `count`,
	// `unit` or `zone`.
	As     string       `json:"as"`
	Source FateKind     `json:"source"`
	Value  *jsonv.Value `json:"value,omitempty"`
	// OK says the value reads; false with no Value when there is none yet.
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
	// ReadAs is the choice a value that is not spelled as the role reads
	// was read as, because it is one of that choice's said phrases.
	ReadAs *jsonv.Value `json:"readAs,omitempty"`
	// Suggestion is the nearest value that would read, for one that does
	// not; advice, never applied.
	Suggestion *Suggestion `json:"suggestion,omitempty"`
}

// MarshalJSON renders a window as RFC 3339 instants in UTC and its length,
// exact: a fraction of a second the values carry is kept.
func (w Window) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"from":%q,"to":%q,"duration":%q}`,
		w.From.UTC().Format(time.RFC3339Nano), w.To.UTC().Format(time.RFC3339Nano), lengthText(w.Length(), true)), nil
}

// Resolve shows what the boundary would do with args under rules, at now
// (taken to the whole second), with zone as the app's zone (nil: UTC). It
// is pure and cheap enough to run on every keystroke. Nil rules resolve to
// nothing.
func Resolve(rules *Rules, args *jsonv.Value, now time.Time, zone *time.Location) *Resolution {
	res := &Resolution{}
	if rules == nil {
		return res
	}
	if zone == nil {
		zone = time.UTC
	}
	now = wholeSecond(now)
	var pr *PeriodResolution
	chosen := -1
	if p := rules.Period; p != nil {
		pr = &PeriodResolution{Taken: SentForm(p.Forms, args), Owed: -1}
		chosen = pr.Taken
		if chosen < 0 {
			pr.Owed = OwedForm(p.Forms, rules, nil)
			chosen = pr.Owed
		}
		pr.Untaken = UntakenBesides(p.Forms, chosen)
	}
	res.Arguments = make([]Fate, 0, len(rules.Ruled))
	for i := range rules.Ruled {
		r := &rules.Ruled[i]
		f := Fate{Argument: r.Argument}
		switch {
		case !IsMissing(args, r.Argument):
			f.Fate, f.Value = FateOwn, args.Get(r.Argument)
		case pr != nil && slices.Contains(pr.Untaken, r.Argument):
			f.Fate = FateUntaken
		case r.Kind == Assume:
			f.Fate, f.Value = FateAssumed, r.Assume
		default:
			f.Fate, f.Question = FateAsked, r.Question
			for _, c := range r.Choices {
				f.Choices = append(f.Choices, c.Value)
			}
			res.Asks = append(res.Asks, r.Argument)
		}
		res.Arguments = append(res.Arguments, f)
	}
	if pr != nil {
		res.Period = pr
		pr.resolve(rules, res, chosen, args, now, zone)
	}
	return res
}

// fate returns the fate of a ruled argument, or nil.
func (r *Resolution) fate(argument string) *Fate {
	for i := range r.Arguments {
		if r.Arguments[i].Argument == argument {
			return &r.Arguments[i]
		}
	}
	return nil
}

// placed is what the taken form's values say, gathered by role.
type placed struct {
	joined   *Parsed
	from, to *endpoint
	day      *stamp
	amount   float64
	unit     time.Duration
	zone     *time.Location
	complete bool
}

// resolve reads the chosen form's values, picks the zone the window is
// shown in, proposes values for those that do not read, and, when all
// read, places the window and checks it against the period's facts.
func (pr *PeriodResolution) resolve(rules *Rules, res *Resolution, chosen int, args *jsonv.Value, now time.Time, app *time.Location) {
	p := rules.Period
	pr.Forms = make([]string, len(p.Forms))
	for i := range p.Forms {
		pr.Forms[i] = p.Forms[i].String()
	}
	f := &p.Forms[chosen]
	pl, refused := pr.readValues(rules, f, res, args)
	zone := pl.zone
	if zone == nil && p.Facts.WallZoneApp {
		zone = app
	}
	shown := zone
	if shown == nil {
		shown = app
	}
	pr.Zone, pr.zone = shown.String(), shown
	pr.suggest(rules, f, refused, now, zone)
	if pr.Taken >= 0 {
		for _, a := range pr.Untaken {
			if !IsMissing(args, a) {
				pr.Advice = append(pr.Advice, fmt.Sprintf("also gives %s, which belongs to another form; the call took form %d, so %s is not read", a, pr.Taken+1, a))
			}
		}
	}
	if !pl.complete {
		return
	}
	w, err := pl.window(f, now, zone)
	if err == nil {
		err = fits(w)
	}
	if err != nil {
		pr.Unplaced = err.Error()
		if errors.Is(err, errNoZone) {
			pr.Unplaced = noZoneReason(f, p.Facts)
		}
		return
	}
	pr.Window = &w
	pr.FromInZone, pr.ToInZone, _ = w.InZone(shown)
	relative := f.Kind == KindLookback || (pl.joined != nil && pl.joined.Length > 0)
	pr.Advice = append(pr.Advice, Advise(w, p.Facts, now, shown, relative)...)
}

// readValues reads each of form f's values by its role, the call's own
// or else its fate's, into pr.Values, and gathers what those that read
// say. refused lists the places in pr.Values of those that do not, for
// suggestions.
func (pr *PeriodResolution) readValues(rules *Rules, f *Form, res *Resolution, args *jsonv.Value) (pl placed, refused []int) {
	pl.complete = true
	if f.Kind == KindLookback && f.Unit != "" {
		pl.unit, _ = unitNamed(f.Unit)
	}
	pr.Values = make([]Reading, 0, 3)
	for _, a := range f.Arguments() {
		role := f.roleOf(a)
		rd := Reading{Argument: a, As: f.describe(role), Source: FateMissing}
		switch fate := res.fate(a); {
		case !IsMissing(args, a):
			rd.Source, rd.Value = FateOwn, args.Get(a)
		case fate != nil:
			rd.Source, rd.Value = fate.Fate, fate.Value
		}
		if rd.Value == nil {
			pl.complete = pl.complete && role == roleZone
			pr.Values = append(pr.Values, rd)
			continue
		}
		// A zone the call gives but that does not read fails the window: it
		// is never silently replaced by the app's zone.
		got, err := f.read(role, rd.Value)
		if err != nil {
			got, rd.ReadAs = readSaid(f, role, rules.Rule(a), rd.Value)
			if rd.ReadAs != nil {
				err = nil
			}
		}
		if err != nil {
			rd.Reason = err.Error()
			pl.complete = false
			refused = append(refused, len(pr.Values))
		} else {
			rd.OK = true
			pl.take(role, got)
		}
		pr.Values = append(pr.Values, rd)
	}
	return pl, refused
}

// suggest proposes, for each refused value, the nearest that would read
// (placed in zone, nil when none is known). A lookback proposed for its
// spelling may still break the source's facts: the suggestion says so
// rather than offer it as the fix.
func (pr *PeriodResolution) suggest(rules *Rules, f *Form, refused []int, now time.Time, zone *time.Location) {
	for _, i := range refused {
		rd := &pr.Values[i]
		rd.Suggestion = suggestFor(f, f.roleOf(rd.Argument), rules.Rule(rd.Argument), rd.Value, now, zone)
		if s := rd.Suggestion; s != nil {
			if pv, err := Parse(Lookback, strings.TrimPrefix(s.Value, "-")); err == nil {
				w := Window{From: now.Add(-pv.Length), To: now}
				if adv := Advise(w, rules.Period.Facts, now, pr.zone, true); len(adv) > 0 {
					s.Why += "; but the source would still refuse it: it " + strings.Join(adv, "; it ")
				}
			}
		}
	}
}

func noZoneReason(f *Form, facts Facts) string {
	if f.ZoneArgument != "" {
		return fmt.Sprintf("no zone: the call gives no %s and the period declares no wallZone \"app\"", f.ZoneArgument)
	}
	return "no zone: the form has no zoneArgument and the period declares no wallZone \"app\""
}

// take keeps what one value says in its role.
func (pl *placed) take(r role, got reading) {
	switch r {
	case roleJoined:
		pl.joined = &got.parsed
	case roleFrom:
		pl.from = &got.from
	case roleTo:
		pl.to = &got.to
	case roleObject:
		pl.from, pl.to = &got.from, &got.to
	case roleDay:
		pl.day = &got.day
	case roleAmount:
		pl.amount = got.amount
	case roleUnit:
		pl.unit = got.unit
	case roleZone:
		pl.zone = got.zone
	}
}

// window turns the taken form's values into a span of time.
func (pl *placed) window(f *Form, now time.Time, zone *time.Location) (Window, error) {
	switch f.Kind {
	case KindJoined:
		return pl.joined.Window(now, zone)
	case KindBounds, KindObject:
		from, err := pl.from.place(zone, false, "")
		if err != nil {
			return Window{}, err
		}
		to, err := pl.to.place(zone, true, f.To.Edge)
		return Window{From: from, To: to}, err
	case KindDay:
		if zone == nil {
			return Window{}, errNoZone
		}
		d := pl.day
		return Window{
			From: time.Date(d.year, d.month, d.day, 0, 0, 0, 0, zone),
			To:   time.Date(d.year, d.month, d.day+1, 0, 0, 0, 0, zone),
		}, nil
	case KindLookback:
		length := pl.amount * float64(pl.unit)
		if length >= math.MaxInt64 {
			return Window{}, errors.New("the lookback is too long (over 292 years)")
		}
		return Window{From: now.Add(-time.Duration(length)), To: now}, nil
	}
	return Window{}, fmt.Errorf("unknown form kind %q", string(f.Kind))
}

// Advise checks a window against a period's declared facts: wider than
// maxRange, older than retention, on the wrong side of now for direction,
// not aligned to granularity, from after to. A relative window (a lookback)
// ends at now by definition, so only its length is checked for alignment;
// other windows have their ends checked on the wall clock of zone, so days
// align to midnight and weeks to Monday.
func Advise(w Window, facts Facts, now time.Time, zone *time.Location, relative bool) []string {
	var out []string
	length := w.Length()
	if length < 0 {
		out = append(out, fmt.Sprintf("from is after to by %s", FormatLength(-length)))
	}
	if m := facts.MaxRange; m.Length > 0 && length > m.Length {
		out = append(out, fmt.Sprintf("spans %s, wider than the maxRange %s", FormatLength(length), m.Text))
	}
	if r := facts.Retention; r.Length > 0 {
		if back := now.Sub(w.From); back > r.Length {
			if gone := now.Sub(w.To); gone >= r.Length {
				out = append(out, fmt.Sprintf("ended %s ago, wholly beyond the retention %s: the source holds no data for any of it", plainLength(gone), r.Text))
			} else {
				out = append(out, fmt.Sprintf("reaches back %s, beyond the retention %s: the oldest part holds no data", plainLength(back), r.Text))
			}
		}
	}
	switch facts.Direction {
	case Past:
		if w.From.After(now) {
			out = append(out, "lies after now; the source holds only the past")
		} else if w.To.After(now) {
			out = append(out, fmt.Sprintf("runs %s past now; the source holds only the past", FormatLength(w.To.Sub(now))))
		}
	case Future:
		if w.To.Before(now) {
			out = append(out, "lies before now; the source holds only the future")
		} else if w.From.Before(now) {
			out = append(out, fmt.Sprintf("starts %s before now; the source holds only the future", FormatLength(now.Sub(w.From))))
		}
	}
	if g := facts.Granularity; g.Length > 0 {
		switch {
		// Exact figures here: a fraction of a second may be the very reason.
		case relative && length%g.Length != 0:
			out = append(out, fmt.Sprintf("spans %s, not a whole number of the source's %s steps (granularity)", lengthText(length, true), g.Text))
		case !relative && !aligned(w.From, g.Length, zone):
			out = append(out, fmt.Sprintf("from %s is not on a %s step (granularity)", w.From.In(zone).Format(time.RFC3339Nano), g.Text))
		case !relative && !aligned(w.To, g.Length, zone):
			out = append(out, fmt.Sprintf("to %s is not on a %s step (granularity)", w.To.In(zone).Format(time.RFC3339Nano), g.Text))
		}
	}
	return out
}

// secondsToYear1 is the Unix time of 0001-01-01T00:00:00Z, a Monday.
const secondsToYear1 = -62135596800

// aligned reports whether t falls on a whole step of g on zone's wall
// clock, counted from 0001-01-01.
func aligned(t time.Time, g time.Duration, zone *time.Location) bool {
	t = t.In(zone)
	_, offset := t.Zone()
	step := int64(g / time.Second)
	wall := t.Unix() + int64(offset) - secondsToYear1
	return step > 0 && t.Nanosecond() == 0 && wall%step == 0
}

// FormatLength writes a length for a person, to the second, in days, hours,
// minutes and seconds: `1d2h30m`, `45s`, `-2h`; a fraction of a second is
// cut, and a length under a second that is not zero is `<1s`.
func FormatLength(d time.Duration) string { return lengthText(d, false) }

// plainLength is a length as a reader says it: whole days from two days
// up (1066 days, not 1066d2h46m37s), else FormatLength.
func plainLength(d time.Duration) string {
	const day = 24 * time.Hour
	if d >= 2*day {
		return strconv.FormatInt(int64(d/day), 10) + " days"
	}
	return FormatLength(d)
}

// lengthText writes a length in days, hours, minutes and seconds; exact
// keeps a fraction of a second (`1s500ms`), as JSON gives it.
func lengthText(d time.Duration, exact bool) string {
	switch {
	case d == 0:
		return "0s"
	case d == math.MinInt64:
		if exact {
			return d.String()
		}
		return "-" + lengthText(-(d+1), false)
	case d < 0:
		return "-" + lengthText(-d, exact)
	case !exact && d < time.Second:
		return "<1s"
	case !exact:
		d = d.Truncate(time.Second)
	}
	var b []byte
	for _, u := range lengthUnits {
		if d >= u.length {
			b = strconv.AppendInt(b, int64(d/u.length), 10)
			b = append(b, u.name...)
			d %= u.length
		}
	}
	if d > 0 {
		b = append(b, d.String()...)
	}
	return string(b)
}

var lengthUnits = []struct {
	length time.Duration
	name   string
}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
