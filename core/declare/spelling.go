package declare

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Spelling is how a period argument's value is written.
type Spelling string

// The spellings a period value may take.
const (
	// Lookback is a positive integer and a unit m, h, d or w: `24h`.
	Lookback Spelling = "lookback"
	// SignedLookback is a lookback with a leading minus: `-24h`.
	SignedLookback Spelling = "signed-lookback"
	// ISORange is two ISO 8601 instants with a zone joined by `..`.
	ISORange Spelling = "iso-range"
	// WallRange is two wall times with no zone joined by `..`; the zone
	// comes from the period's zone argument or the app.
	WallRange Spelling = "wall-range"
)

// PeriodSpellings lists every spelling, in the order they are documented.
var PeriodSpellings = []Spelling{Lookback, SignedLookback, ISORange, WallRange}

// Known reports whether s is one of PeriodSpellings.
func (s Spelling) Known() bool {
	for _, k := range PeriodSpellings {
		if s == k {
			return true
		}
	}
	return false
}

// spellingList names every spelling for messages: `lookback, signed-lookback, ...`.
func spellingList() string { return joinNames(PeriodSpellings, ", ") }

// joinNames joins the names of a list of named values for a message.
func joinNames[T ~string](names []T, sep string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(n))
	}
	return b.String()
}

// Parsed is a period value read under its spelling: a format check passed,
// nothing converted yet. Window places it in time.
type Parsed struct {
	Spelling Spelling
	// Length is a lookback's length; zero for a range.
	Length   time.Duration
	from, to stamp
}

// Window is a span of time: From and To as instants.
type Window struct {
	From, To time.Time
}

// Length is how long the window lasts (negative when From is after To).
func (w Window) Length() time.Duration { return w.To.Sub(w.From) }

// InZone renders the window's ends in zone, RFC 3339 with any fraction of a
// second they carry (the exact form, for JSON); ok is false when the zone
// reads as UTC at both ends, so there is nothing more to show.
func (w Window) InZone(zone *time.Location) (from, to string, ok bool) {
	if !offZero(w, zone) {
		return "", "", false
	}
	return w.From.In(zone).Format(time.RFC3339Nano), w.To.In(zone).Format(time.RFC3339Nano), true
}

// offZero reports whether zone is off UTC at either end of w.
func offZero(w Window, zone *time.Location) bool {
	_, fo := w.From.In(zone).Zone()
	_, to := w.To.In(zone).Zone()
	return fo != 0 || to != 0
}

// Describe renders the window for a person, to the second: `covers FROM ..
// TO (LENGTH)` in UTC, and `in ZONE: FROM .. TO` when zone is off UTC at
// either end ("" otherwise).
func (w Window) Describe(zone *time.Location) (covers, inZone string) {
	covers = "covers " + FormatInstant(w.From.UTC()) + " .. " + FormatInstant(w.To.UTC()) + " (" + FormatLength(w.Length()) + ")"
	if zone != nil && offZero(w, zone) {
		inZone = "in " + zone.String() + ": " + FormatInstant(w.From.In(zone)) + " .. " + FormatInstant(w.To.In(zone))
	}
	return covers, inZone
}

// FormatInstant writes an instant for a person: RFC 3339 to the second,
// in t's own zone; a fraction of a second is cut, toward the past.
func FormatInstant(t time.Time) string { return t.Format(time.RFC3339) }

// Parse checks that text is spelled as sp. The error is a short reason
// saying why it is not, fit to follow the value in a message.
func Parse(sp Spelling, text string) (Parsed, error) {
	p := Parsed{Spelling: sp}
	var err error
	switch sp {
	case Lookback, SignedLookback:
		p.Length, err = parseLookback(sp, text)
	case ISORange, WallRange:
		p.from, p.to, err = parseRange(sp, text)
	default:
		err = fmt.Errorf("unknown spelling %q (want one of %s)", string(sp), spellingList())
	}
	return p, err
}

// Window places a parsed value in time: a lookback ends at now, taken to
// the whole second; a wall-range reads its wall times in zone, which it
// needs. A wall time the zone skips (a clock change) has no instant and is
// an error, and so is a window longer than a time.Duration holds (over 292
// years).
func (p Parsed) Window(now time.Time, zone *time.Location) (Window, error) {
	w, err := p.window(wholeSecond(now), zone)
	if err == nil {
		err = fits(w)
	}
	return w, err
}

func (p Parsed) window(now time.Time, zone *time.Location) (Window, error) {
	switch p.Spelling {
	case Lookback, SignedLookback:
		return Window{From: now.Add(-p.Length), To: now}, nil
	case ISORange:
		return Window{From: p.from.instant(), To: p.to.instant()}, nil
	case WallRange:
		if zone == nil {
			return Window{}, errNoZone
		}
		from, err := p.from.in(zone)
		if err != nil {
			return Window{}, err
		}
		to, err := p.to.in(zone)
		return Window{From: from, To: to}, err
	default:
		return Window{}, fmt.Errorf("unknown spelling %q", string(p.Spelling))
	}
}

