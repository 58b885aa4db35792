package tui

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// The key map in docs/explorer.md names every key the explorer answers
// to.
func TestDocsListEveryKey(t *testing.T) {
	for _, doc := range []string{"../docs/explorer.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		km := reflect.ValueOf(DefaultKeyMap())
		for i := range km.NumField() {
			for _, k := range km.Field(i).Interface().(key.Binding).Keys() {
				if !strings.Contains(text, "`"+docName(k)+"`") {
					t.Errorf("%s: %s: key %q is not in the key map", doc, km.Type().Field(i).Name, k)
				}
			}
		}
	}
}

// docName is how the docs write a key.
func docName(k string) string {
	if n, ok := map[string]string{" ": "space", "up": "↑", "down": "↓", "right": "→", "left": "←", "pgdown": "pgdn"}[k]; ok {
		return n
	}
	return k
}
