package similarity

import (
	"slices"
	"strings"

	"toolscope/core/catalog"
)

// Name structure: a tool name read as action, object and qualifiers
// ("get_page_property" is the action get on the object page property).
// The risk scoring (risk.go) reads how two names relate: opposite or
// different-kind actions, the same action on different objects, one object
// nested in the other.

// nameParts is a name split into its action and its object words. The
// words every tool of the catalog shares (a server prefix) are dropped
// first.
type nameParts struct {
	verb   string   // the action as written, "" when no word is a known action
	action string   // its synonym group ("fetch" -> get)
	kind   verbKind // what the action does to its object
	object []string // the other words, sorted, repeats dropped
	said   []string // the other words as the name has them, for reasons

	// What relate reads of every pair, worked out once per name: the
	// object holds a word that turns the action around ("reverse",
	// "back"), its head (the last object word, singular: the thing the
	// tool is about), and a bit per object word (by its hash), so that
	// most pairs are told not nested without comparing words.
	reverse bool
	head    string
	mask    uint64
	// lead is the name's first word and rest a hash of the words after
	// it, so that two names told apart by their first word alone are seen
	// in two comparisons.
	lead string
	rest uint64
	size int
}

// verbKind sorts actions by what they do.
type verbKind uint8

const (
	kindNone   verbKind = iota
	kindRead            // looks, leaves the object as it is
	kindWrite           // creates or changes
	kindRemove          // deletes, stops, undoes
	kindAct             // acts on the world without being read or write (click, run, send)
)

// verbs maps an action word to its synonym group and kind.
var verbs = map[string]struct {
	group string
	kind  verbKind
}{}

func init() {
	groups := []struct {
		kind  verbKind
		words []string
	}{
		{kindRead, []string{"get", "fetch", "retrieve", "read", "obtain", "show", "view", "describe", "inspect", "info"}},
		{kindRead, []string{"list", "enumerate", "browse", "all"}},
		{kindRead, []string{"search", "find", "query", "lookup", "seek", "discover"}},
		{kindRead, []string{"count"}},
		{kindRead, []string{"check", "verify", "validate", "test"}},
		{kindRead, []string{"download", "export", "pull"}},
		{kindRead, []string{"observe", "watch", "monitor"}},
		{kindRead, []string{"extract", "scrape", "crawl", "parse"}},
		{kindRead, []string{"analyze", "analyse", "summarize", "explain", "evaluate", "calculate", "compute"}},
		{kindRead, []string{"hover"}},
		{kindRead, []string{"take", "capture", "snapshot", "screenshot"}},
		{kindWrite, []string{"create", "add", "new", "make", "insert", "post", "generate", "register", "book"}},
		{kindWrite, []string{"update", "edit", "modify", "patch", "change", "set", "put", "rename", "replace", "upsert", "write", "save", "append", "upgrade"}},
		{kindWrite, []string{"upload", "import", "push", "publish"}},
		{kindWrite, []string{"install"}},
		{kindWrite, []string{"start", "open", "launch", "begin"}},
		{kindWrite, []string{"enable", "activate"}},
		{kindWrite, []string{"lock"}},
		{kindWrite, []string{"mute"}},
		{kindWrite, []string{"subscribe", "follow", "attach", "connect", "link", "assign", "grant", "approve"}},
		{kindWrite, []string{"acknowledge", "ack"}},
		{kindWrite, []string{"archive"}},
		{kindWrite, []string{"merge", "apply", "deploy", "restore", "resume", "reset"}},
		{kindRemove, []string{"delete", "remove", "destroy", "drop", "erase", "purge", "clear"}},
		{kindRemove, []string{"uninstall"}},
		{kindRemove, []string{"stop", "close", "end", "terminate", "kill", "cancel", "abort", "pause"}},
		{kindRemove, []string{"resolve"}},
		{kindRemove, []string{"disable", "deactivate"}},
		{kindRemove, []string{"unlock"}},
		{kindRemove, []string{"unmute"}},
		{kindRemove, []string{"unsubscribe", "unfollow", "detach", "disconnect", "unlink", "unassign", "revoke", "reject"}},
		{kindRemove, []string{"unarchive"}},
		{kindAct, []string{"run", "execute", "exec", "invoke", "call", "trigger", "rerun", "retry"}},
		{kindAct, []string{"restart", "reboot", "reload", "redeploy"}},
		{kindAct, []string{"send", "reply", "notify", "email", "message"}},
		{kindAct, []string{"click", "press", "tap"}},
		{kindAct, []string{"fill", "type", "enter", "input"}},
		{kindAct, []string{"navigate", "go", "goto", "visit", "redirect"}},
	}
	// Actions of their own: no two of these are one action.
	for _, w := range []string{"drag", "scroll", "resize", "emulate", "wait", "select", "switch", "move", "copy", "transfer", "convert", "think", "act", "schedule", "sync", "build"} {
		groups = append(groups, struct {
			kind  verbKind
			words []string
		}{kindAct, []string{w}})
	}
	for _, g := range groups {
		for _, w := range g.words {
			if _, dup := verbs[w]; !dup {
				verbs[w] = struct {
					group string
					kind  verbKind
				}{g.words[0], g.kind}
			}
		}
	}
}

