package embed

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Options configures an embedder at Open.
type Options struct {
	// URL is the base URL of a remote endpoint (--embed-url); "" means the
	// embedder's own default or environment.
	URL string
	// URLFrom is where URL came from when a file chose it (a config's
	// "path:line"), "" when the user gave it; an endpoint a file chose
	// gets no credential from the environment unless the user trusts it.
	URLFrom string
}

// Factory builds an embedder. arg is what follows the name's colon in a
// spec ("text-embedding-3-small" in "openai:text-embedding-3-small"), ""
// when there is none.
type Factory func(arg string, opts Options) (Embedder, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Factory{}
)

// Register makes an embedder available to Open under name. Implementations
// register themselves from an init function, so this package need not
// import them; registering a name twice replaces the earlier factory.
func Register(name string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[name] = f
}

func init() {
	Register("mock", func(arg string, _ Options) (Embedder, error) {
		if arg != "" {
			return nil, fmt.Errorf("the mock embedder takes no argument (got %q)", "mock:"+arg)
		}
		return Mock{}, nil
	})
}

// Names lists the registered embedder names, sorted.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Open resolves a spec such as "mock", "use" or "openai:MODEL" to an
// embedder.
func Open(spec string, opts Options) (Embedder, error) {
	f, arg, err := lookup(spec)
	if err != nil {
		return nil, err
	}
	e, err := f(arg, opts)
	if err != nil {
		return nil, fmt.Errorf("embedder %s: %w", spec, err)
	}
	return e, nil
}

// Known checks that a spec names a registered embedder, with Open's error
// when it does not, and opens nothing: a command that spends money first
// can refuse a misspelt --embedder before it does.
func Known(spec string) error {
	_, _, err := lookup(spec)
	return err
}

// lookup finds the spec's factory and its argument.
func lookup(spec string) (Factory, string, error) {
	name, arg, _ := strings.Cut(spec, ":")
	registryMu.RLock()
	f, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, "", fmt.Errorf("unknown embedder %q (known: %s)", spec, strings.Join(Names(), ", "))
	}
	return f, arg, nil
}
