package judge

import (
	"fmt"
	"strings"
	"unicode"

	"toolscope/core/jsonv"
)

// checkKeys refuses a JSON object (a judgments line, a model's answer)
// that names a key twice, or in another case than its own: encoding/json
// matches keys case-insensitively and keeps the last, so
// `"label": 3, …, "LABEL": 0` would read as 0 where a reviewer reads 3.
// Keys are compared folded as the decoder folds them (foldKey), so
// "ſ" (U+017F) is "s" and "K" (U+212A) is "k" here as there.
// Nested objects (the fix) are held to the same. data must be valid JSON.
func checkKeys(data []byte) error {
	root, err := jsonv.Parse(data)
	if err != nil {
		return nil // the decoder's own error is the one to give
	}
	return checkObjectKeys(root, "")
}

func checkObjectKeys(v *jsonv.Value, where string) error {
	if v == nil || v.Kind != jsonv.Object {
		return nil
	}
	if len(v.Dups) > 0 {
		return fmt.Errorf("%s%s twice", where, jsonv.Quote(v.Dups[0]))
	}
	seen := make(map[string]string, len(v.Members))
	for _, m := range v.Members {
		folded := foldKey(m.Key)
		if first, ok := seen[folded]; ok {
			if first == m.Key {
				return fmt.Errorf("%s%s twice", where, jsonv.Quote(m.Key))
			}
			return fmt.Errorf("%s%s and %s: one key spelled twice", where, jsonv.Quote(first), jsonv.Quote(m.Key))
		}
		seen[folded] = m.Key
		if err := checkObjectKeys(m.Value, where+jsonv.Quote(m.Key)+": "); err != nil {
			return err
		}
	}
	return nil
}

// foldKey is key under Unicode simple case folding, as encoding/json
// matches a key to a field (bytes.EqualFold): each letter replaced by the
// least rune of its fold orbit, so two keys the decoder takes for one
// fold to one string. strings.ToLower is not that: it leaves "ſ" and
// "K" (the Kelvin sign) apart from "s" and "k".
func foldKey(key string) string {
	var b strings.Builder
	b.Grow(len(key))
	for _, r := range key {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
