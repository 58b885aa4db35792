package tokens

// Tool definitions repeat the same JSON between their texts (`name":"`,
// `","description":"`, `type":"string"}`). The encodings' pre-split (the
// regular expression that cuts a text into pieces before byte-pair
// merging) always breaks at some places whatever comes before or after,
// so a text's count is the sum of its chunks' counts there, and a chunk
// seen before is not counted again.
//
// The break used: before an ASCII letter or digit that follows two ASCII
// punctuation characters (`","d`). Under both patterns the piece holding
// the two punctuation characters is a run of punctuation (an optional
// letter-prefix needs a letter right after its one character; a
// contraction needs a letter after the apostrophe; digits and spaces are
// not punctuation), which runs greedily to the letter and stops there,
// its tail (`[\r\n/]*`, `[\r\n]*`) matching nothing at a letter. The next
// piece starts at the letter and reads only what follows it (no pattern
// looks behind), and the pieces before the run end before it and look at
// most at its punctuation. Invalid UTF-8 becomes U+FFFD per chunk as per
// text: the ASCII at a break ends any invalid sequence. A test holds the
// sums to whole counts on every shared catalog, and a fuzz target on any
// text.

// chunks cuts s at every break.
func chunks(s string, yield func(string)) {
	start := 0
	for p := 2; p < len(s); p++ {
		if alnumASCII(s[p]) && punctASCII(s[p-1]) && punctASCII(s[p-2]) {
			yield(s[start:p])
			start = p
		}
	}
	yield(s[start:])
}

func alnumASCII(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// punctASCII is an ASCII character outside \s, \p{L} and \p{N}.
func punctASCII(c byte) bool { return c > ' ' && c < 0x7f && !alnumASCII(c) }

// chunkCounter counts texts chunk by chunk, remembering each chunk's
// count. It is for one goroutine.
type chunkCounter struct {
	e    Encoding
	seen map[string]int
}

func (cc *chunkCounter) count(s string) int {
	n := 0
	chunks(s, func(c string) {
		k, ok := cc.seen[c]
		if !ok {
			k = MustCount(cc.e, c)
			cc.seen[c] = k
		}
		n += k
	})
	return n
}
