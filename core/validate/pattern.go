package validate

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// MatchTimeout bounds one pattern match: a hostile pattern and argument pair
// (catastrophic backtracking) must not hang the explorer.
const MatchTimeout = 50 * time.Millisecond

// CallMatchBudget bounds all the pattern matching of one validation call:
// a schema with many distinct hostile patterns would otherwise cost
// MatchTimeout each. A match never gets more than what is left of it, and
// once it is spent the remaining pattern checks are not made (the call's
// result says which).
const CallMatchBudget = 2 * MatchTimeout

// maxCachedPatterns and maxCachedPatternChars bound the compiled patterns
// kept, by count and by their total length in code points (a compiled
// pattern holds 20 to 80 bytes per character: 256 Ki characters keep it
// near 20 MB); past either the compiled ones are dropped and recompiled on
// demand (the ledger of failures stays).
const (
	maxCachedPatterns     = 4096
	maxCachedPatternChars = 256 << 10
)

func init() {
	// regexp2 checks deadlines against a clock ticking every 100ms by
	// default, which would let a 50ms timeout run for 200ms; a 10ms tick
	// keeps a timed-out keystroke near its budget. The clock only runs while
	// matches with a deadline are live.
	regexp2.SetTimeoutCheckPeriod(10 * time.Millisecond)
}

// MaxPatternChars is the longest `pattern`, in code points, that is
// compiled; a longer one is dropped as one that does not compile would be.
// Compiling costs the engine time and memory that grow faster than the
// length (200,000 characters of nested groups took 1.2 s and 460 MB), and
// compiling, unlike matching, cannot be cut short. The longest pattern in
// the shared catalogs is 288 characters.
const MaxPatternChars = 4096

// MaxPatternDepth is the deepest nesting of groups (lookaround included) in
// a pattern that is compiled; a deeper one is dropped. The engine's cost
// grows with the cube of the depth: 4,096 characters of nested optional
// groups took 13 s to compile, the same length nested 32 deep 25 ms. The
// deepest pattern in the shared catalogs nests 4 deep.
const MaxPatternDepth = 32

// MaxQuotedPatternChars is how much of a pattern, in code points, any
// warning, issue or error quotes; see QuotePattern.
const MaxQuotedPatternChars = 300

// PatternError says why a schema's pattern does not compile as ECMA-262,
// or why it was not compiled (over MaxPatternChars or MaxPatternDepth).
type PatternError struct {
	Pattern string
	Reason  string
	// overLimit: the pattern was not compiled, because of its size.
	overLimit bool
}

// NotCompiled reports whether the pattern was left uncompiled (its size,
// its nesting, a spent budget) rather than refused by the compiler.
func (e *PatternError) NotCompiled() bool { return e.overLimit }

func (e *PatternError) Error() string {
	if e.overLimit {
		return fmt.Sprintf("pattern %s is not compiled: %s", QuotePattern(e.Pattern), e.Reason)
	}
	return fmt.Sprintf("pattern %s does not compile as ECMA-262: %s", QuotePattern(e.Pattern), e.Reason)
}

// QuotePattern writes p between slashes, as in `/^vol-[0-9a-f]{8}$/`; past
// MaxQuotedPatternChars code points it is cut, the cut marked with an
// ellipsis and followed by the pattern's full length, so no text about a
// pattern grows with it.
func QuotePattern(p string) string {
	n := 0
	for i := range p {
		if n == MaxQuotedPatternChars {
			return "/" + p[:i] + "…/ (" + plural(float64(utf8.RuneCountInString(p)), "character") + ")"
		}
		n++
	}
	return "/" + p + "/"
}

type compiled struct {
	re  *regexp2.Regexp
	err error
}

// patterns is the process-wide cache of compiled patterns, which doubles as
// the warn-once ledger: a failure is remembered, and warned about, once.
var patterns = struct {
	sync.RWMutex
	byText  map[string]compiled
	pending []string // developer warnings not yet drained
	good    int      // compiled entries in byText
	chars   int      // their patterns' total length, in code points
}{byText: map[string]compiled{}}

// CompilePattern compiles a JSON Schema `pattern` as ECMA-262, unanchored,
// with MatchTimeout set, caching the result; safe for concurrent use. The
// first failure of each distinct pattern queues one developer warning (see
// DrainWarnings).
//
// The pattern is read with Unicode semantics (`\p{L}` is a letter class, as
// JSON Schema validators read it), falling back to the legacy syntax a
// browser's `new RegExp(p)` accepts (`\c`, octal escapes); it is refused
// only when neither reads it.
func CompilePattern(p string) (*regexp2.Regexp, error) {
	if c, ok := cachedPattern(p); ok {
		return c.re, c.err
	}
	c := compile(p)
	patterns.Lock()
	defer patterns.Unlock()
	if prev, ok := patterns.byText[p]; ok {
		return prev.re, prev.err
	}
	if c.err != nil {
		patterns.pending = append(patterns.pending, c.err.Error()+"; validation ignores it")
	} else {
		n := utf8.RuneCountInString(p)
		if patterns.good >= maxCachedPatterns || patterns.chars+n > maxCachedPatternChars {
			for k, v := range patterns.byText {
				if v.err == nil {
					delete(patterns.byText, k)
				}
			}
			patterns.good, patterns.chars = 0, 0
		}
		patterns.good++
		patterns.chars += n
	}
	patterns.byText[p] = c
	return c.re, c.err
}

