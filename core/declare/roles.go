package declare

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"toolscope/core/jsonv"
)

// role is what one argument carries in one form. The judge checks declared
// values by it and resolution reads a call's values by it, so both read a
// value the same way.
type role uint8

const (
	roleNone   role = iota
	roleJoined      // the whole window, under the form's spellings
	roleFrom        // a bounds form's start
	roleTo          // a bounds form's end
	roleObject      // an object holding both ends
	roleDay         // a YYYY-MM-DD day
	roleAmount      // a lookback form's number of units
	roleUnit        // a lookback form's unit
	roleZone        // an IANA zone name
)

// roleOf says what argument carries in f; a zone argument that also
// carries the window is refused by the judge, so order does not matter.
func (f *Form) roleOf(argument string) role {
	switch {
	case argument == "":
		return roleNone
	case f.Kind == KindBounds && argument == f.From.Argument:
		return roleFrom
	case f.Kind == KindBounds && argument == f.To.Argument:
		return roleTo
	case f.Kind == KindLookback && argument == f.UnitArgument:
		return roleUnit
	case argument == f.ZoneArgument:
		return roleZone
	case argument != f.Argument:
		return roleNone
	}
	switch f.Kind {
	case KindJoined:
		return roleJoined
	case KindObject:
		return roleObject
	case KindDay:
		return roleDay
	case KindLookback:
		return roleAmount
	}
	return roleNone
}

// describe names what a role wants, for messages: `lookback`, `epoch-ms`.
func (f *Form) describe(r role) string {
	switch r {
	case roleJoined:
		return joinNames(f.Spellings, " or ")
	case roleFrom:
		return string(f.From.As)
	case roleTo:
		return string(f.To.As)
	case roleObject:
		return fmt.Sprintf("{%s, %s} as %s", f.From.Argument, f.To.Argument, f.To.As)
	case roleDay:
		return "day"
	case roleAmount:
		return "count"
	case roleUnit:
		return "unit"
	case roleZone:
		return "zone"
	}
	return ""
}

// reading is what one value says in its role; only the fields of that
// role are set.
type reading struct {
	parsed   Parsed   // roleJoined
	from, to endpoint // roleFrom, roleTo, roleObject
	day      stamp    // roleDay
	amount   float64  // roleAmount
	unit     time.Duration
	zone     *time.Location
}

// endpoint is one end of a window as written: an instant, or a wall time or
// date that a zone places.
type endpoint struct {
	at    time.Time
	wall  stamp
	local bool // wall or date: at is unset until placed
	date  bool
}

// place turns an end into an instant. A date starts at its midnight; as the
// inclusive end of a window it runs to the next midnight.
func (e endpoint) place(zone *time.Location, end bool, edge Edge) (time.Time, error) {
	if !e.local {
		return e.at, nil
	}
	if zone == nil {
		return time.Time{}, errNoZone
	}
	if e.date {
		days := 0
		if end && edge != EdgeExclusive {
			days = 1
		}
		return time.Date(e.wall.year, e.wall.month, e.wall.day+days, 0, 0, 0, 0, zone), nil
	}
	return e.wall.in(zone)
}

var errNoZone = errors.New("no zone to read the wall times and days in")

// read reads v in role r of f, or says why v does not fit it.
func (f *Form) read(r role, v *jsonv.Value) (reading, error) {
	var rd reading
	var err error
	switch r {
	case roleJoined:
		rd.parsed, err = f.readJoined(v)
	case roleFrom:
		rd.from, err = readEnd(f.From.As, v)
	case roleTo:
		rd.to, err = readEnd(f.To.As, v)
	case roleObject:
		rd.from, rd.to, err = f.readObject(v)
	case roleDay:
		var s string
		if s, err = wantString(v); err == nil {
			rd.day, err = parseDay(s)
		}
	case roleAmount:
		rd.amount, err = readAmount(v)
	case roleUnit:
		var s string
		if s, err = wantString(v); err == nil {
			rd.unit, err = unitNamed(s)
		}
	case roleZone:
		var s string
		if s, err = wantString(v); err == nil {
			rd.zone, err = LoadZone(s)
		}
	default:
		err = errors.New("the period does not read it")
	}
	return rd, err
}

// readJoined parses v under the first of the form's spellings that takes
// it; when none does, the reason is the first spelling's.
func (f *Form) readJoined(v *jsonv.Value) (Parsed, error) {
	s, err := wantString(v)
	if err != nil {
		return Parsed{}, err
	}
	var first error
	for _, sp := range f.Spellings {
		p, err := Parse(sp, s)
		if err == nil {
			return p, nil
		}
		if first == nil {
			first = err
		}
	}
	return Parsed{}, first
}

