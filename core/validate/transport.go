package validate

import (
	"errors"
	"fmt"
	"strings"

	"toolscope/core/jsonv"
)

// depthMsg is the parser's reason for refusing nesting past its limit.
var depthMsg = fmt.Sprintf("nesting deeper than %d levels", jsonv.MaxDepth)

// ExpectedArguments is what a transport-failure issue expected.
const ExpectedArguments = "arguments as one JSON object"

// ParseArguments reads the arguments text of a tool call. Text that is not
// JSON, or is JSON cut off (a streamed call that ended early), becomes one
// value-free issue at the root saying where the text stopped making sense;
// the text itself is never echoed. Empty text means no arguments: it
// returns nil and no issue, and Validate reads nil as {}.
func ParseArguments(text string) (*jsonv.Value, []Issue) {
	data := []byte(text)
	end := len(strings.TrimRight(text, " \t\r\n"))
	if end == 0 {
		return nil, nil
	}
	v, err := jsonv.Parse(data)
	if err == nil {
		return v, nil
	}
	at, got := 0, "unparseable JSON"
	var se *jsonv.SyntaxError
	if errors.As(err, &se) {
		at = se.Pos.Offset
		switch {
		case se.Msg == depthMsg:
			got = fmt.Sprintf("JSON nested deeper than %d levels", jsonv.MaxDepth)
		case at >= end:
			got = "truncated JSON"
		}
	}
	return nil, []Issue{{Path: "", Expected: ExpectedArguments, Got: fmt.Sprintf("%s at byte %d", got, at)}}
}
