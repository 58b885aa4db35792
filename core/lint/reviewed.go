package lint

// RuleModelReview is the rule id of a problem a chat model's review of a
// tool found (core/judge): no rule of the pack, and marked as a model's
// wherever it shows.
const RuleModelReview = "model-review"

// Reviewed is the model review section of a report: who reviewed, from
// where, and the tools whose review no longer holds.
type Reviewed struct {
	// Model is the model asked in this run, "" when reviews were only
	// replayed.
	Model string `json:"model"`
	File  string `json:"file,omitempty"`
	// Asked and Replayed count the tools reviewed in this run and those a
	// recorded review answered; Problems counts the findings they gave.
	Asked    int `json:"asked"`
	Replayed int `json:"replayed"`
	Problems int `json:"problems"`
	// Unreviewed are the tools a review was wanted for and none holds.
	Unreviewed []UnreviewedTool `json:"unreviewed"`
	Error      string           `json:"error,omitempty"`
}

// UnreviewedTool is a tool with no review that holds, and why (a stale
// review: its texts changed since).
type UnreviewedTool struct {
	Tool string `json:"tool"`
	Why  string `json:"why"`
}
