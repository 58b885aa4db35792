package cli

import (
	"runtime/debug"
	"strings"
	"time"
)

// docsURLs are toolscope's home page and a rule's documentation, from the
// module path the binary was built from: a module hosted on GitHub has its
// repository's pages (docs/rules.md at the version's tag, or main); a local
// build ("toolscope") has none, and the log leaves them out.
func docsURLs() (home string, help func(ruleID string) string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok || !strings.HasPrefix(bi.Main.Path, "github.com/") {
		return "", nil
	}
	home = "https://" + bi.Main.Path
	ref := "main"
	if v := version(); v != "" && !strings.Contains(v, "-0.") {
		ref = v // a tag; a pseudo-version's commit is not worth a link
	}
	return home, func(id string) string { return home + "/blob/" + ref + "/docs/rules.md#" + id }
}

// version is the module version the binary was built from (`go install
// toolscope@v1.2.0` stamps it), "" for a development build.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ""
}

// versionLine is --version's answer: the module version, or for a
// development build the commit and its date when the build recorded them
// ("devel 6fea14f1c2d3 2026-05-01, modified").
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	line, _ := versionFrom(bi, ok)
	return line
}

// versionFrom is versionLine from build info, and for a development build
// that recorded no commit, how to get one (said on stderr by --version).
func versionFrom(bi *debug.BuildInfo, ok bool) (line, hint string) {
	const how = "no commit recorded in this build: build it inside a git clone (go build or go install from the clone; -buildvcs=true says why when git cannot be read), or install a release (go install MODULE@VERSION)"
	if !ok {
		return "devel", how
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v, ""
	}
	line = "devel"
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) >= 12 {
		line += " " + rev[:12]
	} else if rev != "" {
		line += " " + rev
	}
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		line += " " + t.UTC().Format(time.DateOnly)
	}
	if modified {
		line += ", modified"
	}
	if rev == "" {
		hint = how
	}
	return line, hint
}
