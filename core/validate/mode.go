package validate

import "fmt"

// Mode is when a dispatch boundary enforces the verdict.
type Mode string

// The three modes.
const (
	// Enforce rejects a call with issues before dispatch (the default).
	Enforce Mode = "enforce"
	// Warn reports the issues and runs the call anyway.
	Warn Mode = "warn"
	// Off skips validation.
	Off Mode = "off"
)

// Modes lists every mode, the default first.
var Modes = []Mode{Enforce, Warn, Off}

// ParseMode reads a mode name; "" is the default, Enforce.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "":
		return Enforce, nil
	case Enforce, Warn, Off:
		return m, nil
	}
	return "", fmt.Errorf("unknown validation mode %q (want enforce, warn or off)", s)
}

// Action is what a boundary in some mode does with a call.
type Action int

// The four outcomes.
const (
	// Accepted: the arguments are valid and the call runs.
	Accepted Action = iota
	// Rejected: the call is not executed; the model gets FormatIssues' text.
	Rejected
	// RunsWithWarning: the call runs and the issues are reported beside it.
	RunsWithWarning
	// NotChecked: validation is off and the call runs unchecked.
	NotChecked
)

// Apply says what a boundary in mode m does with a call whose arguments got
// result r. An unknown mode acts as the default, Enforce.
func (m Mode) Apply(r Result) Action {
	switch {
	case m == Off:
		return NotChecked
	case r.OK:
		return Accepted
	case m == Warn:
		return RunsWithWarning
	default:
		return Rejected
	}
}

// Runs reports whether the call is dispatched.
func (a Action) Runs() bool { return a != Rejected }

// String says what happens, as the explorer and check-args show it.
func (a Action) String() string {
	switch a {
	case Accepted:
		return "accepted"
	case Rejected:
		return "rejected before dispatch"
	case RunsWithWarning:
		return "runs with a warning"
	case NotChecked:
		return "not checked"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}
