package cli

import (
	"os"
	"path/filepath"
	"strings"

	"toolscope/core/pipeline"
)

// repoRoot is the directory report paths are relative to: $GITHUB_WORKSPACE
// when set, else the top of the git work tree holding the working
// directory, else "" (paths stay as given).
func repoRoot() string {
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" {
		if abs, err := filepath.Abs(ws); err == nil {
			return abs
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// repoPath is a catalog file's path relative to root, with forward
// slashes, as code-scanning UIs and annotations want it; the path as given
// when root is "" or the file lies outside it, and arg itself for stdin
// and live servers.
func repoPath(root, arg string) string {
	if !pipeline.IsFileArg(arg) || root == "" {
		return arg
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return filepath.ToSlash(arg)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(arg)
	}
	return filepath.ToSlash(rel)
}

// target is one catalog a run lints.
type target struct {
	// arg is what the loader takes: a path, "-", a live server, or "" for
	// --mcp-config's servers.
	arg string
}

// expandCatalogs turns the arguments into targets (pipeline.Expand).
func expandCatalogs(args []string) ([]target, error) {
	files, err := pipeline.Expand(args)
	if err != nil {
		return nil, err
	}
	out := make([]target, len(files))
	for i, f := range files {
		out[i] = target{arg: f}
	}
	return out, nil
}
