package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math"
	"strings"
)

// The format before the store (store.go), read now only to move its
// entries into the store: a plain sequence of self-checking records, one
// file per embedder identity and no file header, so that any number of
// processes could append to it at once and a reader can skip whatever is
// damaged:
//
//	marker  4 bytes  "\x89TV1"
//	dims    uint32   little-endian, 1..MaxDims
//	key     32 bytes SHA-256 of the embedder identity, a zero byte, the text
//	vector  dims x float32 bits, little-endian
//	crc     uint32   CRC-32C of dims, key and vector, little-endian
//
// A record is written with one append, so concurrent writers never
// interleave inside one on a local file system; if one is torn anyway (a
// killed process, a full disk), its checksum fails and the reader resumes at
// the next marker.
var marker = []byte("\x89TV1")

const (
	keySize = sha256.Size
	// headSize is marker + dims + key; a record is headSize + 4*dims + 4.
	headSize = 4 + 4 + keySize
	// MaxDims is the longest vector the cache stores; longer ones are embedded
	// every time. It also bounds what a damaged length field can claim.
	MaxDims = 1 << 16
	// fileVersion is part of the file name, so a future format starts afresh.
	fileVersion = "v1"
)

// key identifies one text under one embedder identity.
type key [keySize]byte

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// keyOf hashes the text under the identity; the zero byte keeps
// ("a", "bc") and ("ab", "c") apart.
func keyOf(identity, text string) key {
	h := sha256.New()
	h.Write([]byte(identity))
	h.Write([]byte{0})
	h.Write([]byte(text))
	var k key
	h.Sum(k[:0])
	return k
}

// appendRecord encodes one record onto buf.
func appendRecord(buf []byte, k key, vec []float32) []byte {
	start := len(buf)
	buf = append(buf, marker...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(vec)))
	buf = append(buf, k[:]...)
	for _, f := range vec {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf[start+len(marker):], castagnoli))
}

// decode calls fn for every intact record in data, in file order, and says
// whether anything had to be skipped (a torn or foreign record, stray bytes,
// a truncated tail). It never panics, whatever data holds.
func decode(data []byte, fn func(k key, vec []float32)) (damaged bool) {
	p := 0
	for p < len(data) {
		end, ok := recordAt(data, p)
		if !ok {
			damaged = true
			next := bytes.Index(data[p+1:], marker)
			if next < 0 {
				return true
			}
			p += 1 + next
			continue
		}
		dims := int(binary.LittleEndian.Uint32(data[p+4:]))
		var k key
		copy(k[:], data[p+8:p+headSize])
		vec := make([]float32, dims)
		body := data[p+headSize:]
		for i := range vec {
			vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(body[4*i:]))
		}
		fn(k, vec)
		p = end
	}
	return damaged
}

// recordAt checks the record starting at p and returns where it ends.
func recordAt(data []byte, p int) (end int, ok bool) {
	if len(data)-p < headSize || !bytes.Equal(data[p:p+len(marker)], marker) {
		return 0, false
	}
	dims := int(binary.LittleEndian.Uint32(data[p+4:]))
	if dims < 1 || dims > MaxDims {
		return 0, false
	}
	end = p + headSize + 4*dims + 4
	if end > len(data) {
		return 0, false
	}
	sum := binary.LittleEndian.Uint32(data[end-4:])
	return end, crc32.Checksum(data[p+len(marker):end-4], castagnoli) == sum
}

// fileName names the cache file of an identity: a readable prefix for people
// looking in the directory, and a hash that keeps distinct identities apart.
func fileName(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	readable := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '_'
	}, identity)
	if len(readable) > 48 {
		readable = readable[:48]
	}
	return "vectors-" + fileVersion + "-" + readable + "-" + hex.EncodeToString(sum[:6]) + ".bin"
}
