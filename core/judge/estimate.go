package judge

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"toolscope/core/tokens"
)

// AnswerTokens is the output assumed per judged pair: a label, a sentence
// of reason and two sentences of fix come to about this many tokens.
const AnswerTokens = 120

// messageOverhead is the tokens a chat request adds per message (role and
// separators), as OpenAI documents for its chat format.
const messageOverhead = 4

// Price is a model's list price in US dollars per million tokens.
type Price struct {
	In, Out float64
}

// listPrices are OpenAI list prices (US dollars per million tokens, input
// and output) at the time of writing; --judge-price overrides them, and a
// model not listed has no dollar estimate unless given one.
var listPrices = map[string]Price{
	"gpt-4o":       {2.50, 10},
	"gpt-4o-mini":  {0.15, 0.60},
	"gpt-4.1":      {2, 8},
	"gpt-4.1-mini": {0.40, 1.60},
	"gpt-4.1-nano": {0.10, 0.40},
	"o4-mini":      {1.10, 4.40},
}

// ParsePrice reads --judge-price: "IN,OUT" in dollars per million tokens.
func ParsePrice(s string) (Price, error) {
	in, out, ok := strings.Cut(s, ",")
	pi, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
	po, err2 := strconv.ParseFloat(strings.TrimSpace(out), 64)
	// Written so that NaN fails too: every comparison with it is false.
	if !ok || err1 != nil || err2 != nil || !(pi >= 0 && pi <= 1e6) || !(po >= 0 && po <= 1e6) {
		return Price{}, fmt.Errorf("price %q is not IN,OUT in dollars per million tokens (e.g. 0.40,1.60)", s)
	}
	return Price{pi, po}, nil
}

// PriceFor is the price to estimate with: the one given, else nothing for
// a server on this machine, else the model's list price; ok is false when
// none is known.
func PriceFor(model, endpoint string, given *Price) (Price, bool) {
	if given != nil {
		return *given, true
	}
	if isLocal(endpoint) {
		return Price{}, true
	}
	p, ok := listPrices[model]
	return p, ok
}

// isLocal reports whether the endpoint is on this machine (Ollama, LM
// Studio, llama.cpp and vLLM run there).
func isLocal(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Estimate is what a run will cost, known before it starts.
type Estimate struct {
	Requests  int
	InTokens  int
	OutTokens int
	// Dollars is the cost at Price; nil when no price is known.
	Dollars *float64
}

// Cost turns token counts into an estimate at price (nil for unknown).
func Cost(requests, in, out int, price *Price) Estimate {
	e := Estimate{Requests: requests, InTokens: in, OutTokens: out}
	if price != nil {
		d := (float64(in)*price.In + float64(out)*price.Out) / 1e6
		e.Dollars = &d
	}
	return e
}

// EstimatePairs counts the input tokens of the pairs' requests under
// o200k_base and assumes AnswerTokens out per pair.
func EstimatePairs(pairs []Pair, price *Price) Estimate {
	msgs := make([]string, len(pairs))
	for i, p := range pairs {
		msgs[i] = p.message()
	}
	return estimateRequests(Rubric, msgs, AnswerTokens, price)
}

// estimateRequests is the cost of one request per message, each with the
// system prompt, assuming out tokens answered to each.
func estimateRequests(system string, msgs []string, out int, price *Price) Estimate {
	prompt := tokens.MustCount(tokens.O200k, system) + messageOverhead
	in := 0
	for _, m := range msgs {
		in += prompt + tokens.MustCount(tokens.O200k, m) + messageOverhead
	}
	return Cost(len(msgs), in, out*len(msgs), price)
}

// The output assumed for a probe: a written request, a tool call.
const (
	WrittenRequestTokens = 40
	PickTokens           = 30
)

// EstimateProbe is a probe's cost: writing k requests per tool (unless
// written is false: the requests were given) and sending every request
// with the whole catalog, whose definitions take catalogTokens.
func EstimateProbe(tools []Tool, k, requests int, written bool, catalogTokens int, price *Price) Estimate {
	in, out, n := 0, 0, 0
	if written {
		prompts := map[string]int{}
		for _, t := range tools {
			// The others' names are counted as two tokens each.
			system, msg, _ := writeMessage(t, nil, k)
			if _, ok := prompts[system]; !ok {
				prompts[system] = tokens.MustCount(tokens.O200k, system) + 2*messageOverhead
			}
			in += prompts[system] + tokens.MustCount(tokens.O200k, msg) + 2*len(tools)
			out += WrittenRequestTokens * k
		}
		n += len(tools)
	}
	// A request itself is about as long as a written one.
	in += requests * (catalogTokens + WrittenRequestTokens + messageOverhead)
	out += requests * PickTokens
	return Cost(n+requests, in, out, price)
}

// String is the estimate in one line; priceFlag names the flag that gives
// a price when none is known.
func (e Estimate) String(priceFlag string) string {
	s := fmt.Sprintf("%s, about %s input and %s output tokens", count(e.Requests, "request", "requests"), kilo(e.InTokens), kilo(e.OutTokens))
	if e.Dollars == nil {
		return s + ", price unknown (give one with " + priceFlag + " IN,OUT dollars per million tokens)"
	}
	return s + fmt.Sprintf(", about $%.2f", *e.Dollars)
}

func kilo(n int) string {
	if n < 10_000 {
		return strconv.Itoa(n)
	}
	return strconv.Itoa((n+500)/1000) + "k"
}
