package embed

import (
	"slices"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	e, err := Open("mock", Options{})
	if err != nil || e.ID() != "mock" {
		t.Fatalf("Open(mock) = %v, %v", e, err)
	}
	if _, err := Open("mock:x", Options{}); err == nil || !strings.Contains(err.Error(), "no argument") {
		t.Errorf("mock:x: %v", err)
	}
	_, err = Open("nope:thing", Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown embedder "nope:thing"`) || !strings.Contains(err.Error(), "mock") {
		t.Errorf("an unknown embedder must be refused, naming the known ones: %v", err)
	}
}

func TestRegisterPassesArgumentAndOptions(t *testing.T) {
	var gotArg, gotURL string
	Register("probe", func(arg string, o Options) (Embedder, error) {
		gotArg, gotURL = arg, o.URL
		return Mock{}, nil
	})
	defer func() {
		registryMu.Lock()
		delete(registry, "probe")
		registryMu.Unlock()
	}()
	if _, err := Open("probe:model:v1", Options{URL: "http://x"}); err != nil {
		t.Fatal(err)
	}
	if gotArg != "model:v1" || gotURL != "http://x" {
		t.Errorf("factory got %q %q", gotArg, gotURL)
	}
	if !slices.Contains(Names(), "probe") || !slices.IsSorted(Names()) {
		t.Errorf("Names() = %v", Names())
	}
}
