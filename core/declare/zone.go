package declare

import (
	"errors"
	"sync"
	"time"

	// The zone database travels in the binary: a period's zone argument
	// names an IANA zone, and users' machines may have no zoneinfo.
	_ "time/tzdata"
)

// zones caches loaded zones by name; the explorer resolves a call on every
// keystroke and loading a zone reads and parses its data. Only real zones
// are kept, so the cache is bounded by the zone database.
var zones sync.Map // name -> *time.Location

// LoadZone reads an IANA zone name such as `Europe/Paris` or `UTC`. The
// name `Local` is refused: it means whatever machine runs the code, which is
// no zone a declaration can name.
func LoadZone(name string) (*time.Location, error) {
	if v, ok := zones.Load(name); ok {
		return v.(*time.Location), nil
	}
	if name == "" || name == "Local" {
		return nil, errNotZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, errNotZone
	}
	zones.Store(name, loc)
	return loc, nil
}

var errNotZone = errors.New("not an IANA zone name (like Europe/Paris or UTC)")
