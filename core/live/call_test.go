package live

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"toolscope/core/live/livetest"
)

// A tool of the listed catalog is called on its server; an unknown tool is
// the server's error, named with the step.
func TestCallRunsTheToolOnItsServer(t *testing.T) {
	tr := transports[2] // http
	src, err := Open(context.Background(), serve(t, tr, livetest.Behaviour{}), testOptions(tr))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat, err := src.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := src.Call(context.Background(), cat.Tools[0], json.RawMessage(`{}`))
	if err != nil || res.IsError || res.Text != "(no content)" {
		t.Fatalf("call: %+v %v", res, err)
	}
	ghost := *cat.Tools[0]
	ghost.Name = "no_such_tool"
	if _, err := src.Call(context.Background(), &ghost, nil); err == nil || !strings.Contains(err.Error(), "tools/call no_such_tool") {
		t.Errorf("unknown tool: %v", err)
	}
	src.Close()
	if _, err := src.Call(context.Background(), cat.Tools[0], nil); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("after Close: %v", err)
	}
}

func TestContentText(t *testing.T) {
	got := contentText([]mcp.Content{&mcp.TextContent{Text: "hello"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte("abc")}, &mcp.ResourceLink{URI: "file:///x"}})
	if want := "hello\n[image image/png, 3 bytes]\n[resource link file:///x]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if contentText(nil) != "(no content)" {
		t.Error("no content")
	}
}
