package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Reviews share the judgments' stores: a line of the judgments file or
// of the disk cache that names "review" is a tool's review, any other a
// pair's judgment.

// isReviewLine reports whether a record line is a review's: a JSON object
// with a "review" key.
func isReviewLine(line []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	_, ok := probe["review"]
	return ok
}

// addLine reads one line of a judgments file, a judgment or a review, and
// adds it.
func (r *Records) addLine(line []byte) error {
	if isReviewLine(line) {
		v, err := parseReviewRecord(line, nil)
		if err != nil {
			return err
		}
		r.AddReview(v)
		return nil
	}
	j, err := parseRecord(line)
	if err != nil {
		return err
	}
	r.Add(j)
	return nil
}

// parseReviewRecord reads and checks one review line; extra, when set,
// takes a key the line may have beside a review's (the cache's
// endpoint).
func parseReviewRecord(line []byte, extra *string) (Review, error) {
	var v Review
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var err error
	if extra != nil {
		err = dec.Decode(&struct {
			Endpoint *string `json:"endpoint"`
			*Review
		}{extra, &v})
	} else {
		err = dec.Decode(&v)
	}
	if err != nil {
		return v, fmt.Errorf("not a review: %s", clip(oneLine(err.Error()), 120))
	}
	if err := checkKeys(line); err != nil {
		return v, fmt.Errorf("the review names %w", err)
	}
	if dec.More() {
		return v, errors.New("text after the review")
	}
	return checkReview(v)
}

// checkReview checks a review read from a file, its notes clipped.
func checkReview(v Review) (Review, error) {
	switch {
	case strings.TrimSpace(v.Tool) == "":
		return v, errors.New(`"review" must name the tool reviewed`)
	case v.By == "":
		return v, errors.New(`a review needs "by" ("person" or "openai:MODEL")`)
	case !strings.HasPrefix(v.Texts, "sha256:"):
		return v, errors.New(`"texts" must be the tool's "sha256:…" text hash`)
	case v.Problems == nil:
		return v, errors.New(`a review needs "problems" (an empty list for none)`)
	case len(v.Problems) > MaxProblems:
		return v, fmt.Errorf("a review lists %d problems, more than %d", len(v.Problems), MaxProblems)
	}
	for i, p := range v.Problems {
		switch {
		case !slices.Contains(ReviewCategories, p.Category):
			return v, fmt.Errorf("problems[%d]: category %q is not one of %s", i, clip(p.Category, 40), strings.Join(ReviewCategories, ", "))
		case strings.TrimSpace(p.Note) == "":
			return v, fmt.Errorf(`problems[%d]: no "note"`, i)
		}
		v.Problems[i].Note = clip(oneLine(p.Note), maxRecordReason)
	}
	return v, nil
}

// AddReview records v, replacing a review with the same key.
func (r *Records) AddReview(v Review) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := v.Key()
	if _, ok := r.reviews[k]; !ok {
		r.byTool[v.Tool] = append(r.byTool[v.Tool], k)
	}
	r.reviews[k] = v
}

// ReplaceReview records v in place of every review of the same tool by
// the same reviewer: a file keeps one review per tool and reviewer.
func (r *Records) ReplaceReview(v Review) {
	r.mu.Lock()
	keep := r.byTool[v.Tool][:0]
	for _, k := range r.byTool[v.Tool] {
		if r.reviews[k].By == v.By {
			delete(r.reviews, k)
			continue
		}
		keep = append(keep, k)
	}
	r.byTool[v.Tool] = keep
	r.mu.Unlock()
	r.AddReview(v)
}

// Reviews returns the reviews ordered by tool, then reviewer.
func (r *Records) Reviews() []Review {
	r.mu.Lock()
	out := make([]Review, 0, len(r.reviews))
	for _, v := range r.reviews {
		out = append(out, v)
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(x, y Review) int {
		return strings.Compare(x.Tool+"\x00"+x.By+"\x00"+x.Texts, y.Tool+"\x00"+y.By+"\x00"+y.Texts)
	})
	return out
}

// ReviewCount is the number of reviews held.
func (r *Records) ReviewCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reviews)
}

// ReplayReview finds the review that holds for the tool's current texts:
// a person's first, then prefer's under the current prompt ("" for none),
// then any model's, newest prompt first. stale is true when the tool was
// reviewed but every review is of other texts.
func (r *Records) ReplayReview(t ReviewTool, prefer string) (v Review, ok, stale bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return holding(r.byTool[t.Name], func(k string) (Review, string, string, string) {
		c := r.reviews[k]
		return c, c.Texts, c.By, c.Prompt
	}, t.TextHash(), prefer, ReviewPromptVersion)
}

// parseReview adds one review line of the cache file.
func (c *Cache) parseReview(line []byte) error {
	var endpoint string
	v, err := parseReviewRecord(line, &endpoint)
	if err != nil {
		return err
	}
	if endpoint == "" {
		return errors.New("no endpoint")
	}
	c.addReview(v, endpoint)
	return nil
}

func (c *Cache) addReview(v Review, endpoint string) {
	c.Records.AddReview(v)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reviewAt[v.Key()+"\x00"+endpoint] = v
}

// LookupReview finds the review of exactly this tool's texts by this
// model, prompt version and endpoint.
func (c *Cache) LookupReview(t ReviewTool, by, prompt, endpoint string) (Review, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.reviewAt[reviewKey(t.Name, t.TextHash(), by, prompt)+"\x00"+endpoint]
	return v, ok
}

// StoreReview records v, answered by endpoint, in memory and appends it
// to the file.
func (c *Cache) StoreReview(v Review, endpoint string) {
	c.addReview(v, endpoint)
	if c.path == "" {
		return
	}
	line, _ := json.Marshal(struct {
		Endpoint string `json:"endpoint"`
		Review
	}{endpoint, v})
	c.appendLine(line)
}

// RecordReviews merges reviews into the judgments file at path under its
// lock, as Record does judgments: each replaces the same reviewer's older
// review of its tool.
func RecordReviews(path string, reviews []Review) (*Records, error) {
	return Update(path, func(file *Records) {
		for _, v := range reviews {
			file.ReplaceReview(v)
		}
	})
}
