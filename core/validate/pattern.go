package validate

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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

// maxCachedPatterns bounds the compiled patterns kept; past it the compiled
// ones are dropped and recompiled on demand (the ledger of failures stays).
const maxCachedPatterns = 4096

func init() {
	// regexp2 checks deadlines against a clock ticking every 100ms by
	// default, which would let a 50ms timeout run for 200ms; a 10ms tick
	// keeps a timed-out keystroke near its budget. The clock only runs while
	// matches with a deadline are live.
	regexp2.SetTimeoutCheckPeriod(10 * time.Millisecond)
}

// PatternError says why a schema's pattern does not compile as ECMA-262.
type PatternError struct {
	Pattern string
	Reason  string
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("pattern /%s/ does not compile as ECMA-262: %s", e.Pattern, e.Reason)
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
	patterns.RLock()
	c, ok := patterns.byText[p]
	patterns.RUnlock()
	if ok {
		return c.re, c.err
	}
	c = compile(p)
	patterns.Lock()
	defer patterns.Unlock()
	if prev, ok := patterns.byText[p]; ok {
		return prev.re, prev.err
	}
	if c.err != nil {
		patterns.pending = append(patterns.pending, c.err.Error()+"; validation ignores it")
	} else {
		if patterns.good >= maxCachedPatterns {
			for k, v := range patterns.byText {
				if v.err == nil {
					delete(patterns.byText, k)
				}
			}
			patterns.good = 0
		}
		patterns.good++
	}
	patterns.byText[p] = c
	return c.re, c.err
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
