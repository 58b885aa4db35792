package validate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A budget compiles patterns until their total length or the time is
// spent; a pattern met again is free; what is left out says why.
func TestPatternBudget(t *testing.T) {
	notCompiled := func(err error) bool {
		var pe *PatternError
		return errors.As(err, &pe) && pe.NotCompiled() && strings.Contains(pe.Reason, "budget")
	}
	b := NewPatternBudget(10, time.Hour)
	steps := []struct {
		p        string
		compiled bool
	}{
		{"^abcdef", true}, // 7 of 10
		{"^ghij", false},  // 5 more: over
		{"^abcdef", true}, // again: free
		{"^xy", true},     // 3: exactly the rest
		{"x", false},
	}
	for i, s := range steps {
		re, err := b.Compile(s.p)
		if got := re != nil && err == nil; got != s.compiled {
			t.Errorf("step %d %q: compiled %v, want %v (%v)", i, s.p, got, s.compiled, err)
		}
		if !s.compiled && !notCompiled(err) {
			t.Errorf("step %d %q: the error does not say the budget is spent: %v", i, s.p, err)
		}
	}
	// Time: any compile spends more than a nanosecond.
	b = NewPatternBudget(1<<20, time.Nanosecond)
	if _, err := b.Compile("^first-[0-9]+$"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Compile("^second-[0-9]+$"); !notCompiled(err) {
		t.Errorf("past the time budget: %v", err)
	}
}

// The cache of compiled patterns is bounded by their total length, not
// only their count.
func TestPatternCacheBoundedBySize(t *testing.T) {
	for i := range 100 {
		p := fmt.Sprintf("^size-bound-%d-", i) + strings.Repeat("[a-z]", 780)
		if _, err := CompilePattern(p); err != nil {
			t.Fatal(err)
		}
		patterns.RLock()
		chars := patterns.chars
		patterns.RUnlock()
		if chars > maxCachedPatternChars {
			t.Fatalf("the cache holds %d characters of compiled patterns, over %d", chars, maxCachedPatternChars)
		}
	}
}
