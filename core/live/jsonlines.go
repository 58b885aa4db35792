package live

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// noteKeep is how much of a skipped line a note quotes.
const noteKeep = 200

// jsonLines passes on the lines of a stdio server's stdout that can be
// JSON-RPC messages (their first character other than a blank is `{` or
// `[`) and drops the others: a banner or a log line some servers print
// before they speak MCP would otherwise end the connection. It streams:
// a line is never held whole, and one longer than max bytes (0:
// maxMessage) fails the read.
type jsonLines struct {
	r    io.Reader
	max  int
	skip func(line string) // called with the start of each dropped line
	over func()            // called when a line is over max

	state   int // lineStart, passing or skipping
	lineLen int
	dropped []byte // the start of the line being dropped
}

const (
	lineStart = iota
	passing
	skipping
)

func (j *jsonLines) Read(p []byte) (int, error) {
	for {
		n, err := j.r.Read(p)
		out, ferr := j.filter(p[:n])
		if ferr != nil {
			return out, ferr
		}
		if err == io.EOF && j.state == skipping {
			j.dropLine()
		}
		// A read that held only dropped bytes must not look like the
		// end of the stream: read on.
		if out > 0 || err != nil || n == 0 {
			return out, err
		}
	}
}

// filter keeps the bytes of p that belong to lines passed on, moving them
// to its front, and returns how many there are.
func (j *jsonLines) filter(p []byte) (int, error) {
	out := 0
	for _, c := range p {
		if c == '\n' {
			if j.state == skipping {
				j.dropLine()
			} else {
				p[out] = c
				out++
			}
			j.state, j.lineLen = lineStart, 0
			continue
		}
		j.lineLen++
		if j.lineLen > orMax(j.max) {
			if j.over != nil {
				j.over()
			}
			return out, errOverLimit
		}
		switch j.state {
		case lineStart:
			switch c {
			case ' ', '\t', '\r':
			case '{', '[':
				j.state = passing
			default:
				j.state = skipping
				j.dropped = append(j.dropped[:0], c)
				continue
			}
		case skipping:
			if len(j.dropped) < noteKeep {
				j.dropped = append(j.dropped, c)
			}
			continue
		}
		p[out] = c
		out++
	}
	return out, nil
}

func (j *jsonLines) dropLine() {
	if j.skip != nil {
		j.skip(strings.TrimRight(string(j.dropped), " \t\r"))
	}
	j.dropped = j.dropped[:0]
}

// skipped counts the lines a server wrote on stdout that were not
// messages, keeping the first one to quote.
type skipped struct {
	mu    sync.Mutex
	n     int
	first string
}

func (s *skipped) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		s.first = line
	}
	s.n++
}

// note says what was skipped, "" when nothing was; scrub cleans the
// quoted line before it is quoted (quoting would hide a value from it),
// told whether the line was cut.
func (s *skipped) note(scrub func(line string, front, back bool) string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return ""
	}
	first := scrub(s.first, false, len(s.first) >= noteKeep)
	if s.n == 1 {
		return fmt.Sprintf("skipped a line on stdout that is not a JSON-RPC message: %q", first)
	}
	return fmt.Sprintf("skipped %d lines on stdout that are not JSON-RPC messages, the first: %q", s.n, first)
}
