package declare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// Suggestion is advice for a period value that fails its spelling: the
// nearest value that would pass, and why. It is shown to the author, never
// applied to the call.
type Suggestion struct {
	Value string `json:"value"`
	Why   string `json:"why"`
}

// maxSuggestInput bounds the text a suggestion is looked for in: a period
// value longer than this is no near miss.
const maxSuggestInput = 200

// Suggest proposes, for text that fails spelling sp, the nearest value
// that passes, when one is clear: `7 days` is `7d` as a lookback, `24h` is
// `-24h` as a signed-lookback, a range joined by `/` or ` to ` is joined by
// `..`, an iso-range end with no zone gets one, whole days run midnight to
// midnight, a single instant becomes a range up to now. now is the instant
// a range up to now ends at; zone, when known (nil otherwise), gives an
// iso-range end its offset and places now on a wall-range's clock. A
// suggestion always parses under sp; ok is false when nothing is clear or
// text already passes.
func Suggest(sp Spelling, text string, now time.Time, zone *time.Location) (s Suggestion, ok bool) {
	if len(text) > maxSuggestInput {
		return Suggestion{}, false
	}
	if _, err := Parse(sp, text); err == nil {
		return Suggestion{}, false
	}
	switch sp {
	case Lookback, SignedLookback:
		s, ok = suggestLookback(sp, text)
	case ISORange, WallRange:
		s, ok = suggestRange(sp, text, wholeSecond(now), zone)
	}
	if !ok || s.Value == text {
		return Suggestion{}, false
	}
	if s.Why == "" {
		s.Why = "without the white space around it"
	}
	if _, err := Parse(sp, s.Value); err != nil {
		return Suggestion{}, false
	}
	return s, true
}

// unitWords are the unit names a near-miss lookback may use, lower case.
var unitWords = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "wk": 7 * 24 * time.Hour, "wks": 7 * 24 * time.Hour, "week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
}

// suggestLookback reads a count and a unit written loosely (`7 days`,
// `24 Hours`, `last 30 mins`, `PT24H`, `-24h`) and writes it as sp wants.
func suggestLookback(sp Spelling, text string) (Suggestion, bool) {
	t := strings.TrimSpace(text)
	signed := false
	for _, minus := range []string{"-", "−"} {
		if rest, ok := strings.CutPrefix(t, minus); ok {
			t, signed = strings.TrimSpace(rest), true
			break
		}
	}
	if n := len(t); n > 1 && t[n-1] == 'M' && t[0] != 'P' && (t[n-2] == ' ' || t[n-2] >= '0' && t[n-2] <= '9') {
		return Suggestion{}, false // M may mean months: not clear
	}
	lower := strings.ToLower(t)
	for _, word := range []string{"last ", "past "} {
		lower = strings.TrimSpace(strings.TrimPrefix(lower, word))
	}
	// `1h ago`, `1 hour ago`: the start of the window, as models write
	// it; a lookback is the length back from its end.
	lower, ago := strings.CutSuffix(lower, " ago")
	if !ago {
		lower, ago = strings.CutSuffix(lower, "ago")
	}
	lower = strings.TrimSpace(lower)
	count, unit, ok := isoDuration(lower)
	if !ok {
		count, unit, ok = countAndUnit(lower)
	}
	if !ok {
		return Suggestion{}, false
	}
	value, ok := lookbackValue(count, unit)
	if !ok {
		return Suggestion{}, false
	}
	var why []string
	if t != value {
		why = append(why, "a whole count and one unit letter: m, h, d or w")
	}
	if ago {
		why = append(why, "the length back from now, without \"ago\"")
	}
	switch {
	case sp == SignedLookback:
		if !signed {
			why = append(why, "a signed-lookback starts with a minus")
		}
		value = "-" + value
	case signed:
		why = append(why, "a lookback has no minus")
	}
	return Suggestion{Value: value, Why: strings.Join(why, "; ")}, true
}

// isoDuration reads an ISO 8601 duration of one part, lower case: `p7d`,
// `p2w`, `pt24h`, `pt30m`.
func isoDuration(t string) (float64, time.Duration, bool) {
	var body string
	var ok bool
	if body, ok = strings.CutPrefix(t, "pt"); ok {
		if strings.HasSuffix(body, "d") || strings.HasSuffix(body, "w") {
			return 0, 0, false
		}
	} else if body, ok = strings.CutPrefix(t, "p"); ok {
		if !strings.HasSuffix(body, "d") && !strings.HasSuffix(body, "w") {
			return 0, 0, false
		}
	} else {
		return 0, 0, false
	}
	return countAndUnit(body)
}

