package pipeline

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// FuzzGlobSegments checks lint's pattern matching on any pattern and path:
//   - the walk's pruning never skips a directory under which a path
//     matches (canMatchBelow holds for each of a matching path's parent
//     directories);
//   - a pattern without "**" matches as path.Match does, except that a
//     hidden name needs a segment that starts with a dot;
//   - "**" crosses no hidden directory, node_modules or vendor.
func FuzzGlobSegments(f *testing.F) {
	for _, s := range [][2]string{
		{"servers/**/tools.json", "servers/a/b/tools.json"},
		{"**/*.json", ".git/x.json"},
		{"**", "a"},
		{"a/**/**/b", "a/b"},
		{"*/[a-c]?.json", "x/ab.json"},
		{"**/.hidden/*.json", "a/.hidden/t.json"},
		{"**/**/**/**/**/**/**/**/**/**/**/**/z", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/y"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		pat := strings.Split(pattern, "/")
		parts := strings.Split(p, "/")
		if len(pat) > 64 || len(parts) > 64 {
			return
		}
		for _, s := range append(append([]string{}, pat...), parts...) {
			if s == "" {
				return
			}
		}
		for _, s := range pat {
			if _, err := path.Match(s, ""); err != nil && s != "**" {
				return
			}
		}
		matched := matchSegments(pat, parts)
		if matched {
			for k := 1; k < len(parts); k++ {
				if !canMatchBelow(pat, parts[:k]) {
					t.Fatalf("%q matches %q, yet the walk skips %q", pattern, p, strings.Join(parts[:k], "/"))
				}
			}
		}
		if !strings.Contains("/"+pattern+"/", "/**/") {
			want, _ := path.Match(pattern, p)
			for i := range parts {
				if i < len(pat) && strings.HasPrefix(parts[i], ".") && !strings.HasPrefix(pat[i], ".") {
					want = false
				}
			}
			if matched != want {
				t.Fatalf("%q against %q: %v, path.Match with the hidden-name rule says %v", pattern, p, matched, want)
			}
		}
		if last := strings.TrimPrefix(pattern, "**/"); matched && last != pattern && !strings.Contains(last, "/") {
			for _, d := range parts[:len(parts)-1] {
				if !crossable(d) {
					t.Fatalf("%q matches %q through %q", pattern, p, d)
				}
			}
		}
	})
}

// FuzzGlobFiles lists files by any pattern over a small tree holding
// hidden and dependency directories: the walk (its starting directory,
// its pruning) finds exactly the files whose paths match the pattern's
// segments.
func FuzzGlobFiles(f *testing.F) {
	for _, s := range []string{"**/tools.json", "a/**/*.json", "*/*/t*.json", ".hidden/**", "**/node_modules/**/x.json", "a/b/c/*", "**/.*/*.json", "[ab]/**/c/?.json"} {
		f.Add(s)
	}
	dir := f.TempDir()
	files := []string{"tools.json", "a/tools.json", "a/b/tools.json", "a/b/c/x.json", "a/b/c/t.json", "b/c/d.json",
		".hidden/tools.json", "a/.git/x.json", "node_modules/p/x.json", "a/vendor/tools.json", "a/b/.env.json", "c/node_modules/x.json"}
	for _, name := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("[]"), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		if strings.Contains(pattern, "\x00") {
			return // no argument can hold a NUL
		}
		segs := strings.Split(pattern, "/")
		for _, s := range segs {
			// Literal segments are joined as a path before the walk:
			// ".", ".." and escapes mean there what a path means.
			if s == "" || s == "." || s == ".." || strings.Contains(s, `\`) {
				return
			}
			if _, err := path.Match(s, ""); err != nil && s != "**" {
				return
			}
		}
		got, err := globFiles(filepath.ToSlash(dir) + "/" + pattern)
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		var want []string
		for _, name := range files {
			if matchSegments(segs, strings.Split(name, "/")) {
				want = append(want, filepath.Join(dir, filepath.FromSlash(name)))
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: found %q, want %q", pattern, got, want)
		}
	})
}
