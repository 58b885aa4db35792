package validate

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"toolscope/core/jsonv"
)

func TestCompilePatternCaches(t *testing.T) {
	a, err := CompilePattern("^vol-[0-9a-f]{8}$")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompilePattern("^vol-[0-9a-f]{8}$")
	if a != b {
		t.Error("the same pattern compiled twice")
	}
	if a.MatchTimeout != MatchTimeout {
		t.Errorf("MatchTimeout = %v, want %v", a.MatchTimeout, MatchTimeout)
	}
}

func TestCompilePatternECMAScript(t *testing.T) {
	cases := []struct {
		pattern string
		ok      bool
	}{
		{`^(?!tmp_)[a-z_]+$`, true}, // lookahead: RE2 refuses, ECMA-262 allows
		{`(?<=a)b`, true},
		{`^(a)\1$`, true},
		{`^\p{L}+$`, true},
		{`\c`, true}, // legacy syntax a browser accepts
		{`([a-z`, false},
		{`a{2,1}`, false},
		{`(?P<x>a)`, false}, // Python's named group is not ECMA-262
		{`a++`, false},      // possessive quantifiers are not ECMA-262
		// .NET syntax regexp2 reads even in its ECMAScript mode.
		{`(?i)abc`, false},
		{`^(?i)[a-z]+$`, false},
		{`(?>a+)b`, false},
		{`\Aabc\z`, false},
		{`abc\Z`, false},
		{`\Ga`, false},
		{`^\a$`, false},
		{`\e`, false},
		{`[\e]`, false},
		{`\Qa.b\E`, false},
		{`(?#note)a`, false},
		{`(?'n'a)`, false},
		{`(?(a)b|c)`, false},
		{`(?<a-b>x)`, false},
		{`(?x: a)`, false},
		{`(?n)a`, false},
		{`\p{IsGreek}`, false}, // a .NET block name; the legacy reading would be the letters
		// ECMA-262 syntax that looks alike stays.
		{`(?i:abc)`, true}, // ES2025 modifiers
		{`(?-i:a)`, true},
		{`(?<name>a)\k<name>`, true},
		{`(?<!a)b`, true},
		{`[(?i)]`, true}, // in a class, only characters
		{`\\A`, true},    // an escaped backslash, then A
		{`\cA\x41\u0041\u{41}\d\D\w\W\s\S\b\B\f\n\r\t\v\0`, true},
		{`\P{Lu}`, true},
	}
	for _, c := range cases {
		_, err := CompilePattern(c.pattern)
		if (err == nil) != c.ok {
			t.Errorf("CompilePattern(%q) error = %v, want ok %v", c.pattern, err, c.ok)
		}
		var pe *PatternError
		if err != nil && (!errors.As(err, &pe) || pe.Pattern != c.pattern || strings.Contains(err.Error(), "error parsing regexp")) {
			t.Errorf("CompilePattern(%q) error %q is not a clean PatternError", c.pattern, err)
		}
	}
}

// TestWarnOnce: a pattern that does not compile gives one developer warning
// per process, however often it is met, and the node behaves as if it had
// no pattern.
func TestWarnOnce(t *testing.T) {
	DrainWarnings()
	// Patterns no other test uses: the ledger is process-wide.
	schema := j(t, `{"properties":{"a":{"pattern":"([once"},"b":{"pattern":"([once"},"c":{"pattern":"(?P<once>x)"}}}`)
	for range 3 {
		if r := Validate(j(t, `{"a":"1","b":"2","c":"3"}`), schema); !r.OK || len(r.Warnings) != 0 {
			t.Fatalf("a dropped pattern rejected or warned per call: %+v", r)
		}
	}
	w := DrainWarnings()
	if len(w) != 2 || !strings.Contains(w[0], "/([once/") || !strings.Contains(w[1], "/(?P<once>x)/") {
		t.Errorf("warnings = %q, want one per distinct pattern", w)
	}
	if len(DrainWarnings()) != 0 {
		t.Error("DrainWarnings returned the same warnings twice")
	}
}

