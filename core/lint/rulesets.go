package lint

import (
	"fmt"
	"strings"

	"toolscope/core/tokens"
)

// RuleSet names a pack of rules (docs/rules.md#rule-sets). Rule ids keep
// their meaning in every set; a set picks which rules run, and for the
// four heuristic rules of the seed, which of their two checks.
type RuleSet string

// The rule sets.
const (
	// RuleSetRecommended is the default: only rules whose findings were
	// measured to be right nearly every time.
	RuleSetRecommended RuleSet = "recommended"
	// RuleSetReference is the seed's pack, exactly as the reference
	// reports it.
	RuleSetReference RuleSet = "reference"
	// RuleSetAll is the recommended rules and every opt-in rule.
	RuleSetAll RuleSet = "all"
)

// RuleSets lists the sets in the order help shows them.
var RuleSets = []RuleSet{RuleSetRecommended, RuleSetReference, RuleSetAll}

// ParseRuleSet reads a set's name.
func ParseRuleSet(s string) (RuleSet, error) {
	for _, r := range RuleSets {
		if string(r) == s {
			return r, nil
		}
	}
	names := make([]string, len(RuleSets))
	for i, r := range RuleSets {
		names[i] = string(r)
	}
	return "", fmt.Errorf("%q: want %s", s, strings.Join(names, ", "))
}

// Tier says where a rule runs: in every set but reference
// ("recommended"), only in all ("opt-in"), or only in reference
// ("reference").
type Tier string

// The tiers.
const (
	TierRecommended Tier = "recommended"
	TierOptIn       Tier = "opt-in"
	TierReference   Tier = "reference"
)

// RulesOf builds the rules of set, in the order findings are listed.
func RulesOf(set RuleSet) []Rule {
	switch set {
	case RuleSetReference:
		return ReferenceRules()
	case RuleSetAll:
		return AllRules()
	}
	return RecommendedRules()
}

// DefaultRules is the default pack, the recommended set.
func DefaultRules() []Rule { return RecommendedRules() }

// RecommendedRules is the recommended set: the rules of AllRules whose
// tier is recommended.
func RecommendedRules() []Rule {
	var out []Rule
	for _, r := range AllRules() {
		if r.Tier == TierRecommended {
			out = append(out, r)
		}
	}
	return out
}

// AllRules is every rule but the seed's own checks: the recommended set
// and the opt-in rules, in the order findings are listed.
func AllRules() []Rule {
	rules := []Rule{
		DuplicateNameRule(),
		ToldDescriptionRule(DefaultMinDescriptionChars),
		SaysWhenRule(),
		ClosedListInProseRule(),
		OmissionRule(),
		DeclarationRule(),
		PatternRule(),
		NameLimitsRule(),
		SchemaNotObjectRule(),
		RequiredUndeclaredRule(),
		EnumTypeMismatchRule(),
		TooManyToolsRule(DefaultMaxTools),
		DuplicateJSONKeyRule(),
		TypeNotANameRule(),
		InvisibleCharactersRule(),
		ToolPoisoningRule(DefaultPoisonPatterns),
		CatalogTokensRule(DefaultMaxTokenShare, tokens.DefaultContext),
		InputExampleRule(),
		QuantityUnitRule(),
		ShapelessParamRule(),
		GenericActionRule(),
		DestructiveUnstatedRule(),
		AnnotationsContradictRule(),
		UnexplainedValuesRule(),
		SchemaContradictsRule(),
		RequiredImpossibleRule(),
		RequiredSaidOptionalRule(),
		AlternativesNoneRule(),
		RequiredUnclearRule(),
		DescriptionCopiedRule(),
		CrossServerSameNameRule(),
		QualifiedCollisionRule(),
		QualifiedNameTooLongRule(),
	}
	rules = append(rules, ConfigRules()...)
	for i := range rules {
		if rules[i].Tier == "" {
			rules[i].Tier = TierRecommended
		}
	}
	return rules
}

// ReferenceRules is the seed's pack (SPEC §4.3) with the seed's checks,
// as the reference reports it: parity with the reference is defined over
// it.
func ReferenceRules() []Rule {
	rules := []Rule{
		DuplicateNameRule(),
		DescriptionRule(DefaultMinDescriptionChars),
		SaysWhatNotWhenRule(DefaultWhenCues),
		EnumInProseRule(DefaultValueMarkers),
		OptionalParamRule(DefaultOmissionCues),
		DeclarationRule(),
		PatternRule(),
		NameLimitsRule(),
		SchemaNotObjectRule(),
		RequiredUndeclaredRule(),
		EnumTypeMismatchRule(),
	}
	for i := range rules {
		rules[i].Tier = TierReference
	}
	return rules
}

// SeedRules is the reference's four heuristic rules after duplicate-name.
func SeedRules() []Rule {
	return ReferenceRules()[:5]
}

// RuleIDs lists every rule id any set knows, in AllRules order.
func RuleIDs() []string {
	var ids []string
	for _, r := range AllRules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// DescriptionRuleIn is description-missing-or-short as set runs it, with
// minChars as its length.
func DescriptionRuleIn(set RuleSet, minChars int) Rule {
	if set == RuleSetReference {
		r := DescriptionRule(minChars)
		r.Tier = TierReference
		return r
	}
	r := ToldDescriptionRule(minChars)
	r.Tier = TierRecommended
	return r
}
