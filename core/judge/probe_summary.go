package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// ReadFoundProbeSummary reads what a plain lint's score and page take
// from a probe record it found (ReadFoundProbeFile's ownership check
// included): the model, the date, the tools' text hashes, and each case's
// tool, pick, origin and repeat. Each case's request and arguments, a
// large record's bulk, are skipped unkept, and no tree of the document is
// built: a 62 MB record is read in about a second in tens of MB, not in
// half a minute and gigabytes. nil, nil when there is no record.
// --min-accuracy's replay reads the record whole and strictly
// (ReadProbeFile).
func ReadFoundProbeSummary(path string) (*ProbeRecord, error) {
	data, err := readBounded(path, true)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("probe %w", err)
	}
	var doc struct {
		Probe      *int         `json:"probe"`
		Model      string       `json:"model"`
		Date       string       `json:"date"`
		ToolChoice string       `json:"toolChoice"`
		Repeats    int          `json:"repeats"`
		Seed       uint64       `json:"seed"`
		Tools      []ProbedTool `json:"tools"`
		Cases      []struct {
			Tool   string `json:"tool"`
			Picked string `json:"picked"`
			From   string `json:"from"`
			Repeat int    `json:"repeat"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("probe %s: not valid JSON at byte %d: %s", path, syn.Offset, syn.Error())
		}
		return nil, fmt.Errorf("probe %s: %w", path, err)
	}
	if doc.Probe == nil || *doc.Probe != probeRecordVersion {
		return nil, fmt.Errorf("probe %s: \"probe\" must be %d (the record's version); this toolscope reads no other", path, probeRecordVersion)
	}
	date, err := time.Parse(time.RFC3339, doc.Date)
	if err != nil {
		return nil, fmt.Errorf("probe %s: \"date\" is not an RFC 3339 time", path)
	}
	r := &ProbeRecord{Model: doc.Model, Date: date, Tools: doc.Tools, Choice: doc.ToolChoice, Repeats: doc.Repeats, Seed: doc.Seed}
	r.Cases = make([]ProbeCase, len(doc.Cases))
	for k, c := range doc.Cases {
		r.Cases[k] = ProbeCase{Tool: c.Tool, Picked: c.Picked, From: c.From, Repeat: c.Repeat}
	}
	r.index()
	return r, nil
}
