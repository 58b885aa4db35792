//go:build !unix

package pipeline

import "io/fs"

// fileID is a file's identity; here the system gives none, and paths
// (made absolute, symlinks resolved) stand for files.
func fileID(fs.FileInfo) (string, bool) { return "", false }
