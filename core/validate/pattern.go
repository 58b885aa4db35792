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
	}
	return compiled{err: &PatternError{Pattern: p, Reason: reason(first, p)}}
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

// matchString runs re over s; any failure of the engine comes back as an
// error, never a panic. A pair that failed before fails again at once.
func matchString(re *regexp2.Regexp, s string) (ok bool, err error) {
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
	ok, err = runMatch(re, s)
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
