package hygiene

import (
	"fmt"
	"regexp"
	"strings"

	"toolscope/core/jsonv"
)

// The runners that fetch a package when the server starts.
const (
	kindNPM    = "npm"
	kindPython = "python"
	kindImage  = "image"
)

// packageArg finds the package a runner fetches: its index in args, the
// package as written and its kind; -1 when the command fetches none.
func packageArg(base string, args []string) (int, string, string) {
	switch base {
	case "npx", "bunx":
		return npmPackage(args, 0)
	case "pnpm", "yarn", "bun":
		if len(args) > 0 && (args[0] == "dlx" || args[0] == "x") {
			return npmPackage(args, 1)
		}
	case "uvx":
		return pythonPackage(args, 0)
	case "uv":
		if len(args) > 1 && args[0] == "tool" && args[1] == "run" {
			return pythonPackage(args, 2)
		}
	case "pipx":
		if len(args) > 0 && args[0] == "run" {
			return pythonPackage(args, 1)
		}
	case "docker", "podman":
		if len(args) > 0 && args[0] == "run" {
			return imageArg(args, 1)
		}
	}
	return -1, "", ""
}

// npmPackage: the -p/--package value, else the first argument that is not
// an option.
func npmPackage(args []string, from int) (int, string, string) {
	for k := from; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-p" || a == "--package":
			if k+1 < len(args) {
				return k + 1, args[k+1], kindNPM
			}
			return -1, "", ""
		case strings.HasPrefix(a, "--package="):
			return k, strings.TrimPrefix(a, "--package="), kindNPM
		case strings.HasPrefix(a, "-"):
			continue
		default:
			return k, a, kindNPM
		}
	}
	return -1, "", ""
}

// pythonPackage: the --from value, else the first argument that is not an
// option (options that take a value skip it).
func pythonPackage(args []string, from int) (int, string, string) {
	valued := map[string]bool{"--python": true, "-p": true, "--with": true, "--index-url": true, "--index": true, "--extra-index-url": true, "--spec": true}
	for k := from; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "--from" || a == "--spec":
			if k+1 < len(args) {
				return k + 1, args[k+1], kindPython
			}
			return -1, "", ""
		case valued[a]:
			k++
		case strings.HasPrefix(a, "-"):
			continue
		default:
			return k, a, kindPython
		}
	}
	return -1, "", ""
}

// dockerValued are docker run's options that take the next argument.
var dockerValued = map[string]bool{"-e": true, "--env": true, "--env-file": true, "-v": true, "--volume": true, "-p": true, "--publish": true,
	"--name": true, "--network": true, "--net": true, "-w": true, "--workdir": true, "--entrypoint": true, "-u": true, "--user": true,
	"--platform": true, "--mount": true, "-l": true, "--label": true, "--add-host": true, "--cpus": true, "-m": true, "--memory": true,
	"--pull": true, "--restart": true, "--hostname": true, "-h": true, "--cap-add": true, "--cap-drop": true, "--security-opt": true, "--tmpfs": true}

func imageArg(args []string, from int) (int, string, string) {
	for k := from; k < len(args); k++ {
		a := args[k]
		switch {
		case dockerValued[a]:
			k++
		case strings.HasPrefix(a, "-"):
			continue
		default:
			return k, a, kindImage
		}
	}
	return -1, "", ""
}

var commitRef = regexp.MustCompile(`^[0-9a-f]{7,40}$`)

var exactVersion = regexp.MustCompile(`^v?\d+(\.\d+)*([-+][0-9A-Za-z.-]+)?$`)

// unpinned says what is wrong with a package's version, "" when it is
// pinned (or is no registry package: a path, a URL, a git reference).
func unpinned(kind, pkg string) string {
	if pkg == "" || strings.HasPrefix(pkg, ".") || strings.HasPrefix(pkg, "/") || strings.Contains(pkg, "://") || strings.HasPrefix(pkg, "git+") || strings.HasPrefix(pkg, "file:") {
		return ""
	}
	q := jsonv.Quote(pkg)
	if kind == kindNPM && strings.HasPrefix(pkg, "github:") {
		// A repository: pinned by a commit, moving with a branch or tag.
		repo, ref, _ := strings.Cut(pkg, "#")
		if !commitRef.MatchString(ref) {
			return fmt.Sprintf("%s follows a branch of the repository, not a commit: every start may run other code; pin a commit (%s#<commit>) or a released version", q, repo)
		}
		return ""
	}
	switch kind {
	case kindNPM:
		name, version := pkg, ""
		if at := strings.LastIndexByte(pkg, '@'); at > 0 {
			name, version = pkg[:at], pkg[at+1:]
		}
		switch {
		case version == "":
			return fmt.Sprintf("%s has no version: every start may fetch a different release, or one published by someone else; pin it (%s@1.2.3)", q, name)
		case !exactVersion.MatchString(version):
			return fmt.Sprintf("%s follows %s, not a release: every start may fetch a different one; pin an exact version (%s@1.2.3)", q, jsonv.Quote(version), name)
		}
	case kindPython:
		name, version := pkg, ""
		if i := strings.Index(pkg, "=="); i > 0 {
			name, version = pkg[:i], pkg[i+2:]
		} else if at := strings.LastIndexByte(pkg, '@'); at > 0 {
			name, version = pkg[:at], pkg[at+1:]
		} else if i := strings.IndexAny(pkg, "<>=~!"); i > 0 {
			return fmt.Sprintf("%s allows a range of releases: every start may fetch a different one; pin an exact version (%s==1.2.3)", q, pkg[:i])
		}
		switch {
		case version == "":
			return fmt.Sprintf("%s has no version: every start may fetch a different release; pin it (%s==1.2.3)", q, name)
		case !exactVersion.MatchString(version):
			return fmt.Sprintf("%s follows %s, not a release: pin an exact version (%s==1.2.3)", q, jsonv.Quote(version), name)
		}
	case kindImage:
		// A one-word name without a registry or namespace is most often an
		// image the README had you build (`docker build -t name .`), not
		// one fetched: it is left alone.
		if strings.Contains(pkg, "@sha256:") || !strings.Contains(pkg, "/") {
			return ""
		}
		name, tag := pkg, ""
		if c := strings.LastIndexByte(pkg, ':'); c > strings.LastIndexByte(pkg, '/') {
			name, tag = pkg[:c], pkg[c+1:]
		}
		switch {
		case tag == "":
			return fmt.Sprintf("image %s has no tag: it runs whatever :latest is at the time; pin a version tag or a digest (%s@sha256:…)", q, name)
		case tag == "latest" || tag == "main" || tag == "master" || tag == "edge" || tag == "nightly":
			return fmt.Sprintf("image %s follows the moving tag %s: pin a version tag or a digest (%s@sha256:…)", q, jsonv.Quote(tag), name)
		}
	}
	return ""
}
