package validate

import (
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// The budget lint gives the compiling of one catalog's patterns. Each
// pattern is bounded alone (MaxPatternChars, MaxPatternDepth), but a
// catalog within every limit can hold a thousand of the worst ones: 55 s
// and 1.1 GB of compiling. Compiling cannot be cut short once begun, so the
// budget is checked before each pattern: by length (the engine's time and
// memory grow with it), and by the time spent so far.
const (
	// LintPatternChars is the total length, in code points, of the
	// distinct patterns one lint run compiles: 256 of the longest patterns
	// allowed, some 3,600 of the longest in the shared catalogs.
	LintPatternChars = 1 << 20
	// LintPatternTime is the compile time one lint run spends on patterns.
	LintPatternTime = 2 * time.Second
)

// PatternBudget compiles patterns (CompilePattern) until its length or
// time is spent; past that a pattern is not compiled and its error says
// so. A pattern met again is free. Safe for concurrent use.
type PatternBudget struct {
	mu        sync.Mutex
	chars     int
	time      time.Duration
	charsLeft int
	timeLeft  time.Duration
	seen      map[string]bool
}

// NewPatternBudget is a budget of chars code points and d of compile time.
func NewPatternBudget(chars int, d time.Duration) *PatternBudget {
	return &PatternBudget{chars: chars, time: d, charsLeft: chars, timeLeft: d, seen: map[string]bool{}}
}

// Compile is CompilePattern within the budget. A pattern the budget has
// no room for gets a *PatternError saying so, as one over MaxPatternChars
// does: validation ignores it.
func (b *PatternBudget) Compile(p string) (*regexp2.Regexp, error) {
	b.mu.Lock()
	if !b.seen[p] {
		n := utf8.RuneCountInString(p)
		if n > b.charsLeft || b.timeLeft <= 0 {
			b.mu.Unlock()
			return nil, &PatternError{Pattern: p, overLimit: true, Reason: fmt.Sprintf(
				"lint's budget for compiling one catalog's patterns (%d characters, %s) is spent", b.chars, b.time)}
		}
		b.seen[p] = true
		b.charsLeft -= n
	}
	b.mu.Unlock()
	start := time.Now()
	re, err := CompilePattern(p)
	spent := time.Since(start)
	b.mu.Lock()
	b.timeLeft -= spent
	b.mu.Unlock()
	return re, err
}
