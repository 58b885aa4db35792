package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromiumPath is the browser the page test runs: $TOOLSCOPE_CHROMIUM, or
// Debian's chromium package.
func chromiumPath() (string, bool) {
	if p := os.Getenv("TOOLSCOPE_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// shot renders the file at page in headless Chromium at width×height and
// returns the screenshot and what Chromium logged. Nothing it could
// fetch is reached: no network service starts, and every host name
// resolves to nowhere.
func shot(t *testing.T, browser, page string, width, height int) (image.Image, string, error) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "shot.png")
	// A guard against a browser that hangs, not a timed assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--enable-logging=stderr", "--v=0", "--hide-scrollbars",
		fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+out, "file://"+page)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, stderr.String(), fmt.Errorf("%v: %s", err, tail(stderr.String(), 600))
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, stderr.String(), fmt.Errorf("no screenshot: %v: %s", err, tail(stderr.String(), 600))
	}
	defer f.Close()
	img, err := png.Decode(f)
	return img, stderr.String(), err
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// inked is the share of the image's pixels that differ from its corner's
// colour, and how many colours it has.
func inked(img image.Image) (share float64, colors int) {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	seen := map[[4]uint32]bool{}
	differ := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bl, a := c.RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if c != bg {
				differ++
			}
		}
	}
	return float64(differ) / float64(b.Dx()*b.Dy()), len(seen)
}

// The lint's HTML page, rendered by a real browser at a desktop's width and
// a phone's: the screenshot is not blank (text and colour on it) and
// the page logs nothing to the console. Skipped, saying why, where
// Chromium is not installed or cannot render at all.
func TestHTMLPageInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test is skipped")
	}
	browser, ok := chromiumPath()
	if !ok {
		t.Skip("SKIP: chromium is not installed (Debian: apt-get install chromium; .ci/run does): the HTML page was not rendered in a browser")
	}
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probe, []byte("<!DOCTYPE html><p>toolscope</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := shot(t, browser, probe, 400, 300); err != nil {
		t.Skipf("SKIP: chromium (%s) cannot render here: %v", browser, err)
	}
	page := filepath.Join(dir, "report.html")
	// The built binary writes the page, as a user runs it (and the
	// process-wide pattern ledger of this test binary stays untouched).
	lint := exec.Command(binary(t), "lint", "--no-config", "--format", "html="+page, demoPath)
	if out, err := lint.CombinedOutput(); err != nil && lint.ProcessState.ExitCode() != 1 {
		t.Fatalf("lint --format html: %v: %s", err, out)
	}
	for _, size := range [][2]int{{1280, 1600}, {390, 1400}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			img, log, err := shot(t, browser, page, size[0], size[1])
			if err != nil {
				t.Fatalf("rendering the page: %v", err)
			}
			if b := img.Bounds(); b.Dx() != size[0] {
				t.Errorf("the screenshot is %d wide, want %d", b.Dx(), size[0])
			}
			share, colors := inked(img)
			if share < 0.02 || colors < 16 {
				t.Errorf("the screenshot looks blank: %.1f%% of its pixels off the background, %d colours", 100*share, colors)
			}
			for _, line := range strings.Split(log, "\n") {
				if strings.Contains(line, ":CONSOLE") {
					t.Errorf("the page logged to the console: %s", line)
				}
			}
		})
	}
}
