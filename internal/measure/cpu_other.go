//go:build !unix

package measure

import "time"

// CPUTime is unavailable here; benchmarks then report wall time only.
func CPUTime() time.Duration { return 0 }