// nounToo are action words that name things as often: in
// monitor_delete the action is delete.
var nounToo = map[string]bool{
	"monitor": true, "watch": true, "snapshot": true, "screenshot": true, "message": true, "email": true,
	"test": true, "input": true, "type": true, "post": true, "trigger": true, "build": true, "switch": true,
	"map": true, "drop": true, "act": true, "info": true, "all": true, "new": true, "end": true, "copy": true,
}

// antonyms are action groups that undo each other.
var antonyms = map[[2]string]bool{}

func init() {
	for _, p := range [][2]string{
		{"create", "delete"}, {"install", "uninstall"}, {"start", "stop"}, {"enable", "disable"},
		{"lock", "unlock"}, {"upload", "download"}, {"get", "update"}, {"subscribe", "unsubscribe"},
		{"archive", "unarchive"}, {"mute", "unmute"}, {"merge", "delete"}, {"create", "update"}, {"update", "delete"},
	} {
		antonyms[p] = true
		antonyms[[2]string{p[1], p[0]}] = true
	}
}

// parseNames reads every tool's name structure. A first word that more
// than half of one server's tools (of at least four) start with is that
// server's prefix ("browserbase_", "API-") and dropped, unless it is an
// action: a catalog whose tools are mostly get_x keeps its gets. A catalog
// merged from several servers drops each server's own.
func parseNames(tools []*catalog.Tool) []nameParts {
	tokens := make([][]string, len(tools))
	type key struct{ server, word string }
	lead := map[key]int{}
	size := map[string]int{}
	for k, t := range tools {
		tokens[k] = NameTokens(t.OwnName())
		size[t.Server]++
		if len(tokens[k]) > 0 {
			lead[key{t.Server, tokens[k][0]}]++
		}
	}
	out := make([]nameParts, len(tools))
	for k, ws := range tokens {
		n := size[tools[k].Server]
		if n >= 4 && len(ws) > 1 && 2*lead[key{tools[k].Server, ws[0]}] > n && !isAction(ws[0]) {
			ws = ws[1:]
		}
		out[k] = parseName(ws)
	}
	return out
}

func isAction(w string) bool {
	_, ok := verbs[w]
	return ok
}

// parseName takes the first known action word as the action and the rest
// as the object.
func parseName(ws []string) nameParts {
	var p nameParts
	var obj []string
	if len(ws) > 0 {
		p.lead, p.size = ws[0], len(ws)
		p.rest = wordHash(strings.Join(ws[1:], " "))
	}
	// The action is the first word when it is one (get_job_test_results),
	// else the last action word (fs_blob_import_create creates); a word
	// that is as often a thing (monitor, snapshot, message) only when no
	// other word is an action (monitor_delete deletes).
	verb := -1
	for k, w := range ws {
		if _, ok := verbs[w]; ok && (verb < 0 || nounToo[ws[verb]] && !nounToo[w] || verb > 0 && !nounToo[w]) {
			verb = k
		}
	}
	for k, w := range ws {
		if v, ok := verbs[w]; ok && k == verb {
			p.verb, p.action, p.kind = w, v.group, v.kind
			continue
		}
		obj = append(obj, strings.TrimSuffix(singular(w), "_"))
		p.said = append(p.said, w)
	}
	if len(obj) > 0 {
		p.head = obj[len(obj)-1]
	}
	slices.Sort(obj)
	p.object = slices.Compact(obj)
	for _, w := range p.object {
		p.reverse = p.reverse || turnsAround[w]
		p.mask |= 1 << (wordHash(w) & 63)
	}
	return p
}

