package similarity

// DescriptionTerms lists the terms hints read in a description: its
// distinct lower-case words of at least three characters (runs of ASCII
// letters, digits and `_`) that are not stop words, in first-seen order.
// The explorer marks them when it compares two tools.
func DescriptionTerms(description string) []string { return descriptionTerms(description) }
