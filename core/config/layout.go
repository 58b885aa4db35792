package config

import (
	"bytes"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// layoutWindow is how far ahead of the last line matched keepLayout looks
// for the next: edits add or remove a few entries, so the lines that stay
// come in order and near each other.
const layoutWindow = 2000

// keepLayout gives out, the YAML library's rendering of an edited config,
// the layout of orig, the file as it was read: every line that is in both
// keeps orig's spelling (its indentation, its spacing before a comment),
// the blank lines before it come back, and a line only out has (a new
// entry) is indented as the kept line above it at its level was moved. A
// file of comments alone keeps them, above the first entry. The result is
// used only when it reads back as the very same document as out;
// otherwise out is returned as it is.
func keepLayout(orig, out []byte) []byte {
	if len(bytes.TrimSpace(orig)) == 0 {
		return out
	}
	if commentsOnly(orig) {
		return keepComments(orig, out)
	}
	olines := strings.Split(strings.TrimSuffix(string(orig), "\n"), "\n")
	nlines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	okeys := make([]string, len(olines))
	for i, l := range olines {
		okeys[i] = layoutKey(l)
	}
	var b strings.Builder
	next := 0 // the first line of orig not yet passed
	// shifts[i] is the indentation change of the last kept line whose
	// rendered indentation is i, for the new lines under it.
	shifts := map[int]int{}
	// blanks counts the rendering's blank lines not yet written: before a
	// kept line they are the file's own blank lines there, or as many as
	// the rendering has if that is more (the library writes one before a
	// comment that the file had too: counted twice, a save added a blank
	// line each time).
	blanks := 0
	for _, line := range nlines {
		key := layoutKey(line)
		if key == "" {
			blanks++
			continue
		}
		match := nextMatch(okeys, next, key)
		ind := indent(line)
		if match < 0 {
			line = shiftNew(line, ind, shifts)
			b.WriteString(strings.Repeat("\n", blanks) + line + "\n")
			blanks = 0
			continue
		}
		// The blank lines right before the matched line come back.
		start := match
		for start > next && okeys[start-1] == "" {
			start--
		}
		b.WriteString(strings.Repeat("\n", max(blanks, match-start)))
		blanks = 0
		b.WriteString(strings.TrimRight(olines[match], "\r") + "\n")
		for i := range shifts {
			if i > ind {
				delete(shifts, i)
			}
		}
		shifts[ind] = indent(olines[match]) - ind
		next = match + 1
	}
	b.WriteString(strings.Repeat("\n", blanks))
	return sameOr([]byte(b.String()), out)
}

// keepComments puts orig, a file of comments alone, above out's first
// entry. The library drops such comments, so only the values compare.
func keepComments(orig, out []byte) []byte {
	head := bytes.TrimRight(orig, "\n")
	candidate := append(append(head, '\n', '\n'), out...)
	var a, b any
	if yaml.Unmarshal(candidate, &a) != nil || yaml.Unmarshal(out, &b) != nil || !reflect.DeepEqual(a, b) {
		return out
	}
	return candidate
}

// nextMatch is the first line of orig from next on, within layoutWindow,
// with key as its key (okeys holds each line's); -1 when none has.
func nextMatch(okeys []string, next int, key string) int {
	for j := next; j < len(okeys) && j < next+layoutWindow && key != ""; j++ {
		if okeys[j] == key {
			return j
		}
	}
	return -1
}

// shiftNew indents a line only the rendering has (indented ind) as the
// kept line above it at its level, or the nearest level out, was moved
// (shifts, by rendered indentation).
func shiftNew(line string, ind int, shifts map[int]int) string {
	shift := 0
	for i := ind; i >= 0; i-- {
		if s, ok := shifts[i]; ok {
			shift = s
			break
		}
	}
	if shift > 0 {
		return strings.Repeat(" ", shift) + line
	} else if shift < 0 {
		return line[min(-shift, ind):]
	}
	return line
}

// sameOr is candidate when it reads back as the same document as out
// (rendered alike, comments included), else out.
func sameOr(candidate, out []byte) []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(candidate, &doc); err != nil {
		return out
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(&doc) != nil || enc.Close() != nil || !bytes.Equal(b.Bytes(), out) {
		return out
	}
	return candidate
}

// commentsOnly reports whether data holds comments and blank lines only.
func commentsOnly(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// layoutKey is a line with its spacing ignored: the library writes one
// space before a comment where the file may have had three. A false match
// is caught by sameOr.
func layoutKey(line string) string { return strings.Join(strings.Fields(line), " ") }

func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
