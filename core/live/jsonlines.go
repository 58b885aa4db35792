package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// noteKeep is how much of a skipped line a note quotes.
const noteKeep = 200

// holdMax is how long a line that starts like JSON may be and still be
// held whole to be judged: log lines and banners are shorter, and a
// longer line (a large list answer) streams.
const holdMax = 64 << 10

// jsonLines passes on the lines of a stdio server's stdout that are
// JSON-RPC messages and drops the others, as the TypeScript SDK does: a
// banner or a log line some servers print before or while they speak MCP
// would otherwise end the connection. A line whose first character other
// than a blank is not `{` or `[` is dropped as it arrives; one that starts
// like JSON is held until its end and dropped unless it is a message or
// a batch of them, or passed on once it is longer than holdMax. A line
// longer than max bytes (0: maxMessage) fails the read.
type jsonLines struct {
	r    io.Reader
	max  int
	skip func(line string) // called with the start of each dropped line
	over func()            // called when a line is over max

	state   int // lineStart, holding, passing or skipping
	lineLen int
	held    []byte // the line so far, while lineStart or holding
	dropped []byte // the start of the line being dropped
	ready   []byte // bytes passed on, not yet read
	err     error  // to return once ready is read
}

const (
	lineStart = iota
	holding
	passing
	skipping
)

func (j *jsonLines) Read(p []byte) (int, error) {
	for {
		if len(j.ready) > 0 {
			n := copy(p, j.ready)
			j.ready = j.ready[n:]
			return n, nil
		}
		if j.err != nil {
			return 0, j.err
		}
		j.ready = j.ready[:0]
		n, err := j.r.Read(p)
		if ferr := j.filter(p[:n]); ferr != nil {
			j.err = ferr
			continue
		}
		if err == io.EOF {
			j.endLine()
		}
		if err != nil {
			j.err = err
		} else if n == 0 && len(j.ready) == 0 {
			return 0, nil
		}
		// A read that held only dropped or held bytes must not look like
		// the end of the stream: read on.
	}
}

// filter appends the bytes of p that belong to lines passed on to ready.
func (j *jsonLines) filter(p []byte) error {
	for i := 0; i < len(p); i++ {
		if j.state == passing || j.state == skipping {
			// The rest of the line at once: a list answer is long.
			end := bytes.IndexByte(p[i:], '\n')
			if end < 0 {
				end = len(p) - i
			}
			if j.lineLen+end > orMax(j.max) {
				if j.over != nil {
					j.over()
				}
				return errOverLimit
			}
			j.lineLen += end
			if j.state == passing {
				j.ready = append(j.ready, p[i:i+end]...)
			} else if room := noteKeep - len(j.dropped); room > 0 {
				j.dropped = append(j.dropped, p[i:i+min(room, end)]...)
			}
			if i += end; i == len(p) {
				break
			}
		}
		c := p[i]
		if c == '\n' {
			if j.endLine() {
				j.ready = append(j.ready, c)
			}
			continue
		}
		j.lineLen++
		if j.lineLen > orMax(j.max) {
			if j.over != nil {
				j.over()
			}
			return errOverLimit
		}
		switch j.state {
		case lineStart:
			switch c {
			case ' ', '\t', '\r':
				j.held = append(j.held, c)
			case '{', '[':
				j.state = holding
				j.held = append(j.held, c)
			default:
				j.state = skipping
				j.held = j.held[:0]
				j.dropped = append(j.dropped[:0], c)
			}
		case holding:
			j.held = append(j.held, c)
			if len(j.held) > holdMax {
				j.ready = append(j.ready, j.held...)
				j.held = j.held[:0]
				j.state = passing
			}
		}
	}
	return nil
}

// endLine ends the line at a newline or the end of the stream: a held
// line is judged, a dropped one reported. It reports whether the line was
// passed on (its newline goes with it).
func (j *jsonLines) endLine() bool {
	passed := true
	switch j.state {
	case lineStart:
		j.ready = append(j.ready, j.held...)
	case holding:
		if isMessage(j.held) {
			j.ready = append(j.ready, j.held...)
		} else {
			start := bytes.TrimLeft(j.held, " \t\r")
			j.dropped = append(j.dropped[:0], start[:min(noteKeep, len(start))]...)
			j.dropLine()
			passed = false
		}
	case skipping:
		j.dropLine()
		passed = false
	}
	j.state, j.lineLen, j.held = lineStart, 0, j.held[:0]
	return passed
}

// isMessage reports whether a line is a JSON-RPC message, or a batch of
// them.
func isMessage(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '[' {
		_, err := jsonrpc.DecodeMessage(line)
		return err == nil
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil || len(batch) == 0 {
		return false
	}
	for _, m := range batch {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return false
		}
	}
	return true
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
	if s.n == 1 {
		return fmt.Sprintf("skipped a line on stdout that is not a JSON-RPC message: %q", first)
	}
	return fmt.Sprintf("skipped %d lines on stdout that are not JSON-RPC messages, the first: %q", s.n, first)
}