// countAndUnit reads a decimal count, an optional space or hyphen, and a
// unit word: `7 days`, `1.5h`, `30-min`.
func countAndUnit(t string) (float64, time.Duration, bool) {
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	if i == 0 || i > 20 {
		return 0, 0, false
	}
	count, err := strconv.ParseFloat(t[:i], 64)
	if err != nil {
		return 0, 0, false
	}
	word := strings.TrimLeft(t[i:], " -")
	unit, ok := unitWords[word]
	return count, unit, ok
}

// letterUnits are a lookback's units, largest first.
var letterUnits = []struct {
	length time.Duration
	name   string
}{{7 * 24 * time.Hour, "w"}, {24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}}

// lookbackValue writes count units as a lookback: in the unit as written
// when the count is whole (`7 days` is `7d`, not `1w`), else in the
// largest unit that holds it whole (`1.5h` is `90m`); a length that is no
// whole number of minutes has none.
func lookbackValue(count float64, unit time.Duration) (string, bool) {
	length := count * float64(unit)
	if length <= 0 || length >= math.MaxInt64 {
		return "", false
	}
	d := time.Duration(length)
	for _, u := range letterUnits {
		if unit == u.length && count == math.Trunc(count) {
			return strconv.FormatFloat(count, 'f', 0, 64) + u.name, true
		}
	}
	for _, u := range letterUnits {
		if d%u.length == 0 {
			return strconv.FormatInt(int64(d/u.length), 10) + u.name, true
		}
	}
	return "", false
}

// rangeSeparators are what a range's ends are often joined by instead of
// `..`, longest first.
var rangeSeparators = []string{"...", "..", " to ", " until ", "–", "—", " - ", "/"}

// looseEnd is one end of a range as written loosely: a date, perhaps a
// time of day (after T or a space), perhaps a zone.
type looseEnd struct {
	st      stamp
	clock   bool // a time of day was written
	spaceT  bool // a space stood for the T
	seconds bool // seconds were written
}

// suggestRange writes a loose range as sp wants: joined by `..`, each end
// a date and time of day, with a zone (iso-range) or none (wall-range).
func suggestRange(sp Spelling, text string, now time.Time, zone *time.Location) (Suggestion, bool) {
	t := strings.TrimSpace(text)
	var why []string
	left, right, sep := "", "", ""
	for _, s := range rangeSeparators {
		if l, r, ok := strings.Cut(t, s); ok {
			left, right, sep = l, r, s
			break
		}
	}
	if sep == "" {
		return suggestSingle(sp, t, now, zone)
	}
	if sep != ".." {
		why = append(why, fmt.Sprintf("the ends joined by .., not %q", sep))
	}
	from, ok1 := readLooseEnd(left)
	to, ok2 := readLooseEnd(right)
	if !ok1 || !ok2 {
		return Suggestion{}, false
	}
	if from.spaceT || to.spaceT {
		why = append(why, "a T between date and time")
	}
	if !from.clock || !to.clock {
		why = append(why, "whole days, midnight to midnight, the last day included")
		if !from.clock {
			from.clock = true
		}
		if !to.clock {
			to.st = nextMidnight(to.st)
			to.clock = true
		}
	}
	z, ok := zoneEnds(sp, []*looseEnd{&from, &to}, zone)
	if !ok {
		return Suggestion{}, false
	}
	if z != "" {
		why = append(why, z)
	}
	return Suggestion{Value: writeEnd(sp, from) + ".." + writeEnd(sp, to), Why: strings.Join(why, "; ")}, true
}