func (f *Form) readObject(v *jsonv.Value) (from, to endpoint, err error) {
	if !v.Is(jsonv.Object) {
		return from, to, fmt.Errorf("is %s, want an object with %s and %s", v.ArticleType(), f.From.Argument, f.To.Argument)
	}
	for _, k := range []string{f.From.Argument, f.To.Argument} {
		if IsMissing(v, k) {
			return from, to, fmt.Errorf("has no %s", k)
		}
	}
	if from, err = readEnd(f.From.As, v.Get(f.From.Argument)); err != nil {
		return from, to, fmt.Errorf("%s: %w", f.From.Argument, err)
	}
	if to, err = readEnd(f.To.As, v.Get(f.To.Argument)); err != nil {
		return from, to, fmt.Errorf("%s: %w", f.To.Argument, err)
	}
	return from, to, nil
}

// JavaScript's Date holds instants within 8.64e15 ms of the epoch; epoch
// values beyond it name no date any tool can use.
const maxEpochMS = 8.64e15

// readEnd reads one end written as `as`.
func readEnd(as As, v *jsonv.Value) (endpoint, error) {
	switch as {
	case AsEpochMS, AsEpochS:
		f, err := readNumber(v, as == AsEpochMS)
		if err != nil {
			return endpoint{}, fmt.Errorf("%w (%s since 1970-01-01T00:00:00Z)", err, epochUnit(as))
		}
		ms := f
		if as == AsEpochS {
			ms = f * 1000
		}
		if math.Abs(ms) > maxEpochMS {
			return endpoint{}, errors.New("out of the range of dates")
		}
		whole := math.Floor(ms)
		at := time.UnixMilli(int64(whole)).Add(time.Duration((ms - whole) * 1e6)).UTC()
		return endpoint{at: at}, nil
	case AsISO, AsWall:
		s, err := wantString(v)
		if err != nil {
			return endpoint{}, err
		}
		rule := zoneRequired
		if as == AsWall {
			rule = zoneRefused
		}
		st, err := parseStamp(s, rule)
		if err != nil {
			return endpoint{}, err
		}
		if as == AsISO {
			return endpoint{at: st.instant()}, nil
		}
		return endpoint{wall: st, local: true}, nil
	case AsDate:
		s, err := wantString(v)
		if err != nil {
			return endpoint{}, err
		}
		st, err := parseDay(s)
		return endpoint{wall: st, local: true, date: true}, err
	}
	return endpoint{}, fmt.Errorf("unknown way to write an end %q", string(as))
}

func epochUnit(as As) string {
	if as == AsEpochMS {
		return "milliseconds"
	}
	return "seconds"
}

// readNumber reads a JSON number, or a string holding one as models often
// send; whole asks for an integer.
func readNumber(v *jsonv.Value, whole bool) (float64, error) {
	var f float64
	switch {
	case v.Is(jsonv.Number):
		f, _ = v.Float()
		if whole && !v.IsInteger() {
			return 0, errors.New("not a whole number")
		}
	case v.Is(jsonv.String):
		var err error
		f, err = strconv.ParseFloat(strings.TrimSpace(v.Text), 64)
		if err != nil || strings.ContainsAny(v.Text, "xXpP_") {
			return 0, fmt.Errorf("%s is not a number", jsonv.Quote(clip(v.Text)))
		}
		if whole && f != math.Trunc(f) {
			return 0, errors.New("not a whole number")
		}
	default:
		return 0, fmt.Errorf("is %s, want a number", v.ArticleType())
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, errors.New("not a finite number")
	}
	return f, nil
}

// readAmount reads a lookback form's count: a positive number.
func readAmount(v *jsonv.Value) (float64, error) {
	f, err := readNumber(v, false)
	if err == nil && f <= 0 {
		err = errors.New("not positive; a lookback counts back a positive number of units")
	}
	return f, err
}

// units are the unit names a lookback form accepts, lower case.
var units = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
}

// unitNamed reads a unit name, case aside: `h`, `hours`, `Days`.
func unitNamed(name string) (time.Duration, error) {
	if d, ok := units[strings.ToLower(name)]; ok {
		return d, nil
	}
	return 0, fmt.Errorf("%s is not a unit (s, m, h, d, w, or seconds, minutes, hours, days, weeks)", jsonv.Quote(clip(name)))
}

func wantString(v *jsonv.Value) (string, error) {
	s, ok := v.Str()
	if !ok {
		return "", fmt.Errorf("is %s, want a string", v.ArticleType())
	}
	return s, nil
}

// clipChars is the most of a value a message quotes, in code points.
const clipChars = 60

// clip shortens s for a message to at most clipChars code points, the cut
// marked with an ellipsis.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= clipChars {
		return s
	}
	n := 0
	for i := range s {
		if n == clipChars-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
