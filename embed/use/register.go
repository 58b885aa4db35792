package use

import (
	"fmt"

	"toolscope/embed"
)

// The encoder registers itself as "use", the default of --embedder; a
// program gets it by importing this package.
func init() {
	embed.Register("use", func(arg string, _ embed.Options) (embed.Embedder, error) {
		if arg != "" {
			return nil, fmt.Errorf("the built-in encoder takes no argument (got %q)", "use:"+arg)
		}
		return New(), nil
	})
}