// suggestSingle makes a range of one date (that whole day), one instant
// (from it up to now, or from now up to it) or a lookback (the same span
// up to now).
func suggestSingle(sp Spelling, t string, now time.Time, zone *time.Location) (Suggestion, bool) {
	if from, day, ok := sinceDay(t, now, zone); ok {
		return nowRange(sp, from, now, zone, "since "+day+": from its midnight up to now")
	}
	if p, err := Parse(Lookback, t); err == nil {
		return nowRange(sp, now.Add(-p.Length), now, zone, "a lookback is no range: the same span up to now")
	}
	end, ok := readLooseEnd(t)
	if !ok {
		return Suggestion{}, false
	}
	if !end.clock {
		to := looseEnd{st: nextMidnight(end.st), clock: true}
		end.clock = true
		ends := []*looseEnd{&end, &to}
		z, ok := zoneEnds(sp, ends, zone)
		if !ok {
			return Suggestion{}, false
		}
		why := "one date is no range: that whole day"
		if z != "" {
			why += "; " + z
		}
		return Suggestion{Value: writeEnd(sp, end) + ".." + writeEnd(sp, to), Why: why}, true
	}
	at := zone
	switch {
	case end.st.zoned:
		at = fixedZone(end.st.offset)
	case sp == ISORange && at == nil:
		at = time.UTC
	case at == nil:
		return Suggestion{}, false // a wall time and no zone to read now in
	}
	instant, err := end.st.in(at)
	if err != nil {
		return Suggestion{}, false
	}
	if instant.After(now) {
		return nowRange(sp, now, instant, zone, "one instant is no range: from now up to it")
	}
	return nowRange(sp, instant, now, zone, "one instant is no range: from it up to now")
}

// sinceDay reads `since Monday` (any weekday, its first three letters,
// today or yesterday) as the midnight that starts that day, the latest
// one not after now on the zone's clock (UTC when unknown).
func sinceDay(t string, now time.Time, zone *time.Location) (time.Time, string, bool) {
	rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(t)), "since ")
	if !ok {
		return time.Time{}, "", false
	}
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "last "))
	if zone == nil {
		zone = time.UTC
	}
	local := now.In(zone)
	back := -1
	switch rest {
	case "today":
		back = 0
	case "yesterday":
		back = 1
	default:
		for wd := time.Sunday; wd <= time.Saturday; wd++ {
			name := strings.ToLower(wd.String())
			if rest == name || rest == name[:3] {
				back = (int(local.Weekday()) - int(wd) + 7) % 7
			}
		}
	}
	if back < 0 {
		return time.Time{}, "", false
	}
	y, m, d := local.Date()
	return time.Date(y, m, d-back, 0, 0, 0, 0, zone), rest, true
}

// nowRange writes the range from .. to, one end of which is now, in sp:
// an iso-range in the zone (UTC when unknown), a wall-range on the zone's
// clock, which it needs.
func nowRange(sp Spelling, from, to time.Time, zone *time.Location, why string) (Suggestion, bool) {
	if sp == WallRange && zone == nil {
		return Suggestion{}, false
	}
	if zone == nil {
		zone = time.UTC
	}
	layout := time.RFC3339
	if sp == WallRange {
		layout = "2006-01-02T15:04:05"
	}
	return Suggestion{Value: from.In(zone).Format(layout) + ".." + to.In(zone).Format(layout), Why: why}, true
}

// readLooseEnd reads `YYYY-MM-DD`, then perhaps a time of day after `T`,
// `t` or a space, then perhaps a zone (`Z`, `±hh:mm`, `±hhmm`).
func readLooseEnd(text string) (looseEnd, bool) {
	var e looseEnd
	t := strings.TrimSpace(text)
	rest, err := parseDate(t, &e.st, errNoZone)
	if err != nil {
		return e, false
	}
	if rest == "" {
		return e, true
	}
	switch rest[0] {
	case 'T', 't':
	case ' ':
		e.spaceT = true
	default:
		return e, false
	}
	e.clock = true
	e.seconds = len(rest) > 6 && rest[6] == ':'
	if rest, err = parseClock(strings.TrimLeft(rest[1:], " "), &e.st, errNoZone); err != nil {
		return e, false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return e, true
	}
	if len(rest) == 5 && (rest[0] == '+' || rest[0] == '-') {
		rest = rest[:3] + ":" + rest[3:]
	}
	return e, parseOffset(rest, &e.st) == nil
}

// zoneEnds gives the ends what sp needs: an iso-range end with no zone gets
// zone's offset at that wall time, or Z; a wall-range end must carry none
// (dropping one would move it: not clear). It says what it did.
func zoneEnds(sp Spelling, ends []*looseEnd, zone *time.Location) (string, bool) {
	added := false
	for _, e := range ends {
		switch {
		case sp == WallRange && e.st.zoned:
			return "", false
		case sp == ISORange && !e.st.zoned:
			e.st.zoned, added = true, true
			if zone != nil {
				at, err := e.st.in(zone)
				if err != nil {
					return "", false
				}
				_, e.st.offset = at.Zone()
			}
		}
	}
	switch {
	case !added:
		return "", true
	case zone == nil || zone == time.UTC:
		return "each end with a zone: Z for UTC", true
	default:
		return "each end with " + zone.String() + "'s offset", true
	}
}

