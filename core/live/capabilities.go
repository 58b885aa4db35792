//lint:file-ignore SA1019 hosts still declare roots and sampling, deprecated in the 2026-07-28 protocol, and servers still offer tools by them

package live

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostCapabilities are the client options toolscope connects with. A server
// may offer tools only to a client that declares a capability (the
// reference server-everything lists three more to one that declares roots,
// sampling and elicitation), so by default toolscope declares what hosts
// declare and answers the requests safely: roots/list with no roots (a
// linter grants no folder to a server it does not trust), sampling with a
// refusal, elicitation with a decline. bare declares nothing.
func hostCapabilities(bare bool) *mcp.ClientOptions {
	if bare {
		return &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	}
	return &mcp.ClientOptions{
		// Roots without list changes: the list is empty for good.
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, &jsonrpc.Error{Code: codeUserRejected, Message: errNoSampling}
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}
}

// codeUserRejected is the JSON-RPC error code the MCP spec's examples give
// a sampling request the user rejected.
const codeUserRejected = -1

// errNoSampling is the refusal a sampling request gets.
const errNoSampling = "toolscope only lists tools: it samples no model"
