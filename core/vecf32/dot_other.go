//go:build !amd64

package vecf32

// HasAVX2 and HasAVX512 are false off amd64: DotBlock runs in plain Go.
const (
	HasAVX2   = false
	HasAVX512 = false
)
