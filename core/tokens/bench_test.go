package tokens

import (
	"fmt"
	"testing"

	"toolscope/core/catalog"
)

// BenchmarkMeasure1000 counts a 1,000-tool catalog (the 20 real tools
// repeated under new names) under both encodings, vocabularies loaded.
func BenchmarkMeasure1000(b *testing.B) {
	base, err := catalog.Load("testdata/tools.json", nil)
	if err != nil {
		b.Fatal(err)
	}
	c := &catalog.Catalog{Source: "bench"}
	for i := range 1000 {
		t := *base.Tools[i%len(base.Tools)]
		t.Name = fmt.Sprintf("%s_%d", t.Name, i)
		c.Tools = append(c.Tools, &t)
	}
	Measure(c, 0, false)
	b.ResetTimer()
	for b.Loop() {
		Measure(c, 0, false)
	}
}
