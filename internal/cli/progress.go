package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"toolscope/core/similarity"
)

// progressDelay is how long a run stays quiet before it reports progress:
// a lint that ends sooner prints nothing on stderr.
const progressDelay = 2 * time.Second

// progressEvery is how often a run whose stderr is not a terminal (a CI
// log) prints a progress line; a terminal's line is redrawn each tick.
const (
	progressEvery = 10 * time.Second
	progressTick  = 250 * time.Millisecond
)

// progress reports a long run on stderr once it has taken progressDelay:
// on a terminal, one line redrawn in place (the stage, how far, the time
// so far) and cleared at the end; elsewhere, a plain line every
// progressEvery, so a CI log shows the run is alive without filling up.
type progress struct {
	w     io.Writer
	tty   bool
	name  string // "toolscope lint"
	start time.Time

	mu        sync.Mutex
	cur       similarity.Progress
	label     string // the step before the analysis ("loading the catalog")
	shown     bool   // a terminal line is on screen
	lastPlain time.Time

	stop    chan struct{}
	done    chan struct{}
	endOnce sync.Once
}

// startProgress starts reporting; End ends it.
func startProgress(io stdio, name string) *progress {
	p := newProgress(io, name, time.Now())
	go func() {
		defer close(p.done)
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-t.C:
				p.tick(now)
			}
		}
	}()
	return p
}

// newProgress is a progress that is not ticking yet.
func newProgress(io stdio, name string, start time.Time) *progress {
	return &progress{w: io.err, tty: io.errTTY, name: name, start: start, stop: make(chan struct{}), done: make(chan struct{})}
}

// setName changes the name lines start with.
func (p *progress) setName(name string) {
	p.mu.Lock()
	p.name = name
	p.mu.Unlock()
}

// Step names what runs before the analysis reports its own stages.
func (p *progress) Step(label string) {
	p.mu.Lock()
	p.label, p.cur = label, similarity.Progress{}
	p.mu.Unlock()
}

// Update takes the analysis's progress (lint.Options.Progress).
func (p *progress) Update(pr similarity.Progress) {
	p.mu.Lock()
	p.cur, p.label = pr, ""
	p.mu.Unlock()
}

// tick draws the progress as of now.
func (p *progress) tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := now.Sub(p.start)
	if elapsed < progressDelay {
		return
	}
	if !p.tty && p.label != "" {
		// A log gets no line for loading: an input error there (a catalog
		// too large, a server that fails) stays the one line on stderr.
		return
	}
	line := p.text(elapsed)
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.shown = true
		return
	}
	if p.lastPlain.IsZero() || now.Sub(p.lastPlain) >= progressEvery {
		fmt.Fprintln(p.w, line)
		p.lastPlain = now
	}
}

func (p *progress) text(elapsed time.Duration) string {
	what := p.label
	switch pr := p.cur; {
	case what != "":
	case pr.Total > 0:
		what = fmt.Sprintf("%s %d%% (%d/%d)", pr.Stage, pr.Done*100/pr.Total, pr.Done, pr.Total)
	case pr.Stage != "":
		what = string(pr.Stage)
	default:
		what = "starting"
	}
	return fmt.Sprintf("%s: %s · %s", p.name, what, elapsed.Truncate(time.Second))
}

// End stops the reporting and clears a terminal line, before the report
// is written.
func (p *progress) End() {
	p.endOnce.Do(func() { close(p.stop) })
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
