package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"toolscope/core/catalog"
)

// DefaultCallTimeout bounds a tools/call.
const DefaultCallTimeout = 60 * time.Second

// CallResult is a tools/call answer as the model would read it.
type CallResult struct {
	// Text is the content, each part on its own: text as it is, other
	// parts named with their type and size.
	Text string
	// IsError is the server's own mark that the call failed.
	IsError bool
}

// Call calls a tool of the catalog List returned on its server, with
// arguments as a JSON object, and returns what the server answered. It
// runs the tool for real: the caller asks the user first. A lost server
// is not started again (List does that).
func (s *Source) Call(ctx context.Context, tool *catalog.Tool, args json.RawMessage) (CallResult, error) {
	if s.ctx.Err() != nil {
		return CallResult{}, errors.New(s.name + ": the source is closed")
	}
	i, name := 0, tool.Name
	if tool.Server != "" || len(s.specs) > 1 {
		i = -1
		for j, spec := range s.specs {
			if spec.Name == tool.Server {
				i = j
			}
		}
		if i < 0 {
			return CallResult{}, fmt.Errorf("%s: no server named %q", s.name, tool.Server)
		}
		name = tool.ServedName
	}
	c := s.conn(i)
	if c == nil || !c.alive() {
		return CallResult{}, &Error{Server: s.specs[i].String(), Step: "tools/call", Msg: "not connected (r lists the tools again, starting it)"}
	}
	ctx, stop := s.bound(ctx)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer cancel()
	uncut := context.AfterFunc(c.cut, cancel)
	defer uncut()
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return CallResult{}, c.failure("tools/call "+name, err, ctx, DefaultCallTimeout)
	}
	return CallResult{Text: contentText(res.Content), IsError: res.IsError}, nil
}

// contentText is a result's content as text, one part after another.
func contentText(parts []mcp.Content) string {
	var out []string
	for _, p := range parts {
		switch c := p.(type) {
		case *mcp.TextContent:
			out = append(out, c.Text)
		case *mcp.ImageContent:
			out = append(out, fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			out = append(out, fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			out = append(out, "[resource link "+c.URI+"]")
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				out = append(out, c.Resource.Text)
			} else if c.Resource != nil {
				out = append(out, "[resource "+c.Resource.URI+"]")
			}
		default:
			out = append(out, fmt.Sprintf("[%T]", p))
		}
	}
	if len(out) == 0 {
		return "(no content)"
	}
	return strings.Join(out, "\n")
}
