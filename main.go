// Command toolscope explores and lints the tool catalogs LLM agents are
// given: the explorer on a terminal, a text report otherwise, and the
// subcommands of a CI gate. The command line lives in internal/cli; this
// file only starts it.
package main

import (
	"os"

	"toolscope/internal/cli"
)

func main() { os.Exit(cli.Main()) }
