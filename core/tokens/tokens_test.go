package tokens

import (
	"encoding/json"
	"os"
	"testing"

	"toolscope/core/catalog"
)

// reference holds counts made by an independent implementation (see
// testdata/README.md): the text counted and its token counts.
type reference struct {
	Tools []struct {
		Tool   string `json:"tool"`
		Text   string `json:"text"`
		O200k  int    `json:"o200k_base"`
		Cl100k int    `json:"cl100k_base"`
	} `json:"tools"`
	Extra []struct {
		Text   string `json:"text"`
		O200k  int    `json:"o200k_base"`
		Cl100k int    `json:"cl100k_base"`
	} `json:"extra"`
}

func loadReference(t *testing.T) reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCountsAgreeWithReferenceOnRealTools(t *testing.T) {
	ref := loadReference(t)
	c, err := catalog.Load("testdata/tools.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Tools) != 20 || len(c.Tools) != 20 {
		t.Fatalf("want 20 reference tools and 20 catalog tools, have %d and %d", len(ref.Tools), len(c.Tools))
	}
	for i, r := range ref.Tools {
		tool := c.Tools[i]
		if tool.Name != r.Tool {
			t.Fatalf("tool %d is %q, the reference has %q", i, tool.Name, r.Tool)
		}
		if def := Definition(tool); def != r.Text {
			t.Errorf("%s: definition text differs from the one counted by the reference:\n got %s\nwant %s", r.Tool, def, r.Text)
		}
		for _, enc := range []struct {
			e    Encoding
			want int
		}{{O200k, r.O200k}, {Cl100k, r.Cl100k}} {
			if got := MustCount(enc.e, r.Text); got != enc.want {
				t.Errorf("%s under %s: %d tokens, reference %d", r.Tool, enc.e, got, enc.want)
			}
		}
	}
}

func TestCountsAgreeWithReferenceOnAwkwardText(t *testing.T) {
	for _, r := range loadReference(t).Extra {
		if got := MustCount(O200k, r.Text); got != r.O200k {
			t.Errorf("%q under o200k_base: %d, reference %d", r.Text, got, r.O200k)
		}
		if got := MustCount(Cl100k, r.Text); got != r.Cl100k {
			t.Errorf("%q under cl100k_base: %d, reference %d", r.Text, got, r.Cl100k)
		}
	}
}

func TestMeasureSumsAndShare(t *testing.T) {
	c, err := catalog.Load("testdata/tools.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := loadReference(t)
	m := Measure(c, 10_000, true)
	sumO, sumC := 0, 0
	for i, r := range ref.Tools {
		sumO += r.O200k
		sumC += r.Cl100k
		if m.Tools[i].O200k != r.O200k || m.Tools[i].Cl100k != r.Cl100k {
			t.Errorf("%s: measured %d/%d, reference %d/%d", r.Tool, m.Tools[i].O200k, m.Tools[i].Cl100k, r.O200k, r.Cl100k)
		}
	}
	if m.Total.O200k != sumO || m.Total.Cl100k != sumC {
		t.Fatalf("totals %d/%d; want %d/%d", m.Total.O200k, m.Total.Cl100k, sumO, sumC)
	}
	if want := float64(sumO) / 10_000; m.Share != want {
		t.Errorf("share %v; want %v", m.Share, want)
	}
	if m.Total.AnthropicEstimate < m.Total.O200k {
		t.Errorf("Anthropic estimate %d below the o200k count %d", m.Total.AnthropicEstimate, m.Total.O200k)
	}
	if Measure(c, 0, false).Context != DefaultContext {
		t.Error("context 0 does not take the default")
	}
}

func TestUnknownEncodingIsAnError(t *testing.T) {
	if _, err := Count("p50k_base", "x"); err == nil {
		t.Fatal("an encoding outside the embedded two counted")
	}
}

func TestInvalidUTF8CountsWithoutError(t *testing.T) {
	n, err := Count(O200k, "ok \xff\xfe bytes")
	if err != nil || n == 0 {
		t.Fatalf("Count on invalid UTF-8 = %d, %v", n, err)
	}
}