// cachedPattern is what CompilePattern would answer for p from its cache,
// and whether the cache had it.
func cachedPattern(p string) (compiled, bool) {
	patterns.RLock()
	defer patterns.RUnlock()
	c, ok := patterns.byText[p]
	return c, ok
}

// DrainWarnings returns the developer warnings queued since the last call:
// one per distinct pattern that did not compile, ever, in this process.
func DrainWarnings() []string {
	patterns.Lock()
	defer patterns.Unlock()
	out := patterns.pending
	patterns.pending = nil
	return out
}

func compile(p string) (c compiled) {
	defer func() {
		if r := recover(); r != nil {
			c = compiled{err: &PatternError{Pattern: p, Reason: fmt.Sprint("the regex engine failed: ", r)}}
		}
	}()
	// Refused before the engine sees them: its cost grows faster than
	// their size, and a compile cannot be cut short.
	if n := utf8.RuneCountInString(p); n > MaxPatternChars {
		return compiled{err: &PatternError{Pattern: p, overLimit: true, Reason: fmt.Sprintf("%d characters long, over toolscope's limit of %d for a pattern", n, MaxPatternChars)}}
	}
	if d := groupDepth(p); d > MaxPatternDepth {
		return compiled{err: &PatternError{Pattern: p, overLimit: true, Reason: fmt.Sprintf("groups nested %d deep, over toolscope's limit of %d for a pattern", d, MaxPatternDepth)}}
	}
	why, property := notECMA(p)
	if why != "" {
		return compiled{err: &PatternError{Pattern: p, Reason: why}}
	}
	var first error
	for _, opts := range []regexp2.RegexOptions{regexp2.ECMAScript | regexp2.Unicode, regexp2.ECMAScript} {
		re, err := regexp2.Compile(p, opts)
		if err == nil {
			re.MatchTimeout = MatchTimeout
			return compiled{re: re}
		}
		if first == nil {
			first = err
		}
		if property {
			// The legacy reading of `\p{…}` is the letters "p{…}", never
			// what the author meant; the Unicode reading's error stands.
			break
		}
	}
	return compiled{err: &PatternError{Pattern: p, Reason: reason(first, p)}}
}

