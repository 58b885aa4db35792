package main

import (
	"path"
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