// TestHostilePatternTimesOut: catastrophic backtracking is cut off, the
// value let through with a warning, and the pattern not tried again on the
// same call.
func TestHostilePatternTimesOut(t *testing.T) {
	evil := `"` + strings.Repeat("a", 30) + `!"`
	schema := j(t, `{"items":{"type":"string","pattern":"^(a|aa)+$"}}`)
	args := j(t, `[`+evil+`,`+evil+`,`+evil+`]`)
	start := time.Now()
	r := Validate(args, schema)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	if !r.OK || len(r.Issues) != 0 {
		t.Errorf("a timed-out match became an issue: %+v", r.Issues)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "'[0]'") || strings.Contains(r.Warnings[0], "aaaa") {
		t.Errorf("warnings = %q, want one value-free warning naming [0]", r.Warnings)
	}
}

// A value whose match gave up is not matched again by the next call: the
// explorer validates on every keystroke and must not wait out the timeout
// each time.
func TestFailedMatchIsRemembered(t *testing.T) {
	schema := j(t, `{"properties":{"s":{"type":"string","pattern":"^(b|bb)+$"}}}`)
	args := j(t, `{"s":"`+strings.Repeat("b", 40)+`!"}`)
	first := Validate(args, schema)
	before := engineRuns.Load()
	second := Validate(args, schema)
	if runs := engineRuns.Load() - before; runs != 0 {
		t.Errorf("the engine ran %d more times for a value that timed out before", runs)
	}
	if !first.OK || !second.OK || len(second.Warnings) != 1 || second.Warnings[0] != first.Warnings[0] {
		t.Errorf("the second call answered differently: %+v then %+v", first, second)
	}
	// A value that matched is matched again (only failures are kept).
	ok := j(t, `{"s":"bbb"}`)
	Validate(ok, schema)
	before = engineRuns.Load()
	if r := Validate(ok, schema); !r.OK || engineRuns.Load() == before {
		t.Errorf("a good match was not run again: %+v", r)
	}
}

func TestCompilePatternConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 200 {
				p := []string{"^a$", "([b", "^c+$", "x{2}"}[(i+k)%4]
				CompilePattern(p)
				Validate(j(t, `"abc"`), j(t, `{"pattern":"^a"}`))
			}
		}()
	}
	wg.Wait()
	DrainWarnings()
}

// TestNotECMAReason: a refused .NET construct is named in the warning, so
// the author knows what to change.
func TestNotECMAReason(t *testing.T) {
	cases := map[string]string{
		`^(?i)[a-z]+$`: "inline option (?i) is not ECMA-262",
		`\Avol-\d+\z`:  `\A is not an ECMA-262 escape (write ^)`,
		`(?>a|ab)c`:    "atomic group (?> is not ECMA-262",
		`\e\[`:         `\e is not an ECMA-262 escape`,
	}
	for p, want := range cases {
		_, err := CompilePattern(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CompilePattern(%q) = %v, want an error saying %q", p, err, want)
		}
	}
	// Dropped at validation: the value is let through, as for any pattern
	// that does not compile.
	if r := Validate(j(t, `{"s":"ABC"}`), j(t, `{"properties":{"s":{"pattern":"^(?i)[a-z]+$"}}}`)); !r.OK {
		t.Errorf("a refused pattern rejected a value: %+v", r)
	}
}

