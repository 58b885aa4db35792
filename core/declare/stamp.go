package declare

import (
	"errors"
	"fmt"
	"time"
)

// stamp is a calendar date and a time of day as written, with the zone
// offset when the text carries one. Fields are checked against the real
// calendar when read: time.Date would silently roll 2026-02-30 into March.
type stamp struct {
	year                    int
	month                   time.Month
	day, hour, min, sec, ns int
	zoned                   bool
	offset                  int // seconds east of UTC, when zoned
}

// zoneRule says whether a stamp must carry a zone.
type zoneRule uint8

const (
	zoneRequired zoneRule = iota // an ISO 8601 instant
	zoneRefused                  // a wall time
)

func (z zoneRule) plural() string {
	if z == zoneRequired {
		return "instants"
	}
	return "wall times"
}

func (z zoneRule) example() string {
	if z == zoneRequired {
		return "2026-03-01T09:00:00Z"
	}
	return "2026-03-01T09:00"
}

// instant is the moment a zoned stamp names.
func (s stamp) instant() time.Time {
	return time.Date(s.year, s.month, s.day, s.hour, s.min, s.sec, s.ns, fixedZone(s.offset)).UTC()
}

// fixedZone keeps UTC stamps in time.UTC so they print with a Z.
func fixedZone(offset int) *time.Location {
	if offset == 0 {
		return time.UTC
	}
	return time.FixedZone("", offset)
}

// in reads a wall stamp in zone. A wall time the zone skips (clocks moved
// forward) names no instant.
func (s stamp) in(zone *time.Location) (time.Time, error) {
	t := time.Date(s.year, s.month, s.day, s.hour, s.min, s.sec, s.ns, zone)
	if t.Day() != s.day || t.Hour() != s.hour || t.Minute() != s.min {
		return t, fmt.Errorf("%04d-%02d-%02dT%02d:%02d does not exist in %s (the clocks skip it)",
			s.year, int(s.month), s.day, s.hour, s.min, zone)
	}
	return t, nil
}

// parseStamp reads `YYYY-MM-DDThh:mm[:ss[.fraction]]` and, as zone says, a
// required `Z` / `±hh:mm` or none at all.
func parseStamp(text string, zone zoneRule) (stamp, error) {
	var s stamp
	shape := fmt.Errorf("not a date and time like %s", zone.example())
	rest, err := parseDate(text, &s, shape)
	if err != nil {
		return s, err
	}
	if rest == "" {
		return s, fmt.Errorf("a date with no time of day (like %s)", zone.example())
	}
	if rest[0] != 'T' && rest[0] != 't' {
		return s, shape
	}
	if rest, err = parseClock(rest[1:], &s, shape); err != nil {
		return s, err
	}
	switch {
	case rest == "" && zone == zoneRequired:
		return s, errors.New("no zone (end it with Z or ±hh:mm)")
	case rest == "":
		return s, nil
	case zone == zoneRefused && (rest[0] == 'Z' || rest[0] == 'z' || rest[0] == '+' || rest[0] == '-'):
		return s, errors.New("carries a zone; a wall time has none (its zone comes from the zone argument)")
	}
	return s, parseOffset(rest, &s)
}

// parseDay reads a whole date, `YYYY-MM-DD`, and nothing after it.
func parseDay(text string) (stamp, error) {
	var s stamp
	rest, err := parseDate(text, &s, errors.New("not a date like 2026-03-01"))
	if err == nil && rest != "" {
		err = errors.New("not a date like 2026-03-01 (just the day, no time)")
	}
	return s, err
}

// parseDate reads `YYYY-MM-DD` at the start of text into s and returns what
// follows; a date that does not exist is refused with the reason.
func parseDate(text string, s *stamp, shape error) (string, error) {
	y, ok1 := digitsAt(text, 0, 4)
	m, ok2 := digitsAt(text, 5, 2)
	d, ok3 := digitsAt(text, 8, 2)
	if !ok1 || !ok2 || !ok3 || text[4] != '-' || text[7] != '-' {
		return "", shape
	}
	if m < 1 || m > 12 {
		return "", fmt.Errorf("month %02d does not exist (01-12)", m)
	}
	month := time.Month(m)
	if n := daysIn(y, month); d < 1 || d > n {
		return "", fmt.Errorf("%04d-%02d-%02d does not exist (%s %d has %d days)", y, m, d, month, y, n)
	}
	s.year, s.month, s.day = y, month, d
	return text[10:], nil
}

// parseClock reads `hh:mm[:ss[.fraction]]` into s and returns what follows.
func parseClock(text string, s *stamp, shape error) (string, error) {
	h, ok1 := digitsAt(text, 0, 2)
	mi, ok2 := digitsAt(text, 3, 2)
	if !ok1 || !ok2 || text[2] != ':' {
		return "", shape
	}
	if h > 23 {
		return "", fmt.Errorf("hour %02d does not exist (00-23)", h)
	}
	if mi > 59 {
		return "", fmt.Errorf("minute %02d does not exist (00-59)", mi)
	}
	s.hour, s.min = h, mi
	rest := text[5:]
	if len(rest) == 0 || rest[0] != ':' {
		return rest, nil
	}
	sec, ok := digitsAt(rest, 1, 2)
	if !ok {
		return "", shape
	}
	if sec > 59 {
		return "", fmt.Errorf("second %02d does not exist (00-59)", sec)
	}
	s.sec = sec
	rest = rest[3:]
	if len(rest) == 0 || rest[0] != '.' {
		return rest, nil
	}
	n := 1
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 1 || n > 10 {
		return "", errors.New("a fraction of a second needs 1 to 9 digits")
	}
	frac, _ := digitsAt(rest, 1, n-1)
	for k := n - 1; k < 9; k++ {
		frac *= 10
	}
	s.ns = frac
	return rest[n:], nil
}

// parseOffset reads the zone at the end of an instant: `Z` or `±hh:mm`.
func parseOffset(text string, s *stamp) error {
	if text == "Z" || text == "z" {
		s.zoned = true
		return nil
	}
	h, ok1 := digitsAt(text, 1, 2)
	m, ok2 := digitsAt(text, 4, 2)
	if len(text) != 6 || (text[0] != '+' && text[0] != '-') || text[3] != ':' || !ok1 || !ok2 {
		return fmt.Errorf("zone %q is not Z or ±hh:mm", text)
	}
	if h > 23 || m > 59 {
		return fmt.Errorf("zone offset %s does not exist", text)
	}
	s.zoned, s.offset = true, (h*60+m)*60
	if text[0] == '-' {
		s.offset = -s.offset
	}
	return nil
}

// digitsAt reads exactly n ASCII digits at text[i:].
func digitsAt(text string, i, n int) (int, bool) {
	if i < 0 || i+n > len(text) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(text[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// daysIn is the number of days in month of year, leap years included.
func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
