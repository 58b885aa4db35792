package lint

import (
	"fmt"
	"regexp"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// Rules for a catalog merged from several servers (--merge, --mcp-config):
// what a host that mounts them all makes of their names. They say nothing
// on a single catalog (no tool has a Server).
const (
	RuleServerSameName       = "cross-server-same-name"
	RuleQualifiedCollision   = "qualified-name-collision"
	RuleQualifiedNameTooLong = "qualified-name-too-long"
)

// ServerRules is the pack of rules for merged catalogs.
func ServerRules() []Rule {
	return []Rule{CrossServerSameNameRule(), QualifiedCollisionRule(), QualifiedNameTooLongRule()}
}

// A host's way of qualifying a server's tool: Claude Code's
// mcp__server__tool (the server's characters outside [A-Za-z0-9_-] made
// `_`), and Cursor's limit on the two names together. VS Code resolves
// its own prefixes' collisions and is not checked. docs/live.md says how
// each host does it.
type hostScheme struct {
	host string
	name func(server, tool string) string
	// limit is the longest qualified name the host or its model provider
	// accepts (0: none checked here).
	limit int
	// collides says the host lets two tools share the qualified name.
	collides bool
}

var hostUnsafe = regexp.MustCompile(`[^A-Za-z0-9_-]`)

var hostSchemes = []hostScheme{
	{host: "Claude Code", name: func(s, t string) string { return "mcp__" + hostUnsafe.ReplaceAllString(s, "_") + "__" + t }, limit: 64, collides: true},
	{host: "Cursor", name: func(s, t string) string { return s + t }, limit: 60},
}

// qualifiedNames is, for each host scheme that can qualify two tools into
// one name, the indices of the tools each qualified name is given, in
// catalog order: worked out once for the catalog, on first use.
func (c *Context) qualifiedNames() []map[string][]int {
	c.qualifiedOnce.Do(func() {
		c.qualified = make([]map[string][]int, len(hostSchemes))
		for k, h := range hostSchemes {
			if !h.collides {
				continue
			}
			m := map[string][]int{}
			for i, t := range c.Catalog.Tools {
				if server, tool, ok := serverTool(t); ok {
					q := h.name(server, tool)
					m[q] = append(m[q], i)
				}
			}
			c.qualified[k] = m
		}
	})
	return c.qualified
}

// servedNames is the indices of the tools of each served name, in
// catalog order: worked out once for the catalog, on first use.
func (c *Context) servedNames() map[string][]int {
	c.servedOnce.Do(func() {
		c.served = map[string][]int{}
		for i, t := range c.Catalog.Tools {
			if _, tool, ok := serverTool(t); ok {
				c.served[tool] = append(c.served[tool], i)
			}
		}
	})
	return c.served
}

// serverTool is a merged catalog tool's server and served name.
func serverTool(t *catalog.Tool) (server, tool string, ok bool) {
	if t.Server == "" {
		return "", "", false
	}
	return t.Server, t.OwnName(), true
}

// CrossServerSameNameRule flags a tool whose served name an earlier server
// of the merged catalog serves too.
func CrossServerSameNameRule() Rule {
	return Rule{
		ID:       RuleServerSameName,
		Severity: SeverityWarn,
		Summary:  "two servers serve a tool under the same name",
		Teaching: Teaching{
			Why:    "A host that mounts both servers either qualifies the names (the model then tells them apart by the server's part alone) or keeps the served names, where one of the two shadows the other and the model keeps calling the same one. Either way the model sees one name for two tools that may do different things, or the same job twice.",
			Fix:    "If the two tools do the same job, keep one server's tool and disable the other in the host. If they differ, rename one on its server after what sets it apart (`neon_list_projects`), or give the server a name that says what it is for.",
			Before: `neon: list_projects, supabase: list_projects`,
			After:  `neon: list_projects (supabase's disabled in the host)`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			server, tool, ok := serverTool(t)
			if !ok {
				return nil
			}
			for _, k := range c.servedNames()[tool] {
				if k >= t.Index {
					break
				}
				if o := c.Catalog.Tools[k]; o.Server != server {
					return []Finding{{Severity: SeverityWarn,
						Message: fmt.Sprintf("server %s serves %s too (%s): a host shows the model one name for both", jsonv.Quote(o.Server), jsonv.Quote(tool), o.Name)}}
				}
			}
			return nil
		},
	}
}

// QualifiedCollisionRule flags a tool whose name, once a host qualifies it
// with its server, is an earlier tool's of another server or name.
func QualifiedCollisionRule() Rule {
	return Rule{
		ID:       RuleQualifiedCollision,
		Severity: SeverityError,
		Summary:  "two tools get one name once a host qualifies them with their servers",
		Teaching: Teaching{
			Why:    "Hosts qualify each tool with its server's name and replace the characters a provider refuses: Claude Code calls the `query` tool of servers `my.db` and `my_db` both mcp__my_db__query, and `a__b`'s `c` is `a`'s `b__c`. Two tools under one qualified name cannot both be called: the host drops one, or the provider rejects the request.",
			Fix:    "Rename one of the servers in the config so that their names differ in letters, digits, `_` or `-`, not in characters the host replaces.",
			Before: `{"mcpServers": {"my.db": {...}, "my_db": {...}}}`,
			After:  `{"mcpServers": {"orders_db": {...}, "users_db": {...}}}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			server, tool, ok := serverTool(t)
			if !ok {
				return nil
			}
			named := c.qualifiedNames()
			for k, h := range hostSchemes {
				if !h.collides {
					continue
				}
				mine := h.name(server, tool)
				for _, i := range named[k][mine] {
					if i >= t.Index {
						break
					}
					os, ot, _ := serverTool(c.Catalog.Tools[i])
					if os == server && ot == tool {
						continue
					}
					return []Finding{{Severity: SeverityError,
						Message: fmt.Sprintf("%s names it %s, as it names %s's %s: one of the two cannot be called", h.host, jsonv.Quote(mine), jsonv.Quote(os), jsonv.Quote(ot))}}
				}
			}
			return nil
		},
	}
}

// QualifiedNameTooLongRule flags a tool whose qualified name passes a
// host's or its provider's limit.
func QualifiedNameTooLongRule() Rule {
	return Rule{
		ID:       RuleQualifiedNameTooLong,
		Severity: SeverityError,
		Summary:  "the name a host gives the tool is longer than its provider accepts",
		Teaching: Teaching{
			Why:    "A host sends the qualified name to the model's provider. Claude Code's mcp__server__tool must fit the Claude API's 64 characters, or the request fails (`tool_name: String should have at most 64 characters`); Cursor warns when the server's and the tool's names together pass 60 and may leave the tool out.",
			Fix:    "Shorten the server's name in the config (it is yours to choose), or the tool's name on its server.",
			Before: `{"mcpServers": {"cloudflare-workers-observability": {...}}}`,
			After:  `{"mcpServers": {"observability": {...}}}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			server, tool, ok := serverTool(t)
			if !ok {
				return nil
			}
			var over []string
			severity := SeverityWarn
			for _, h := range hostSchemes {
				if n := len(h.name(server, tool)); h.limit > 0 && n > h.limit {
					over = append(over, fmt.Sprintf("%s: %d characters, over %d", h.host, n, h.limit))
					if h.host != "Claude Code" {
						over[len(over)-1] = fmt.Sprintf("%s: server and tool names %d characters together, over %d", h.host, n, h.limit)
					}
					if h.host == "Claude Code" {
						severity = SeverityError
					}
				}
			}
			if len(over) == 0 {
				return nil
			}
			return []Finding{{Severity: severity,
				Message: fmt.Sprintf("qualified, %s is too long (%s)", jsonv.Quote(hostSchemes[0].name(server, tool)), strings.Join(over, "; "))}}
		},
	}
}
