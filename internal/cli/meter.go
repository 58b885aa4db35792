package cli

import (
	"sync"

	"toolscope/core/tokens"
	"toolscope/embed/cache"
)

// runMeters are the token meters of this process, by cache directory (""
// for --no-cache, or no cache directory): every catalog a run lints
// shares one.
var runMeters struct {
	sync.Mutex
	byDir map[string]*tokens.Meter
}

// tokenMeter is the meter a run of f counts definitions with: it answers
// from the cache directory what an earlier run counted, unless --no-cache.
func (f *catalogFlags) tokenMeter() *tokens.Meter {
	dir := ""
	if !f.noCache {
		dir, _ = cache.DefaultDir()
	}
	runMeters.Lock()
	defer runMeters.Unlock()
	if m := runMeters.byDir[dir]; m != nil {
		return m
	}
	var store tokens.Store
	if dir != "" {
		store = cache.NewCounts(cache.Options{Dir: dir})
	}
	m := tokens.NewMeter(store)
	if runMeters.byDir == nil {
		runMeters.byDir = map[string]*tokens.Meter{}
	}
	runMeters.byDir[dir] = m
	return m
}
