package cli

import (
	"fmt"
	"net/url"
	"strings"

	"toolscope/core/judge"
	"toolscope/embed/openai"
)

// missingKey refuses, before any request is sent or any cost estimated,
// a chat model at OpenAI's own API with no key in the environment: every
// request would be refused (and retried) for want of it. A server at
// another URL may need none (a local one), so it is left to answer.
func missingKey(m *judge.Model, urlFlag string) error {
	if m.HasKey() {
		return nil
	}
	u, err := url.Parse(m.Endpoint())
	def, _ := url.Parse(openai.DefaultURL)
	if err != nil || !strings.EqualFold(u.Hostname(), def.Hostname()) {
		return nil
	}
	return fmt.Errorf("no API key for %s at %s: set $%s or $%s (or give %s for a server that needs none); nothing was sent",
		m.ID(), u.Host, judge.EnvKey, openai.EnvKeyOpenAI, urlFlag)
}