// TestCallMatchBudget: distinct hostile patterns share one budget per call;
// once it is spent the remaining checks are not made, every one of them is
// named in one warning, and nothing is rejected. The memory of failed
// matches answers for free, so the next call gets further.
func TestCallMatchBudget(t *testing.T) {
	schema, args := hostileSchema(t, 6)
	failedMatches.Lock()
	clear(failedMatches.byKey)
	failedMatches.Unlock()
	first := Validate(args, schema)
	unchecked := func(r Result) (timedOut, notMade int, line string) {
		for _, w := range r.Warnings {
			switch {
			case strings.Contains(w, "could not be checked"):
				timedOut++
			case strings.Contains(w, "were not made") || strings.Contains(w, "was not made"):
				line = w
				n, _ := strconv.Atoi(strings.Fields(w)[0])
				notMade += n
			}
		}
		return
	}
	if !first.OK || len(first.Issues) != 0 {
		t.Fatalf("the budget rejected a call: %+v", first)
	}
	// Each match that gives up takes at least its deadline, so two exhaust
	// the budget and at least four checks are left.
	to1, nm1, line := unchecked(first)
	if to1+nm1 != 6 || nm1 < 4 || to1 > 2 {
		t.Fatalf("timed out %d, not made %d of 6: %q", to1, nm1, first.Warnings)
	}
	for _, p := range []string{"'p5'", "this call's 100ms for pattern matching ran out"} {
		if !strings.Contains(line, p) {
			t.Errorf("the warning %q does not say %q", line, p)
		}
	}
	second := Validate(args, schema)
	to2, nm2, _ := unchecked(second)
	if to2+nm2 != 6 || nm2 >= nm1 {
		t.Errorf("the second call made no progress: timed out %d, not made %d (first: %d, %d)", to2, nm2, to1, nm1)
	}
}

// TestPatternSizeLimits: a pattern over MaxPatternChars code points or
// whose groups nest deeper than MaxPatternDepth is refused before the
// engine sees it, with a reason naming the limit; one at the limits
// compiles.
func TestPatternSizeLimits(t *testing.T) {
	nest := func(depth int) string { return strings.Repeat("(a?", depth) + strings.Repeat(")?", depth) }
	cases := []struct {
		name, pattern, err string
	}{
		{"at the length limit", strings.Repeat("é", MaxPatternChars), ""},
		{"over the length limit", strings.Repeat("é", MaxPatternChars+1), "is not compiled: 4097 characters long, over toolscope's limit of 4096 for a pattern"},
		{"at the depth limit", nest(MaxPatternDepth), ""},
		{"over the depth limit", nest(MaxPatternDepth + 1), "is not compiled: groups nested 33 deep, over toolscope's limit of 32 for a pattern"},
		{"parentheses in a class or escaped do not nest", strings.Repeat(`[(]\(`, MaxPatternDepth+1) + nest(MaxPatternDepth), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CompilePattern(c.pattern)
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("CompilePattern error = %v, want %q", err, c.err)
			}
		})
	}
}

// TestHostilePatternsCostLittle: patterns the engine would take seconds
// and hundreds of MB to compile (200,000 characters of nested groups took
// 1.2 s and 460 MB, 4,096 characters of nested optional groups 13 s; those
// here allocate 59, 29 and 167 MiB compiled) are refused for next to
// nothing, and no text about them quotes them whole.
func TestHostilePatternsCostLittle(t *testing.T) {
	DrainWarnings()
	unique := strconv.FormatInt(time.Now().UnixNano(), 10) // the cache is process-wide
	for _, p := range []string{
		strings.Repeat("(", 100_000) + unique + strings.Repeat(")", 100_000),
		"(" + strings.Repeat("a|", 100_000) + unique + ")",
		strings.Repeat("(a?", 300) + unique + strings.Repeat(")?", 300),
	} {
		schema := &jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{
			{Key: "pattern", Value: &jsonv.Value{Kind: jsonv.String, Text: p}},
		}}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := Validate(&jsonv.Value{Kind: jsonv.String, Text: "b"}, schema)
		runtime.ReadMemStats(&after)
		if !r.OK {
			t.Errorf("a refused pattern rejected the value: %+v", r)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
			t.Errorf("validating against a %d-character pattern allocated %d MiB", len(p), grew>>20)
		}
	}
	w := DrainWarnings()
	if len(w) != 3 {
		t.Fatalf("warnings = %d, want one per pattern", len(w))
	}
	for _, w := range w {
		if len(w) > 2*MaxQuotedPatternChars || !strings.Contains(w, "…/ (") || !strings.Contains(w, "over toolscope's limit") {
			t.Errorf("warning of %d bytes, want a cut quote and the limit: %.400s", len(w), w)
		}
	}
}

