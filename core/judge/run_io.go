package judge

import (
	"fmt"

	"toolscope/core/termsafe"
)

// IO is how a pair run or a review run talks to the one who started it:
// what a front end owns (its stream, its terminal, its question, its
// rules for files) is injected here, so the runs draw nothing and parse
// nothing. Every field may be left nil.
type IO struct {
	// Say gets each line said on the way, whole but without the newline
	// and without the command's name the command line puts before it
	// ("toolscope lint: ").
	Say func(line string)
	// Progress gets the progress line as requests are answered ("judged
	// 3 of 10 pairs"), each in place of the last; Clear ends it. Nil: no
	// progress line.
	Progress func(line string)
	Clear    func()
	// Confirm asks whether to go on, and why it asks; nil answers no.
	Confirm func(why string) bool
	// CheckWrite refuses a file the run is about to write (the review's
	// requests) when writing it would overwrite what it must not, an
	// input or another output; nil allows any.
	CheckWrite func(path string) error
}

// say says one line, formatted.
func (o IO) say(format string, args ...any) {
	if o.Say != nil {
		o.Say(fmt.Sprintf(format, args...))
	}
}

// progress is the progress func for asking requests about nouns ("pair",
// "pairs"), each answered one what ("judged"); nil without a progress
// line.
func (o IO) progress(what, one, many string) func(done, total int) {
	if o.Progress == nil {
		return nil
	}
	return func(done, total int) {
		o.Progress(fmt.Sprintf("%s %d of %s", what, done, count(total, one, many)))
	}
}

func (o IO) clear() {
	if o.Clear != nil {
		o.Clear()
	}
}

func (o IO) confirm(why string) bool { return o.Confirm != nil && o.Confirm(why) }

func (o IO) checkWrite(path string) error {
	if o.CheckWrite == nil {
		return nil
	}
	return o.CheckWrite(path)
}

// errLine is an error's text on one line, safe for a terminal.
func errLine(err error) string {
	return termsafe.Line(oneLine(err.Error()))
}

// noteCache says what went wrong with the cache on disk, if anything
// did: the run went on in memory.
func (o IO) noteCache(c *Cache) {
	if c.Err() != nil {
		o.say("note: %s", errLine(c.Err()))
	}
}
