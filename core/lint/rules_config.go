package lint

import "toolscope/core/catalog"

// The config rules judge an mcp-config file, not a tool: `lint
// --mcp-config FILE` runs them on the file (core/hygiene) and reports
// their findings located in it. Listed with the other rules for their ids,
// their teaching and --disable; their Check finds nothing in a catalog.
const (
	RuleConfigUnpinned        = "config-unpinned-package"
	RuleConfigInlineSecret    = "config-inline-secret"
	RuleConfigPlainHTTP       = "config-plain-http"
	RuleConfigShellCommand    = "config-shell-command"
	RuleConfigSecretsReadable = "config-secrets-readable"
	RuleConfigServerDown      = "config-server-unavailable"
)

// ConfigRules is the pack of mcp-config rules.
func ConfigRules() []Rule {
	none := func(*catalog.Tool, *Context) []Finding { return nil }
	return []Rule{
		{
			ID: RuleConfigUnpinned, Severity: SeverityWarn, Check: none,
			Summary: "a server's package is fetched without a fixed version",
			Teaching: Teaching{
				Why:    "`npx -y pkg`, `uvx pkg` and `docker run image` fetch the package each time the host starts the server. Without an exact version (or with @latest, a range or a moving tag) every start may run a different release, including one published by whoever took over the package, with your tokens in its environment.",
				Fix:    "Pin an exact version: `pkg@1.2.3` for npx, `pkg==1.2.3` for uvx, a version tag or a digest (`image@sha256:…`) for docker. Update it on purpose.",
				Before: `"args": ["-y", "@modelcontextprotocol/server-github"]`,
				After:  `"args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"]`,
			},
		},
		{
			ID: RuleConfigInlineSecret, Severity: SeverityWarn, Check: none,
			Summary: "a secret is written inline in the config",
			Teaching: Teaching{
				Why:    "A token written in env, args, headers or the URL ends up in backups, screenshots, shared dotfiles and commits. Claude Code (`${VAR}`), Cursor and VS Code (`${env:VAR}`) read variables instead, so the file can be shared without the secret.",
				Fix:    "Move the value to your environment (or a secret store) and refer to it; where the host takes no references, keep the file private (chmod 600).",
				Before: `"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_…"}`,
				After:  `"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}"}`,
			},
		},
		{
			ID: RuleConfigPlainHTTP, Severity: SeverityWarn, Check: none,
			Summary: "a server is reached over plain http on another machine",
			Teaching: Teaching{
				Why:    "Over http:// every request, every tool result and any token in the headers cross the network in clear, and anyone on the path can change what the model reads. Loopback (localhost, 127.0.0.1, ::1) stays on your machine and is not reported.",
				Fix:    "Use the server's https:// address, or reach it through a tunnel that ends on localhost.",
				Before: `"url": "http://mcp.internal.example.org/sse"`,
				After:  `"url": "https://mcp.internal.example.org/sse"`,
			},
		},
		{
			ID: RuleConfigShellCommand, Severity: SeverityWarn, Check: none,
			Summary: "a server runs through sudo or as a shell command line",
			Teaching: Teaching{
				Why:    "Under sudo the server, and every tool a model calls, runs as root. A shell given a command line (`bash -c \"cd x && ./start\"`) hides the program the host starts behind the shell's quoting and variables, so the config no longer says what runs. (`cmd /c npx …`, how Windows starts npx, names one program and is not reported.)",
				Fix:    "Name the program as command and its arguments in args; give the server only the rights it needs (a user, a container) rather than root.",
				Before: `"command": "bash", "args": ["-c", "cd /srv/app && ./start.sh"]`,
				After:  `"command": "/srv/app/start.sh", "args": []`,
			},
		},
		{
			ID: RuleConfigSecretsReadable, Severity: SeverityError, Check: none,
			Summary: "a config holding secrets can be read by other users",
			Teaching: Teaching{
				Why:    "A config with a token written in it and readable by the file's group or by everyone gives that token to every account on the machine (Unix permissions; not checked on Windows).",
				Fix:    "Make the file private (`chmod 600`), and better, move the secrets out of it.",
				Before: `-rw-r--r--  claude_desktop_config.json`,
				After:  `-rw-------  claude_desktop_config.json`,
			},
		},
		{
			ID: RuleConfigServerDown, Severity: SeverityError, Check: none,
			Summary: "a server in the config could not be started or listed",
			Teaching: Teaching{
				Why:    "A server that does not start, does not complete the MCP handshake or does not answer tools/list gives the host no tools, and its tools were not checked: the rest of the report is about the other servers only. Hosts start it the same way, so it fails for them too.",
				Fix:    "Run its command by hand to see why (a missing program, package or variable, a wrong URL, a token the server refuses), fix the entry, or disable it (`\"disabled\": true`) or drop it if it is gone. `--server NAME,...` lints the others alone.",
				Before: `"command": "npx", "args": ["-y", "@example/mcp-server-gone@1.0.0"]`,
				After:  `"command": "npx", "args": ["-y", "@example/mcp-server@2.1.0"]`,
			},
		},
	}
}
