package diff

import (
	"fmt"
	"slices"
	"strings"
)

// Level is how much a change weighs, as oasdiff grades API changes: an
// error breaks callers, a warning may, info is for the record. Each kind
// has a default (DefaultLevels); a project's toolscope.yaml may set
// another (docs/diff.md#levels).
type Level string

// The three levels, most severe first.
const (
	LevelError Level = "error"
	LevelWarn  Level = "warn"
	LevelInfo  Level = "info"
)

// Levels are the levels, most severe first.
var Levels = []Level{LevelError, LevelWarn, LevelInfo}

func (l Level) rank() int {
	switch l {
	case LevelError:
		return 3
	case LevelWarn:
		return 2
	case LevelInfo:
		return 1
	}
	return 0
}

// AtLeast reports whether l is as severe as m or more.
func (l Level) AtLeast(m Level) bool { return m != "" && l.rank() >= m.rank() }

// ParseLevel reads a level as users write it: error, warn, info, in any
// case, or oasdiff's ERR, WARN, INFO (and warning).
func ParseLevel(s string) (Level, bool) {
	switch strings.ToLower(s) {
	case "error", "err":
		return LevelError, true
	case "warn", "warning":
		return LevelWarn, true
	case "info":
		return LevelInfo, true
	}
	return "", false
}

// ClassSecurity marks a change that may turn a tool against its user: a
// read-only tool become destructive, hidden text or orders to the model
// added. `--fail-on security` fails on these whatever their level.
const ClassSecurity = "security"

// DefaultLevels is each kind's level. A kind not listed (none today) is
// an error when the comparison calls it breaking, else info.
var DefaultLevels = map[Kind]Level{
	ToolAdded:   LevelInfo,
	ToolRemoved: LevelError,
	ToolRenamed: LevelError,

	DescriptionChanged:      LevelInfo,
	ParamDescriptionChanged: LevelInfo,
	TitleChanged:            LevelInfo,

	ParamAdded:           LevelInfo,
	ParamRemoved:         LevelError,
	OptionalParamRemoved: LevelWarn,
	ParamRequired:        LevelError,
	ParamOptional:        LevelInfo,
	TypeNarrowed:         LevelError,
	TypeChanged:          LevelError,
	TypeWidened:          LevelInfo,
	EnumValueRemoved:     LevelError,
	EnumValueAdded:       LevelInfo,
	EnumAdded:            LevelError,
	EnumRemoved:          LevelInfo,
	ConstChanged:         LevelError,
	ConstRemoved:         LevelInfo,
	PatternAdded:         LevelError,
	PatternChanged:       LevelWarn,
	PatternRemoved:       LevelInfo,
	BoundTightened:       LevelError,
	BoundLoosened:        LevelInfo,
	ExtraKeysRefused:     LevelError,
	ExtraKeysAllowed:     LevelInfo,
	FormatAdded:          LevelError,
	FormatChanged:        LevelError,
	FormatRemoved:        LevelInfo,
	DefaultChanged:       LevelWarn,
	ConstraintAdded:      LevelError,
	ConstraintChanged:    LevelWarn,
	ConstraintRemoved:    LevelInfo,
	BranchAdded:          LevelInfo,
	BranchRemoved:        LevelError,
	DefinitionAdded:      LevelInfo,
	DefinitionRemoved:    LevelError,
	SchemaOtherChanged:   LevelInfo,

	AnnotationsChanged:     LevelInfo,
	AnnotationsDestructive: LevelError,
	HiddenTextAdded:        LevelError,
	InstructionsAdded:      LevelError,

	OutputFieldRemoved:     LevelError,
	OutputFieldOptional:    LevelError,
	OutputTypeChanged:      LevelError,
	OutputTypeWidened:      LevelError,
	OutputEnumValueAdded:   LevelWarn,
	OutputFieldAdded:       LevelInfo,
	OutputTypeNarrowed:     LevelInfo,
	OutputSchemaChanged:    LevelInfo,
	OutputSchemaAdded:      LevelInfo,
	OutputEnumValueRemoved: LevelInfo,
}

// securityKinds are the kinds of ClassSecurity.
var securityKinds = map[Kind]bool{AnnotationsDestructive: true, HiddenTextAdded: true, InstructionsAdded: true}

// Kinds lists every kind, sorted, for messages and docs.
func Kinds() []Kind {
	out := make([]Kind, 0, len(DefaultLevels))
	for k := range DefaultLevels {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// level is a change's level under overrides (nil: the defaults).
func level(c Change, overrides map[Kind]Level) Level {
	if l, ok := overrides[c.Kind]; ok {
		return l
	}
	if l, ok := DefaultLevels[c.Kind]; ok {
		return l
	}
	if c.Breaking {
		return LevelError
	}
	return LevelInfo
}

// SetLevels grades every change, the overrides (a project's) over the
// defaults, and counts again: Breaking then means an error-level change.
func (r *Report) SetLevels(overrides map[Kind]Level) {
	for i := range r.Changes {
		c := &r.Changes[i]
		c.Level = level(*c, overrides)
		c.Breaking = c.Level == LevelError
		if securityKinds[c.Kind] {
			c.Class = ClassSecurity
		}
	}
	r.count()
}

// Fail names what fails the gate.
type Fail struct {
	// Level is the least level that fails ("" for none): error is
	// `--fail-on breaking`.
	Level Level
	// Descriptions fails on a tool's or a parameter's description
	// changed; Titles on a title changed (`any-description` sets both).
	Descriptions, Titles bool
	// Security fails on a change of ClassSecurity, whatever its level.
	Security bool
	// Pairs fails on a new confusable pair.
	Pairs bool
}

// Fails reports whether c fails the gate.
func (f Fail) Fails(c Change) bool {
	switch {
	case c.Level.AtLeast(f.Level):
		return true
	case f.Security && c.Class == ClassSecurity:
		return true
	case f.Descriptions && isDescription(c.Kind):
		return true
	case f.Titles && c.Kind == TitleChanged:
		return true
	}
	return false
}

func isDescription(k Kind) bool { return k == DescriptionChanged || k == ParamDescriptionChanged }

// Gate sets OK by what fails.
func (r *Report) Gate(f Fail) {
	r.OK = !(f.Pairs && r.Summary.NewPairs > 0)
	for _, c := range r.Changes {
		if f.Fails(c) {
			r.OK = false
		}
	}
}

// FailReasons counts what failed the gate, for a RESULT line.
func (r *Report) FailReasons(f Fail) string {
	counts := map[string]int{}
	var order []string
	note := func(what string) {
		if counts[what] == 0 {
			order = append(order, what)
		}
		counts[what]++
	}
	for _, c := range r.Changes {
		if !f.Fails(c) {
			continue
		}
		switch {
		case c.Level == LevelError:
			note("breaking change")
		case c.Level.AtLeast(f.Level):
			note(string(c.Level) + "-level change")
		case f.Security && c.Class == ClassSecurity:
			note("security change")
		default:
			note("description change")
		}
	}
	var why []string
	for _, w := range order {
		why = append(why, plural(counts[w], w))
	}
	if f.Pairs && r.Summary.NewPairs > 0 {
		why = append(why, plural(r.Summary.NewPairs, "new confusable pair"))
	}
	return strings.Join(why, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
