package jsonv

// ParseJSONC reads one JSON-with-comments document, as VS Code writes its
// settings and mcp.json: `//` and `/* */` comments, and a comma before a
// closing bracket or brace, are allowed. Each is read as white space, so
// every position stays the one in data.
func ParseJSONC(data []byte) (*Value, error) {
	return Parse(stripJSONC(data))
}

// stripJSONC is data with its comments and trailing commas blanked out
// (line breaks kept); data itself when it has none. An unterminated block
// comment is left in place, for Parse to report where it starts.
func stripJSONC(data []byte) []byte {
	var out []byte
	blank := func(from, to int) {
		if out == nil {
			out = append([]byte(nil), data...)
		}
		for k := from; k < to; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	lastComma := -1 // a comma after a value, only space and comments after it so far
	var prev byte   // the last byte of the last token
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			lastComma = -1
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			end := i
			for end < len(data) && data[end] != '\n' && data[end] != '\r' {
				end++
			}
			blank(i, end)
			i = end - 1
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := -1
			for k := i + 2; k+1 < len(data); k++ {
				if data[k] == '*' && data[k+1] == '/' {
					end = k + 2
					break
				}
			}
			if end < 0 {
				return orData(out, data)
			}
			blank(i, end)
			i = end - 1
		case c == ',':
			lastComma = -1
			if prev != 0 && prev != '{' && prev != '[' && prev != ',' && prev != ':' {
				lastComma = i
			}
		case c == ']' || c == '}':
			if lastComma >= 0 {
				blank(lastComma, lastComma+1)
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		default:
			lastComma = -1
		}
		if c != '/' {
			prev = c
		}
	}
	return orData(out, data)
}

func orData(out, data []byte) []byte {
	if out == nil {
		return data
	}
	return out
}
