package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The HTML page of a catalog that passes with warnings and advisory review
// pairs (datadog-mcp-server, which once opened on 11 review pairs with its
// warnings folded in the tool cards), as headless Chromium parses and
// lays it out: the first-to-fix list comes first, then the findings, every
// warning outside a folded card, and only then the pairs.
func TestHTMLPageShowsWarningsBeforeAdvisoryPairsInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test is skipped")
	}
	browser, ok := chromiumPath()
	if !ok {
		t.Skip("SKIP: chromium is not installed (Debian: apt-get install chromium): the page's order was not checked in a browser")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	lint := exec.Command(binary(t), "lint", "--no-config", "--format", "html="+page, "--format", "json", "testdata/first/datadog-mcp-server.json")
	out, err := lint.Output()
	if err != nil {
		t.Fatalf("lint --format html (the catalog passes): %v: %s", err, out)
	}
	var run struct {
		Summary struct{ Watch, Warnings, Errors, Confusable int }
	}
	if err := json.Unmarshal(out, &run); err != nil || run.Summary.Warnings == 0 || run.Summary.Watch == 0 || run.Summary.Errors+run.Summary.Confusable != 0 {
		t.Fatalf("the fixture is no longer a passing catalog with warnings and review pairs: %+v, %v", run.Summary, err)
	}
	// A guard against a browser that hangs, not a timed assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+page)
	var dom, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &dom, &stderr
	if err := cmd.Run(); err != nil {
		t.Skipf("SKIP: chromium (%s) cannot render here: %v: %s", browser, err, tail(stderr.String(), 400))
	}
	doc := dom.String()
	at := 0
	for _, want := range []string{`id="first"`, "Passes the gate", "Tool ", fmt.Sprintf("Advisory: %d pairs on the review list", run.Summary.Watch),
		`id="findings"`, "optional-param-undocumented", `id="pairs"`, "review"} {
		i := strings.Index(doc[at:], want)
		if i < 0 {
			t.Fatalf("the page as Chromium read it lacks %q after offset %d (or has it out of order)", want, at)
		}
		at += i + len(want)
	}
	findings := doc[strings.Index(doc, `id="findings"`):strings.Index(doc, `id="pairs"`)]
	if strings.Contains(findings, "<details") || strings.Count(findings, "~ warn") != run.Summary.Warnings {
		t.Errorf("the findings before the pairs are folded or not all there: %d warnings shown of %d", strings.Count(findings, "~ warn"), run.Summary.Warnings)
	}
	// And the page renders: not blank at a desktop's first screen.
	img, _, err := shot(t, browser, page, 1280, 900)
	if err != nil {
		t.Fatalf("rendering the page: %v", err)
	}
	if share, colors := inked(img); share < 0.02 || colors < 16 {
		t.Errorf("the first screen looks blank: %.1f%% inked, %d colours", 100*share, colors)
	}
	_ = os.Remove(page)
}
