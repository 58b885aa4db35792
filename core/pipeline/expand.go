package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"toolscope/core/judge"
	"toolscope/core/live"
)

// What lint's CATALOG arguments expand to (docs/lint.md#many-catalogs): a
// file, '-' or a live server is itself; a directory is every *.json file
// under it that holds a catalog; a pattern with *, ?, [ or ** is every
// file it matches, ** crossing any number of directories.

// skippedDirs are never walked into: they hold dependencies or tooling,
// not a project's catalogs.
var skippedDirs = map[string]bool{"node_modules": true, "vendor": true}

// notCatalogFiles are JSON files a directory often holds that are never
// catalogs.
var notCatalogFiles = map[string]bool{"package.json": true, "package-lock.json": true, "tsconfig.json": true, "composer.json": true, "deno.json": true}

// notCatalog reports whether a file name is one a folder's walk never
// lints as a catalog: a known non-catalog (package.json), or one of
// toolscope's own files.
func notCatalog(name string) bool { return notCatalogFiles[name] || ownFile(name) }

// ownFile reports whether a file name is one of toolscope's own, which
// neither a folder's walk nor a pattern lints as a catalog: the probe
// record, the explorer's exported reports (NAME.toolscope.json). Named on
// the command line, any file is linted.
func ownFile(name string) bool {
	return name == judge.ProbeFileName || strings.HasSuffix(name, ".toolscope.json")
}

// ownDocumentStart matches the start of a document toolscope writes,
// whatever its file's name: a baseline, a probe record, a lint report in
// JSON (one catalog's or several's); their writers put these keys first.
var ownDocumentStart = regexp.MustCompile(`^\{\s*"(?:kind"\s*:\s*"toolscope-baseline"|probe"\s*:\s*[0-9]|ok"\s*:\s*(?:true|false)\s*,\s*"(?:toolCount|catalogs)")`)

// ownDocument reports whether the file at p is one toolscope wrote (see
// ownDocumentStart), which a walk or a pattern does not lint as a
// catalog; only its first bytes are read.
func ownDocument(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false // the loader says why
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(f, buf)
	head := bytes.TrimLeft(bytes.TrimPrefix(buf[:n], []byte("\uFEFF")), " \t\r\n")
	return ownDocumentStart.Match(head)
}

// Expand turns CATALOG arguments into the catalogs they name, in
// argument order, each file once: a file, '-' or a live server is
// itself, a directory its catalog files, a pattern the files it matches.
func Expand(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(arg string) {
		key := arg
		if IsFileArg(arg) {
			key = FileKey(arg)
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, arg)
		}
	}
	for _, a := range args {
		_, statErr := os.Lstat(a)
		switch {
		case !IsFileArg(a):
			add(a)
		case HasGlobMeta(a) && statErr != nil:
			// A file whose name looks like a pattern (tools[1].json) is
			// that file; only a name that is no file is a pattern.
			files, err := globFiles(a)
			if err := addFound(files, err, a+": no file matches", add); err != nil {
				return nil, err
			}
		default:
			st, err := os.Stat(a)
			if err != nil || !st.IsDir() {
				add(a) // the loader says what is wrong with it
				continue
			}
			files, err := jsonFilesUnder(a)
			if err := addFound(files, err, a+": a directory with no .json file", add); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// addFound adds the files a pattern or a folder found, each a file and
// none of toolscope's own documents; none found is the error none.
func addFound(files []string, err error, none string, add func(string)) error {
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New(none)
	}
	for _, f := range files {
		if err := notStream(f); err != nil {
			return err
		}
		if !ownDocument(f) {
			add(f)
		}
	}
	return nil
}

// FileKey is what tells two paths of one file apart from two files: its
// identity (fileID) when the system gives one, else its absolute path
// with symlinks resolved; the path as given when it cannot be read (the
// loader says why).
func FileKey(p string) string {
	if st, err := os.Stat(p); err == nil {
		if id, ok := fileID(st); ok {
			return "id:" + id
		}
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// notStream refuses a walked or matched file that is no regular file once
// its symlinks are followed: a committed link to /dev/stdin, /dev/tty or a
// FIFO would hang the run, or read what a user types. (A file named on the
// command line may be a stream: `lint <(cmd)`.) A dangling link passes,
// for the loader to name.
func notStream(p string) error {
	st, err := os.Stat(p)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch m := st.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a file"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		what = "a device, not a file"
	case m&fs.ModeSocket != 0:
		what = "a socket, not a file"
	}
	if target, err := os.Readlink(p); err == nil {
		what += " (a link to " + target + ")"
	}
	return fmt.Errorf("%s: %s: a catalog found in a folder or by a pattern must be a file", p, what)
}

// IsFileArg reports whether a is a path rather than stdin or a live server.
func IsFileArg(a string) bool { return a != "" && a != "-" && !live.IsLive(a) }

// HasGlobMeta reports whether an argument is written as a pattern.
func HasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// jsonFilesUnder lists the *.json files under dir in lexical order, past
// hidden directories, dependencies and known non-catalog files. A symlink
// is never skipped in silence: one named *.json is listed (the loader
// reads what it points at, or says why it cannot), one to a directory is
// walked too, once (a loop ends there).
func jsonFilesUnder(dir string) ([]string, error) {
	return jsonFilesBelow(dir, map[string]bool{})
}

func jsonFilesBelow(dir string, walked map[string]bool) ([]string, error) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		if walked[real] {
			return nil, nil
		}
		walked[real] = true
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || skippedDirs[name]) {
				return filepath.SkipDir
			}
			if real, err := filepath.EvalSymlinks(p); err == nil {
				walked[real] = true
			}
			return nil
		}
		isJSON := strings.HasSuffix(name, ".json") && !notCatalog(name)
		if d.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			switch {
			case err == nil && st.IsDir() && !strings.HasPrefix(name, ".") && !skippedDirs[name]:
				// The trailing separator walks what the link points at.
				below, err := jsonFilesBelow(p+string(filepath.Separator), walked)
				out = append(out, below...)
				return err
			case isJSON:
				out = append(out, p) // a dangling one too: its error is said
			}
			return nil
		}
		if isJSON {
			// A FIFO or device is listed too, for notStream to refuse
			// naming it, never skipped in silence.
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, walkError(dir, err)
	}
	return out, nil
}