// TestQuotePatternCaps: a pattern is quoted whole up to
// MaxQuotedPatternChars code points, and cut there past it, with an
// ellipsis and its full length.
func TestQuotePatternCaps(t *testing.T) {
	long := strings.Repeat("é", MaxQuotedPatternChars)
	cases := []struct{ in, want string }{
		{"^vol-[0-9a-f]{8}$", "/^vol-[0-9a-f]{8}$/"},
		{"", "//"},
		{long, "/" + long + "/"},
		{long + "x", "/" + long + "…/ (301 characters)"},
		{long + strings.Repeat("x", 3<<20), "/" + long + "…/ (3146028 characters)"},
	}
	for _, c := range cases {
		if got := QuotePattern(c.in); got != c.want {
			t.Errorf("QuotePattern(%d characters) = %.80q…, want %.80q…", len(c.in), got, c.want)
		}
	}
}

// TestModelTextQuotesPatternsCapped: a long pattern that compiles and
// rejects a value, or whose match times out, is quoted cut in the issue,
// the model-visible text and the warning.
func TestModelTextQuotesPatternsCapped(t *testing.T) {
	unique := strconv.FormatInt(time.Now().UnixNano(), 10)
	reject := "^" + strings.Repeat("x", MaxPatternChars-40) + unique + "$"
	hostile := "^(a|aa)+" + strings.Repeat("(?:y)?", 500) + unique + "$"
	schema := &jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{
		{Key: "properties", Value: &jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{
			{Key: "r", Value: &jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{{Key: "pattern", Value: &jsonv.Value{Kind: jsonv.String, Text: reject}}}}},
			{Key: "h", Value: &jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{{Key: "pattern", Value: &jsonv.Value{Kind: jsonv.String, Text: hostile}}}}},
		}}},
	}}
	r := Validate(j(t, `{"r":"no","h":"`+strings.Repeat("a", 40)+`!"}`), schema)
	if len(r.Issues) != 1 || len(r.Warnings) != 1 {
		t.Fatalf("issues %d, warnings %q; want one issue and one timed-out match", len(r.Issues), r.Warnings)
	}
	text := FormatIssues("t", r.Issues)
	for what, s := range map[string]string{"Expected": r.Issues[0].Expected, "model text": text, "warning": r.Warnings[0]} {
		if len(s) > 2*MaxQuotedPatternChars || !strings.Contains(s, "…/ (") {
			t.Errorf("%s is %d bytes, want the pattern cut: %.400s", what, len(s), s)
		}
	}
}

// TestCompilingSpendsTheCallBudget: once a call's budget is spent, the
// patterns it has not compiled yet are not compiled (each compile can
// cost milliseconds) but listed with the checks not made.
func TestCompilingSpendsTheCallBudget(t *testing.T) {
	unique := time.Now().UnixNano() % 1e9
	var s, a strings.Builder
	s.WriteString(`{"properties":{`)
	a.WriteByte('{')
	for i := range 5 {
		if i > 0 {
			s.WriteByte(',')
			a.WriteByte(',')
		}
		// Two catastrophic patterns spend the budget; the rest are plain.
		p := fmt.Sprintf(`^x{1,%d}$`, unique+int64(i))
		if i < 2 {
			p = fmt.Sprintf(`^(a|aa)+c{0,%d}$`, unique+int64(i))
		}
		fmt.Fprintf(&s, `"p%d":{"pattern":%q}`, i, p)
		fmt.Fprintf(&a, `"p%d":%q`, i, strings.Repeat("a", 40)+"!")
	}
	s.WriteString(`}}`)
	a.WriteByte('}')
	r := Validate(j(t, a.String()), j(t, s.String()))
	if !r.OK {
		t.Fatalf("the budget rejected a call: %+v", r)
	}
	for i := 2; i < 5; i++ {
		p := fmt.Sprintf(`^x{1,%d}$`, unique+int64(i))
		if _, cached := cachedPattern(p); cached {
			t.Errorf("p%d's pattern was compiled after the budget ran out", i)
		}
	}
	if last := r.Warnings[len(r.Warnings)-1]; !strings.Contains(last, "'p2', 'p3', 'p4'") {
		t.Errorf("the last warning %q does not list p2 to p4", last)
	}
}