// groupDepth is how deep p's groups nest: parentheses outside a character
// class and not escaped.
func groupDepth(p string) int {
	depth, deepest, inClass := 0, 0, false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			depth++
			deepest = max(deepest, depth)
		case c == ')':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// ecmaEscapes are the letters ECMA-262 gives a meaning after a backslash.
// regexp2 gives others their .NET meaning even in its ECMAScript mode
// (`\A`, `\z` and `\G` anchor, `\a` and `\e` are control characters),
// which a browser reads differently or refuses, so such a pattern is
// refused rather than checked by rules its author's other validators do
// not share.
const ecmaEscapes = "bBdDfnrsStvwWcxupPk"

// notECMA scans p for the .NET syntax regexp2 accepts in its ECMAScript
// mode but ECMA-262 does not: escapes of letters ECMA-262 leaves undefined,
// and groups other than (?:…), lookaround, (?<name>…) and the ES2025
// modifiers (?ims-ims:…). It says why p is refused, or "" (the compiler
// judges the rest), and whether p holds a property escape (\p, \P).
func notECMA(p string) (why string, property bool) {
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 == len(p) {
				return "", property
			}
			i++
			n := p[i]
			if n == 'p' || n == 'P' {
				property = true
			}
			if isLetter(n) && strings.IndexByte(ecmaEscapes, n) < 0 {
				return `\` + string(n) + " is not an ECMA-262 escape" + escapeAdvice(n), property
			}
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(' && strings.HasPrefix(p[i+1:], "?"):
			if why := groupNotECMA(p[i+2:]); why != "" {
				return why, property
			}
		}
	}
	return "", property
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func escapeAdvice(n byte) string {
	switch n {
	case 'A':
		return " (write ^)"
	case 'z', 'Z':
		return " (write $)"
	}
	return ""
}

// groupNotECMA judges what follows "(?".
func groupNotECMA(rest string) string {
	if rest == "" {
		return ""
	}
	switch rest[0] {
	case ':', '=', '!':
		return ""
	case '<':
		if len(rest) > 1 && (rest[1] == '=' || rest[1] == '!') {
			return ""
		}
		end := strings.IndexByte(rest, '>')
		if end > 1 && !strings.ContainsAny(rest[1:end], "-'") {
			return ""
		}
		if end > 1 {
			return "balancing group (?" + rest[:end+1] + " is not ECMA-262"
		}
		return ""
	case '>':
		return "atomic group (?> is not ECMA-262"
	case '#':
		return "comment group (?# is not ECMA-262"
	case '(':
		return "conditional group (?( is not ECMA-262"
	case '\'':
		return "named group (?'name' is not ECMA-262 (write (?<name>…))"
	case 'P':
		return "" // Python's (?P<name>…): the compiler refuses it with its own words
	}
	// Modifiers: ES2025 allows (?ims-ims:…), a group; an inline (?i) that
	// changes the rest of the pattern is .NET's.
	j := 0
	for j < len(rest) && (isLetter(rest[j]) || rest[j] == '-') {
		j++
	}
	flags := rest[:j]
	if j < len(rest) && rest[j] == ':' && strings.Trim(flags, "ims-") == "" && strings.Count(flags, "-") <= 1 {
		return ""
	}
	if j < len(rest) && rest[j] == ')' && flags != "" {
		return "inline option (?" + flags + ") is not ECMA-262"
	}
	if j < len(rest) && rest[j] == ':' && flags != "" {
		return "option group (?" + flags + ":…) is not ECMA-262 (only i, m and s may be set)"
	}
	return ""
}

// reason trims regexp2's message ("error parsing regexp: X in `p`") to X.
func reason(err error, p string) string {
	msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	return strings.TrimSuffix(msg, " in `"+p+"`")
}

// errTimedOut stands for both ways a match gives up: the deadline and the
// backtracking stack limit.
var errTimedOut = fmt.Errorf("the match took longer than %v", MatchTimeout)

// failedMatches remembers, process-wide, the pattern and value pairs whose
// match gave up, so a caller that validates the same arguments again (the
// explorer does, on every keystroke) does not wait out the timeout each
// time, and gets the same answer. Bounded: cleared when full.
var failedMatches = struct {
	sync.Mutex
	byKey map[[sha256.Size]byte]error
}{byKey: map[[sha256.Size]byte]error{}}

const maxFailedMatches = 1024

func matchKey(pattern, s string) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(pattern))
	h.Write([]byte{0})
	h.Write([]byte(s))
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// anyFailed says whether failedMatches holds anything, so that the common
// case, where no match ever gave up, hashes nothing.
var anyFailed atomic.Bool

// errOverBudget says a match was not run to its end because the call's
// budget (CallMatchBudget) ran out first; it is not remembered as a
// failure, since a call with time left may well finish it.
var errOverBudget = errors.New("the call's pattern budget ran out")

// matchString runs re over s within left, the time the call has left for
// matching; any failure of the engine comes back as an error, never a
// panic. A pair that failed before fails again at once, whatever is left.
func matchString(re *regexp2.Regexp, s string, left time.Duration) (ok bool, err error) {
	var key [sha256.Size]byte
	if anyFailed.Load() {
		key = matchKey(re.String(), s)
		failedMatches.Lock()
		err, failed := failedMatches.byKey[key]
		failedMatches.Unlock()
		if failed {
			return false, err
		}
	}
	if left <= 0 {
		return false, errOverBudget
	}
	cut := left < re.MatchTimeout
	if cut {
		// A shallow copy with a shorter deadline: the compiled program,
		// caches and runner pool are shared through pointers, and the
		// cached Regexp, which other goroutines use, is left alone.
		short := *re
		short.MatchTimeout = left
		re = &short
	}
	ok, err = runMatch(re, s)
	if err != nil && cut && errors.Is(err, errTimedOut) {
		return false, errOverBudget
	}
	if err != nil {
		key = matchKey(re.String(), s)
		anyFailed.Store(true)
		failedMatches.Lock()
		if len(failedMatches.byKey) >= maxFailedMatches {
			clear(failedMatches.byKey)
		}
		failedMatches.byKey[key] = err
		failedMatches.Unlock()
	}
	return ok, err
}

// engineRuns counts the matches the engine ran, for tests.
var engineRuns atomic.Int64

func runMatch(re *regexp2.Regexp, s string) (ok bool, err error) {
	engineRuns.Add(1)
	defer func() {
		if r := recover(); r != nil {
			ok, err = false, fmt.Errorf("the regex engine failed: %v", r)
		}
	}()
	ok, err = re.MatchString(s)
	if err != nil {
		if errors.Is(err, regexp2.ErrBacktrackingStackLimit) {
			return false, errors.New("the match backtracked past the engine's limit")
		}
		return false, errTimedOut
	}
	return ok, nil
}