// turnsAround are object words that make the action its own reverse:
// geocode/reverse_geocode, navigate/navigate_back.
var turnsAround = map[string]bool{"reverse": true, "back": true, "undo": true}

// wordHash is FNV-1a, for the object masks.
func wordHash(w string) uint64 {
	h := uint64(14695981039346656037)
	for k := 0; k < len(w); k++ {
		h = (h ^ uint64(w[k])) * 1099511628211
	}
	return h
}

// singular drops a plural's s, so "pages" and "page" are one object.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// nameRelation is how two names' structures relate.
type nameRelation struct {
	opposite   bool // antonymous actions, or a read against a change
	otherVerb  bool // two known actions of different groups, not opposite
	sameAction bool // the same action group
	nested     bool // one object's words are a strict part of the other's
}

func relate(a, b *nameParts) nameRelation {
	var r nameRelation
	if reversed(a, b) || stops(a, b) || stops(b, a) {
		r.opposite = true
	} else if leadsApart(a, b) {
		r.otherVerb = true
	} else if a.verb != "" && b.verb != "" {
		switch {
		case a.action == b.action:
			r.sameAction = true
		case differentKind(a.kind, b.kind) || antonyms[[2]string{a.action, b.action}]:
			r.opposite = true
		default:
			r.otherVerb = true
		}
	}
	if r.opposite || r.otherVerb || len(a.object) == len(b.object) {
		return r
	}
	small, large := a, b
	if len(small.object) > len(large.object) {
		small, large = b, a
	}
	if len(small.object) == 0 {
		// Nothing of the object is shared: nested only under one action.
		r.nested = a.verb != "" && a.action == b.action
		return r
	}
	if small.mask&^large.mask != 0 {
		return r // a word of the smaller object is missing from the larger
	}
	if small.head != large.head {
		// The longer name names a thing of the shorter's object, not a
		// narrower kind of it: get_application_events lists events,
		// get_application reads the application.
		return r
	}
	for _, w := range small.object {
		if _, ok := slices.BinarySearch(large.object, w); !ok {
			return r
		}
	}
	r.nested = true
	return r
}

// leadsApart reports whether two names differ in their first word alone
// and that word is not a known action of both: the first word is then an
// action, known or not (get_cost against confirm_cost, merge_branch against
// rebase_branch), and the two are other actions on one object. An unknown
// first word of four letters or fewer is more often a qualifier (hist,
// live, raw, bulk) than an action, so it does not count.
func leadsApart(a, b *nameParts) bool {
	if a.size < 2 || a.size != b.size || a.lead == b.lead || a.rest != b.rest {
		return false
	}
	unknown := func(p *nameParts) bool { return p.verb != p.lead && len(p.lead) > 4 }
	return (unknown(a) || a.verb == a.lead) && (unknown(b) || b.verb == b.lead) && (a.verb != a.lead || b.verb != b.lead)
}

// stops reports whether a removes or stops what b, a name with no known
// action, does: stop_port_forward against port_forward.
func stops(a, b *nameParts) bool {
	return a.kind == kindRemove && b.verb == "" && slices.Equal(a.object, b.object)
}

// reversed reports whether one name is the other's action (known or not)
// reversed: geocode/reverse_geocode.
func reversed(a, b *nameParts) bool {
	return a.reverse != b.reverse && a.action == b.action
}

// differentKind reports whether one action reads or acts where the other
// writes or removes: the model is told which by the request's verb.
func differentKind(x, y verbKind) bool {
	if x == y || x == kindNone || y == kindNone {
		return false
	}
	mut := func(k verbKind) bool { return k == kindWrite || k == kindRemove }
	return mut(x) != mut(y) && (x == kindRead || y == kindRead) || mut(x) && mut(y)
}
