package judge

import (
	"fmt"
	"strings"

	"toolscope/core/jsonv"
)

// checkKeys refuses a JSON object (a judgments line, a model's answer)
// that names a key twice, or in another case than its own: encoding/json
// matches keys case-insensitively and keeps the last, so
// `"label": 3, …, "LABEL": 0` would read as 0 where a reviewer reads 3.
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
		folded := strings.ToLower(m.Key)
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
