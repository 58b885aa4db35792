//go:build unix

package cli

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The README's capture of the demo is the real binary's screen: the
// demo with the built-in encoder, on a pseudo-terminal of the size the
// capture names, once the scores are in. TOOLSCOPE_UPDATE_README=1
// rewrites the capture from the screen.
func TestREADMEDemoCapture(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)<!-- demo: ([0-9]+)x([0-9]+) -->\n```\n(.*?)```\n")
	m := block.FindStringSubmatchIndex(string(data))
	if m == nil {
		t.Fatal("the README shows no capture of the demo")
	}
	text := string(data)
	w, _ := strconv.Atoi(text[m[2]:m[3]])
	h, _ := strconv.Atoi(text[m[4]:m[5]])
	want := strings.TrimRight(text[m[6]:m[7]], "\n")
	tm := startTerm(t, runOpts{w: w, h: h})
	tm.waitScored("use-lite risk")
	update := os.Getenv("TOOLSCOPE_UPDATE_README") == "1"
	var got string
	if update {
		// The scores are in; the token counts and the panes that follow
		// them may still be drawing: take the screen once it holds still.
		got = strings.TrimRight(tm.screen(), "\n")
		for range 40 {
			time.Sleep(250 * time.Millisecond)
			now := strings.TrimRight(tm.screen(), "\n")
			if now == got {
				break
			}
			got = now
		}
	} else {
		got = tm.waitFor("the README's capture", func(s string) bool { return strings.TrimRight(s, "\n") == want })
	}
	tm.send("q")
	tm.end()
	if update && got != want {
		text = text[:m[6]] + got + "\n" + text[m[7]:]
		if err := os.WriteFile("README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("README.md: the capture rewritten")
	}
}
