package weights

import (
	"bytes"
	"math"
	"testing"
)

func TestHalfConversion(t *testing.T) {
	tests := []struct {
		name string
		in   float32
		want uint16
	}{
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"zero", 0, 0},
		{"minus zero", float32(math.Copysign(0, -1)), 0x8000},
		{"largest half", 65504, 0x7bff},
		{"rounds up to infinity", 65520, 0x7c00},
		{"overflow", 1e6, 0x7c00},
		{"infinity", float32(math.Inf(-1)), 0xfc00},
		{"smallest subnormal", 0x1p-24, 0x0001},
		{"half the smallest subnormal ties to even zero", 0x1p-25, 0},
		{"one and a half subnormals ties to even", 0x3p-25, 0x0002},
		{"underflow", 1e-10, 0},
		{"smallest normal", 0x1p-14, 0x0400},
		{"tie rounds to even (down)", 1 + 0x1p-11, 0x3c00},
		{"tie rounds to even (up)", 1 + 0x3p-11, 0x3c02},
		{"above the tie rounds up", 1 + 0x1p-11 + 0x1p-20, 0x3c01},
		{"rounding carries into the exponent", 2 - 0x1p-12, 0x4000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ToHalf(tt.in); got != tt.want {
				t.Errorf("ToHalf(%g) = %#04x, want %#04x", tt.in, got, tt.want)
			}
		})
	}
	if h := ToHalf(float32(math.NaN())); !math.IsNaN(float64(FromHalf(h))) {
		t.Errorf("NaN became %#04x", h)
	}
}

// Every half converts to float32 and back unchanged.
func TestHalfRoundTrip(t *testing.T) {
	for h := range uint32(1 << 16) {
		f := FromHalf(uint16(h))
		if math.IsNaN(float64(f)) {
			continue
		}
		if back := ToHalf(f); back != uint16(h) {
			t.Fatalf("%#04x -> %g -> %#04x", h, f, back)
		}
	}
}

func TestWriteRead(t *testing.T) {
	matrix := []float32{0.5, -1, 0.25, 2, 0, -0.125}
	for _, enc := range []Encoding{Float32, Float16, Int8Col, Int8Row} {
		var b bytes.Buffer
		in := []Tensor{
			{Name: "m", Shape: []int{2, 3}, Data: matrix},
			{Name: "v", Shape: []int{3}, Data: []float32{1, 2, 3}},
			{Name: "s", Shape: []int{}, Data: []float32{7}},
		}
		if err := Write(&b, in, func(Tensor) Encoding { return enc }); err != nil {
			t.Fatal(err)
		}
		out, err := Read(b.Bytes())
		if err != nil {
			t.Fatalf("%d: %v", enc, err)
		}
		if len(out) != len(in) {
			t.Fatalf("%d: %d tensors", enc, len(out))
		}
		for i := range in {
			if out[i].Name != in[i].Name || len(out[i].Shape) != len(in[i].Shape) {
				t.Errorf("%d: tensor %d is %s %v", enc, i, out[i].Name, out[i].Shape)
			}
			for k, want := range in[i].Data {
				// Int8 with these scales is within half a step of 2/127.
				if d := math.Abs(float64(out[i].Data[k] - want)); d > 1.0/127 {
					t.Errorf("%d: %s[%d] = %g, want %g", enc, in[i].Name, k, out[i].Data[k], want)
				}
			}
		}
	}
}

func TestQuantizeScalesPerAxis(t *testing.T) {
	// Column 0 spans ±1, column 1 ±100: per-column scales keep column 0's
	// precision, per-row scales share each row's.
	data := []float32{1, 100, -1, -100}
	cs, cq := Quantize(data, 2, 2, false)
	if cs[0] != 1.0/127 || cs[1] != 100.0/127 || cq[0] != 127 || cq[3] != -127 {
		t.Errorf("per column: scales %v, values %v", cs, cq)
	}
	rs, rq := Quantize(data, 2, 2, true)
	if rs[0] != 100.0/127 || rq[0] != 1 || rq[1] != 127 {
		t.Errorf("per row: scales %v, values %v", rs, rq)
	}
	if s, q := Quantize([]float32{0, 0}, 1, 2, true); s[0] != 0 || q[0] != 0 {
		t.Errorf("all zero: %v %v", s, q)
	}
}

func TestReadRejectsDamage(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []Tensor{{Name: "m", Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}}}, func(Tensor) Encoding { return Float16 }); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("XXXX"), good[4:]...)},
		{"other version", append(append([]byte("USEW"), 2, 0, 0, 0), good[8:]...)},
		{"truncated payload", good[:len(good)-1]},
		{"trailing bytes", append(append([]byte(nil), good...), 0)},
		{"unknown encoding", func() []byte { d := append([]byte(nil), good...); d[4+4+4+2+1] = 9; return d }()},
		{"huge dimension", func() []byte {
			d := append([]byte(nil), good...)
			copy(d[4+4+4+2+1+2:], []byte{0xff, 0xff, 0xff, 0x7f})
			return d
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Read(tt.data); err == nil {
				t.Error("accepted")
			}
		})
	}
	if err := Write(&b, []Tensor{{Name: "bad", Shape: []int{2}, Data: []float32{1}}}, func(Tensor) Encoding { return Float32 }); err == nil {
		t.Error("Write accepted a shape its data does not fill")
	}
}

func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	_ = Write(&b, []Tensor{{Name: "m", Shape: []int{2, 3}, Data: []float32{1, 2, 3, 4, 5, 6}}, {Name: "v", Shape: []int{2}, Data: []float32{1, 2}}},
		func(t Tensor) Encoding { return Encoding(len(t.Shape)) })
	f.Add(b.Bytes())
	f.Add([]byte("USEW\x01\x00\x00\x00\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tensors, err := Read(data)
		if err != nil {
			return
		}
		for _, tt := range tensors {
			n := 1
			for _, d := range tt.Shape {
				n *= d
			}
			if len(tt.Data) != n {
				t.Fatalf("%s: shape %v with %d values", tt.Name, tt.Shape, len(tt.Data))
			}
		}
	})
}
