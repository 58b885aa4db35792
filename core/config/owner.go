package config

import "toolscope/core/safefile"

// checkOwner says why a config found by search may not be read (see
// safefile.CheckOwner).
func checkOwner(path string) error { return safefile.CheckOwner(path) }
