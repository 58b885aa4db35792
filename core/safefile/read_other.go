//go:build !unix

package safefile

import (
	"os"
	"time"
)

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

func setBlocking(*os.File) error { return nil }

func openFIFO(path string, _ time.Duration) (*os.File, error) { return os.Open(path) }
