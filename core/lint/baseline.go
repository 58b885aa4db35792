package lint

import (
	"crypto/sha256"
	"encoding/hex"

	"toolscope/core/similarity"
)

// BaselineSummary is what a report says about the baseline it was
// compared with; nil when there was none.
type BaselineSummary struct {
	// File names the baseline.
	File      string `json:"file"`
	New       int    `json:"new"`
	Unchanged int    `json:"unchanged"`
	Updated   int    `json:"updated"`
	Absent    int    `json:"absent"`
	// NewFailing counts the new results that fail the gate: error findings
	// (warnings too under --strict) and confusable pairs that are new, or
	// that were only a warning or a watch pair in the baseline.
	NewFailing int `json:"newFailing"`
	// AbsentFindings and AbsentPairs are the baseline's entries the run no
	// longer reports (the tool may be gone: ToolIndex is then -1).
	AbsentFindings []Finding                `json:"absentFindings"`
	AbsentPairs    []similarity.PairFinding `json:"absentPairs"`
}

// FindingKey identifies a finding across runs: its rule, tool and
// parameter path, never its message or line, so rewording a message or
// moving a tool keeps the key. A finding on the whole catalog
// (too-many-tools, on whichever tool comes first past the limit) is known
// by its rule alone, so reordering the catalog keeps it too.
func FindingKey(f Finding) string {
	if f.Rule == RuleTooManyTools {
		return f.Rule
	}
	return f.Rule + "\x00" + f.Tool + "\x00" + f.Param
}

// PairKey identifies a pair across runs by its two tool names, unordered.
func PairKey(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + "\x00" + b
}

// Fingerprint hashes a key to the short hex SARIF's partialFingerprints
// carry.
func Fingerprint(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// FingerprintVersion names the fingerprint scheme in SARIF; a change to
// FindingKey or PairKey must change it.
const FingerprintVersion = "toolscope/v3"