// walkError names what a directory's walk could not read: the
// subdirectory itself ("tools/private: permission denied"), not the
// directory given.
func walkError(dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path != "" {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return fmt.Errorf("%s: %w", dir, err)
}

// globFiles lists the regular files matching pattern, in lexical order. A
// "**" segment matches any number of directories (none included); other
// segments match as path.Match does, never a hidden name unless the
// segment itself starts with a dot; "**" does not go into hidden
// directories, node_modules or vendor.
func globFiles(pattern string) ([]string, error) {
	pattern = filepath.ToSlash(pattern)
	segs := strings.Split(pattern, "/")
	for _, s := range segs {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("%s: a malformed pattern", pattern)
		}
	}
	// The walk starts at the longest prefix without a pattern.
	i := 0
	for i < len(segs)-1 && !HasGlobMeta(segs[i]) {
		i++
	}
	root := strings.Join(segs[:i], "/")
	switch {
	case root == "" && strings.HasPrefix(pattern, "/"):
		root = "/"
	case root == "":
		root = "."
	}
	rest := segs[i:]
	var out []string
	err := filepath.WalkDir(filepath.FromSlash(root), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// The root, or a subdirectory the pattern reaches into that
			// cannot be read: the files in it are not matched in silence.
			return err
		}
		rel, _ := filepath.Rel(filepath.FromSlash(root), p)
		if rel == "." {
			return nil
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if d.IsDir() {
			if !canMatchBelow(rest, parts) {
				return filepath.SkipDir
			}
			return nil
		}
		// A symlink that matches is listed: the loader reads what it
		// points at, or says why it cannot.
		if !ownFile(d.Name()) && matchSegments(rest, parts) {
			out = append(out, p)
		}
		return nil
	})
	// A literal prefix that names nothing matches nothing: missing, through
	// a file, or longer than a file name may be.
	var pe *fs.PathError
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.ENAMETOOLONG):
	case errors.As(err, &pe) && filepath.Clean(pe.Path) != filepath.Clean(filepath.FromSlash(root)):
		return nil, fmt.Errorf("%s: %s: %w", pattern, pe.Path, pe.Err)
	default:
		return nil, fmt.Errorf("%s: %w", pattern, unwrapPathError(err))
	}
	return out, nil
}

// matchSegments reports whether the path's parts match the pattern's
// segments.
func matchSegments(pat, parts []string) bool {
	return segmentsMatch(pat, parts, func(i int) bool {
		for _, s := range pat[i:] {
			if s != "**" {
				return false
			}
		}
		return true
	})
}

// canMatchBelow reports whether some path under the directory dir (its
// parts) can still match the pattern.
func canMatchBelow(pat, dir []string) bool {
	return segmentsMatch(pat, dir, func(i int) bool { return i < len(pat) })
}

// segmentsMatch matches parts against pat, "**" taking any number of
// crossable parts; atEnd(i) says whether pat[i:] is a match once the parts
// are used up. A table of pattern by part keeps it to len(pat)*len(parts)
// steps: trying every split of each "**" in turn grows exponentially with
// their count ("**/**/**/…/z" over a deep tree).
func segmentsMatch(pat, parts []string, atEnd func(i int) bool) bool {
	// next[i] is whether pat[i:] matches parts[j+1:]; cur, parts[j:].
	next := make([]bool, len(pat)+1)
	cur := make([]bool, len(pat)+1)
	for i := range cur {
		cur[i] = atEnd(i)
	}
	for j := len(parts) - 1; j >= 0; j-- {
		next, cur = cur, next
		cur[len(pat)] = false
		for i := len(pat) - 1; i >= 0; i-- {
			if pat[i] == "**" {
				cur[i] = cur[i+1] || crossable(parts[j]) && next[i]
			} else {
				cur[i] = matchOne(pat[i], parts[j]) && next[i+1]
			}
		}
	}
	return cur[0]
}

// crossable reports whether "**" crosses a directory: not a hidden one,
// nor one of dependencies (skippedDirs).
func crossable(dir string) bool { return !strings.HasPrefix(dir, ".") && !skippedDirs[dir] }

func matchOne(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	ok, _ := path.Match(pat, name)
	return ok
}

// unwrapPathError drops the *PathError's own path, which the caller names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
