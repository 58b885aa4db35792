package live

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"strings"

	"toolscope/core/jsonv"
	"toolscope/core/safefile"
)

// maxConfigBytes bounds an mcp-config file; real ones are a few KiB.
const maxConfigBytes = 4 << 20

// Config is an mcp-config file: the servers a host (Claude Desktop, Cursor,
// VS Code, Claude Code) starts, in file order.
type Config struct {
	Path string
	// Data is the file as read, and Perm its permission bits then (0 where
	// they mean nothing, as on Windows), for the config's own checks
	// (core/hygiene) to read what was used, not the file again.
	Data    []byte
	Perm    fs.FileMode
	Servers []Spec
	// Disabled names servers the file marks `"disabled": true`; they are
	// left out unless asked for by name.
	Disabled map[string]bool
}

// LoadConfig reads an mcp-config file.
func LoadConfig(path string) (*Config, error) {
	data, err := safefile.Read(path, safefile.ReadOptions{Max: maxConfigBytes})
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("%s: over the %d MiB limit for an mcp-config", path, maxConfigBytes>>20)
	}
	if err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	cfg, err := ParseConfig(path, data)
	if err != nil {
		return nil, err
	}
	cfg.Data = data
	if st, err := os.Stat(path); err == nil && runtime.GOOS != "windows" {
		cfg.Perm = st.Mode().Perm()
	}
	return cfg, nil
}

// ParseConfig reads the servers of an mcp-config document: an object whose
// `mcpServers` (Claude Desktop, Cursor, Claude Code) or `servers` (VS Code)
// maps a server name to `{command, args, env}` for stdio or `{url,
// headers}` (with `type` "http", "streamable-http" or "sse") for HTTP.
// `${VAR}` references are kept as written and expanded when a server is
// opened, so an unset variable only matters for the servers used.
func ParseConfig(path string, data []byte) (*Config, error) {
	root, err := jsonv.ParseJSONC(data)
	if err != nil {
		var se *jsonv.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s:%d:%d: not valid JSON: %s", path, se.Pos.Line, se.Pos.Col, se.Msg)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	key := "mcpServers"
	servers := root.Get(key)
	if servers == nil {
		key = "servers"
		servers = root.Get(key)
	}
	if !servers.Is(jsonv.Object) {
		return nil, fmt.Errorf("%s: want an object with \"mcpServers\" (Claude Desktop, Cursor) or \"servers\" (VS Code) mapping names to servers", path)
	}
	c := &Config{Path: path, Disabled: map[string]bool{}}
	for _, m := range servers.Members {
		spec, disabled, err := serverSpec(m.Value)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %s.%s: %w", path, m.Value.Pos.Line, m.Value.Pos.Col, key, m.Key, err)
		}
		spec.Name, spec.Config = m.Key, path
		c.Servers = append(c.Servers, spec)
		if disabled {
			c.Disabled[m.Key] = true
		}
	}
	if len(c.Servers) == 0 {
		return nil, fmt.Errorf("%s: %s is empty, no server to list", path, key)
	}
	return c, nil
}

func serverSpec(v *jsonv.Value) (spec Spec, disabled bool, err error) {
	if !v.Is(jsonv.Object) {
		return spec, false, fmt.Errorf("is %s, want an object", v.TypeName())
	}
	str := func(key string) (string, error) {
		f := v.Get(key)
		if f == nil {
			return "", nil
		}
		s, ok := f.Str()
		if !ok {
			return "", fmt.Errorf("%s is %s, want a string", key, f.TypeName())
		}
		return s, nil
	}
	typ, err := str("type")
	if err != nil {
		return spec, false, err
	}
	if spec.Command, err = str("command"); err != nil {
		return spec, false, err
	}
	if spec.URL, err = str("url"); err != nil {
		return spec, false, err
	}
	if spec.URL == "" {
		// Windsurf spells it serverUrl.
		if spec.URL, err = str("serverUrl"); err != nil {
			return spec, false, err
		}
	}
	if d := v.Get("disabled"); d.Is(jsonv.Bool) {
		disabled = d.Bool
	}
	if spec.Args, err = stringList(v.Get("args"), "args"); err != nil {
		return spec, false, err
	}
	if spec.Env, err = stringMap(v.Get("env"), "env"); err != nil {
		return spec, false, err
	}
	if spec.Headers, err = stringMap(v.Get("headers"), "headers"); err != nil {
		return spec, false, err
	}
	switch {
	case spec.Command != "" && spec.URL != "":
		return spec, false, errors.New("has both command and url; want one")
	case spec.Command != "":
		if typ != "" && typ != "stdio" {
			return spec, false, fmt.Errorf("type %q with a command; a command is a stdio server", typ)
		}
	case spec.URL != "":
		switch typ {
		case "", "http", "streamable-http", "streamableHttp":
		case "sse":
			spec.SSE = true
		default:
			return spec, false, fmt.Errorf("type %q is not one of \"http\", \"sse\"", typ)
		}
	default:
		return spec, false, errors.New("has neither command nor url")
	}
	return spec, disabled, nil
}

func stringList(v *jsonv.Value, key string) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	if !v.Is(jsonv.Array) {
		return nil, fmt.Errorf("%s is %s, want an array of strings", key, v.TypeName())
	}
	out := make([]string, len(v.Items))
	for i, it := range v.Items {
		s, ok := it.Str()
		if !ok {
			return nil, fmt.Errorf("%s[%d] is %s, want a string", key, i, it.TypeName())
		}
		out[i] = s
	}
	return out, nil
}

func stringMap(v *jsonv.Value, key string) (map[string]string, error) {
	if v == nil {
		return nil, nil
	}
	if !v.Is(jsonv.Object) {
		return nil, fmt.Errorf("%s is %s, want an object of strings", key, v.TypeName())
	}
	out := make(map[string]string, len(v.Members))
	for _, m := range v.Members {
		s, ok := m.Value.Str()
		if !ok {
			return nil, fmt.Errorf("%s.%s is %s, want a string", key, m.Key, m.Value.TypeName())
		}
		out[m.Key] = s
	}
	return out, nil
}

// Select returns the named servers in the order named, or, with no names,
// every server the file does not mark disabled.
func (c *Config) Select(names []string) ([]Spec, error) {
	if len(names) == 0 {
		var out []Spec
		for _, s := range c.Servers {
			if !c.Disabled[s.Name] {
				out = append(out, s)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: every server is disabled; name one with --server", c.Path)
		}
		return out, nil
	}
	byName := map[string]Spec{}
	for _, s := range c.Servers {
		byName[s.Name] = s
	}
	var out []Spec
	seen := map[string]bool{}
	for _, n := range names {
		s, ok := byName[n]
		if !ok {
			known := make([]string, 0, len(byName))
			for k := range byName {
				known = append(known, k)
			}
			sort.Strings(known)
			return nil, fmt.Errorf("%s: no server %q (it has %s)", c.Path, n, strings.Join(known, ", "))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, s)
		}
	}
	return out, nil
}
