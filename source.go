package main

import (
	"toolscope/core/catalog"
	"toolscope/fixtures"
)

// loadCatalog resolves a CATALOG argument: "" is the bundled demo, "-" is
// stdin, anything else a file.
func loadCatalog(arg string, io stdio) (*catalog.Catalog, error) {
	switch arg {
	case "":
		return catalog.Parse(fixtures.DemoName, fixtures.Demo())
	default:
		return catalog.Load(arg, io.in)
	}
}