// nextMidnight is the start of the day after st's date.
func nextMidnight(st stamp) stamp {
	d := time.Date(st.year, st.month, st.day+1, 0, 0, 0, 0, time.UTC)
	return stamp{year: d.Year(), month: d.Month(), day: d.Day(), zoned: st.zoned, offset: st.offset}
}

// writeEnd writes one end as sp spells it: with seconds and a zone for an
// iso-range, without a zone for a wall-range.
func writeEnd(sp Spelling, e looseEnd) string {
	s := e.st
	var b strings.Builder
	fmt.Fprintf(&b, "%04d-%02d-%02dT%02d:%02d", s.year, int(s.month), s.day, s.hour, s.min)
	if sp == ISORange || e.seconds || s.sec != 0 || s.ns != 0 {
		fmt.Fprintf(&b, ":%02d", s.sec)
	}
	if s.ns != 0 {
		b.WriteString(strings.TrimRight(fmt.Sprintf(".%09d", s.ns), "0"))
	}
	if sp == ISORange {
		switch off := s.offset; {
		case off == 0:
			b.WriteByte('Z')
		case off < 0:
			fmt.Fprintf(&b, "-%02d:%02d", -off/3600, -off%3600/60)
		default:
			fmt.Fprintf(&b, "+%02d:%02d", off/3600, off%3600/60)
		}
	}
	return b.String()
}

// readSaid reads v in role r of f as the choice of rule whose said phrases
// include it (by SameArgumentValue): the author vouches for the phrase as
// meaning that choice. It returns the choice's value, nil when no phrase
// matches or the choice does not read either. Only an ask rule's choices
// carry phrases; an assume rule has one value and no phrases.
func readSaid(f *Form, r role, rule *Rule, v *jsonv.Value) (reading, *jsonv.Value) {
	if rule == nil || !v.Is(jsonv.String) {
		return reading{}, nil
	}
	for _, c := range rule.Choices {
		for _, phrase := range c.Said {
			if !samePhrase(v, phrase) {
				continue
			}
			got, err := f.read(r, c.Value)
			if err != nil {
				return reading{}, nil
			}
			return got, c.Value
		}
	}
	return reading{}, nil
}

// samePhrase is SameArgumentValue between a string value and a phrase.
func samePhrase(v *jsonv.Value, phrase string) bool {
	return SameArgumentValue(v, &jsonv.Value{Kind: jsonv.String, Text: phrase})
}

// suggestFor proposes, for a value that does not read in role r of f, the
// nearest that would: under the form's spellings first, else one of the
// rule's said phrases a typing slip away. zone is the one the form's wall
// times are read in, nil when none is known.
func suggestFor(f *Form, r role, rule *Rule, v *jsonv.Value, now time.Time, zone *time.Location) *Suggestion {
	text, ok := v.Str()
	if !ok {
		return nil
	}
	if r == roleJoined {
		for _, sp := range f.Spellings {
			if s, ok := Suggest(sp, text, now, zone); ok {
				return &s
			}
		}
	}
	return nearPhrase(rule, text)
}

// nearPhrase is the said phrase nearest to text, when one is a typing slip
// away (an edit distance of at most one in four letters, and at most 3)
// and no phrase of another choice is as near.
func nearPhrase(rule *Rule, text string) *Suggestion {
	if rule == nil || len(text) > maxSuggestInput {
		return nil
	}
	typed := strings.Join(stringTokens(text), " ")
	best, bestDist, tie := -1, 0, false
	var phrase string
	for i, c := range rule.Choices {
		for _, p := range c.Said {
			said := strings.Join(stringTokens(p), " ")
			if n := len([]rune(said)) - len([]rune(typed)); n > 3 || n < -3 {
				continue // at least that many edits apart: not worth counting
			}
			d := catalog.EditDistance(typed, said)
			if d == 0 || d > 3 || 4*d > len([]rune(said)) {
				continue
			}
			switch {
			case best < 0 || d < bestDist:
				best, bestDist, tie, phrase = i, d, false, p
			case d == bestDist && i != best:
				tie = true
			}
		}
	}
	if best < 0 || tie {
		return nil
	}
	return &Suggestion{Value: phrase, Why: "the declaration's own phrase for " + showBare(rule.Choices[best].Value)}
}

// showBare shows a value in a sentence: a string as it is, clipped, other
// values as JSON.
func showBare(v *jsonv.Value) string {
	if s, ok := v.Str(); ok {
		return clip(s)
	}
	return clip(v.JSON())
}