// wholeSecond cuts now to the second (and drops its monotonic reading): a
// window that ends at now is shown, and given in JSON, to the second, never
// with the clock's nanoseconds.
func wholeSecond(now time.Time) time.Time { return now.Truncate(time.Second) }

// ConvertSpelling converts a value between the two spellings that convert,
// lookback and signed-lookback, by adding or dropping the minus. A value that
// does not parse under from, or any other pair of spellings, does not
// convert. A value converts to its own spelling as it is.
func ConvertSpelling(value string, from, to Spelling) (string, bool) {
	if _, err := Parse(from, value); err != nil {
		return "", false
	}
	switch {
	case from == to:
		return value, true
	case from == Lookback && to == SignedLookback:
		return "-" + value, true
	case from == SignedLookback && to == Lookback:
		return value[1:], true
	default:
		return "", false
	}
}

// unitLengths are the units a count may carry; lookbacks take m, h, d and w,
// declared durations (retention, granularity) also take s.
var unitLengths = map[byte]time.Duration{
	's': time.Second,
	'm': time.Minute,
	'h': time.Hour,
	'd': 24 * time.Hour,
	'w': 7 * 24 * time.Hour,
}

const lookbackUnits = "mhdw"

func parseLookback(sp Spelling, text string) (time.Duration, error) {
	shape := "not a lookback (30m, 24h, 7d, 2w)"
	if sp == SignedLookback {
		shape = "not a signed-lookback (-30m, -24h, -7d, -2w)"
	}
	body, signed := strings.CutPrefix(text, "-")
	switch {
	case text == "":
		return 0, errors.New("empty")
	case sp == Lookback && signed:
		return 0, errors.New("has a minus sign; a lookback has none (that is a signed-lookback)")
	case sp == SignedLookback && !signed:
		return 0, errors.New("no leading minus (a signed-lookback is like -24h)")
	case body == "":
		return 0, errors.New(shape)
	}
	return parseCount(body, lookbackUnits, shape)
}

// ParseDuration reads a declared duration such as a retention (`30d`), a
// maximum range (`24h`) or a granularity (`1m`): a positive integer and a
// unit s, m, h, d or w.
func ParseDuration(text string) (time.Duration, error) {
	return parseCount(text, "smhdw", "not a duration (like 30d, 24h, 1m; units s, m, h, d, w)")
}

// parseCount reads a positive integer followed by one unit from units;
// shape is the reason given when the text looks like neither.
func parseCount(text, units, shape string) (time.Duration, error) {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	switch {
	case text == "":
		return 0, errors.New("empty")
	case i == 0 || i+1 < len(text):
		return 0, errors.New(shape)
	case i == len(text):
		return 0, fmt.Errorf("no unit (%s)", listUnits(units))
	case !strings.Contains(units, text[i:]):
		return 0, fmt.Errorf("unit %q is not one of %s", text[i:], listUnits(units))
	}
	unit := unitLengths[text[i]]
	var n int64
	for _, c := range text[:i] {
		n = n*10 + int64(c-'0')
		if n > math.MaxInt64/int64(unit) {
			return 0, errors.New("too long (over 292 years)")
		}
	}
	if n == 0 {
		return 0, errors.New("zero; the count must be positive")
	}
	return time.Duration(n) * unit, nil
}

// listUnits spells a unit set for messages: "m, h, d, w".
func listUnits(units string) string { return strings.Join(strings.Split(units, ""), ", ") }

// parseRange splits a range at its `..` and reads both ends: instants with
// a zone for an iso-range, wall times without one for a wall-range.
func parseRange(sp Spelling, text string) (from, to stamp, err error) {
	zone := zoneRequired
	if sp == WallRange {
		zone = zoneRefused
	}
	if text == "" {
		return from, to, errors.New("empty")
	}
	left, right, ok := strings.Cut(text, "..")
	if !ok {
		return from, to, fmt.Errorf("no \"..\" joining two %s", zone.plural())
	}
	if from, err = parseStamp(left, zone); err != nil {
		return from, to, fmt.Errorf("from: %w", err)
	}
	if to, err = parseStamp(right, zone); err != nil {
		return from, to, fmt.Errorf("to: %w", err)
	}
	// Wall stamps are read as UTC here; Window checks again in the zone.
	if fits(Window{From: from.instant(), To: to.instant()}) != nil {
		return from, to, errTooWide
	}
	return from, to, nil
}

// errTooWide refuses a window whose length a time.Duration cannot hold:
// its length would print as a clamped, wrong figure.
var errTooWide = errors.New("spans more than 292 years, longer than a window can be measured")

// fits says whether w's length is exact, not clamped at time.Duration's
// bounds.
func fits(w Window) error {
	if !w.From.Add(w.Length()).Equal(w.To) {
		return errTooWide
	}
	return nil
}
