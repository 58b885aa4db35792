package tui

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// The key map in docs/explorer.md names every key the explorer answers to.
func TestDocsListEveryKey(t *testing.T) {
	doc, err := os.ReadFile("../docs/explorer.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	km := reflect.ValueOf(DefaultKeyMap())
	for i := range km.NumField() {
		for _, k := range km.Field(i).Interface().(key.Binding).Keys() {
			if !strings.Contains(text, "`"+docName(k)+"`") {
				t.Errorf("%s: key %q is not in the docs' key map", km.Type().Field(i).Name, k)
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
