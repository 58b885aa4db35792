//go:build !amd64

package vecf32

// HasAVX2 is false off amd64: DotBlock runs in plain Go.
const HasAVX2 = false
