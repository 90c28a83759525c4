// Package pagecheck opens an HTML report in headless Chromium, as a reader
// would, for tests: every chart laid out with something drawn in it, no
// table wider than its box (a screenshot or a print would cut its last
// columns off), nothing logged to the console, and a screenshot that shows
// the charts' colours, kept as an artifact in $MONGOBENCH_ARTIFACTS (or
// the test's temporary directory), never in the repository.
package pagecheck

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromiumNames are the names a Chromium-based browser goes by.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Browser returns the Chromium to check pages with. Without one the test
// is skipped, unless CI=true: CI must check pages in a browser.
func Browser(t *testing.T) string {
	t.Helper()
	for _, n := range chromiumNames {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not installed, and CI=true: CI must install it (apt-get install chromium) so that reports are checked in a browser")
	}
	t.Skip("chromium not installed: apt-get install chromium to run the rendering check")
	return ""
}

// svgRE finds the charts of a page.
var svgRE = regexp.MustCompile(`(?s)<svg class="chart".*?</svg>`)

// harness loads the report in a frame as wide as a laptop's browser
// window, opens its collapsed sections, and writes into the DOM that
// --dump-dom prints, for every chart, its laid-out width and height and
// how many of its lines and bars have a non-empty box, and for every
// table, the section it is in, its width and the width its box shows (a
// wider table scrolls sideways, and a screenshot or a print cuts it off).
// It is the only script involved; the report itself has none.
const harness = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>harness</title></head><body>
<iframe id="f" src="report.html" style="width:1280px;height:3000px"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var out = [], doc = this.contentDocument;
  // Collapsed runs are opened first, so that every chart is laid out.
  doc.querySelectorAll('details').forEach(function (d) { d.open = true; });
  doc.querySelectorAll('svg.chart').forEach(function (s) {
    var r = s.getBoundingClientRect(), drawn = 0;
    s.querySelectorAll('path.line, rect').forEach(function (p) {
      var b = p.getBBox();
      if (b.width > 0 || b.height > 0) drawn++;
    });
    out.push([Math.round(r.width), Math.round(r.height), drawn]);
  });
  var tables = [];
  doc.querySelectorAll('div.scroll').forEach(function (d) {
    var sec = d.closest('section');
    tables.push({section: sec ? sec.id : '', table: Math.round(d.firstElementChild.getBoundingClientRect().width),
      width: d.scrollWidth, shown: d.clientWidth});
  });
  var pre = document.createElement('pre');
  pre.id = 'result';
  pre.textContent = JSON.stringify({charts: out, tables: tables});
  document.body.appendChild(pre);
});
</script>
</body></html>
`

// runChromium runs the browser headless on url with extra flags and
// returns what it printed on stdout and stderr.
func runChromium(t *testing.T, bin, url string, flags ...string) (stdout, stderr string) {
	t.Helper()
	profile, err := os.MkdirTemp("", "mongobench-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	// Chromium's helper processes may still be writing its profile for a
	// moment after it exits; a leftover temporary directory is no failure.
	t.Cleanup(func() { _ = os.RemoveAll(profile) })
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"}
	args = append(args, flags...)
	args = append(args, url)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, errb.String())
	}
	return out.String(), errb.String()
}

// consoleLines returns the lines of Chromium's log that report a console
// message or an uncaught error.
func consoleLines(log string) []string {
	var bad []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			bad = append(bad, l)
		}
	}
	return bad
}

// Check opens page in the browser bin: its DOM, its layout and a
// screenshot, kept as shotName in $MONGOBENCH_ARTIFACTS when set.
func Check(t *testing.T, bin, page, shotName string) {
	t.Helper()
	dir := t.TempDir()
	reportPath := filepath.Join(dir, "report.html")
	if err := os.WriteFile(reportPath, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "harness.html"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	wantCharts := len(svgRE.FindAllString(page, -1))
	if wantCharts == 0 {
		t.Fatal("the page has no chart to check")
	}

	t.Run("dom", func(t *testing.T) { checkDOM(t, bin, reportPath, wantCharts) })
	t.Run("layout", func(t *testing.T) { checkLayout(t, bin, dir, wantCharts) })
	t.Run("screenshot", func(t *testing.T) { checkScreenshot(t, bin, reportPath, shotName) })
}

// checkDOM loads the page and counts the charts the browser drew.
func checkDOM(t *testing.T, bin, reportPath string, wantCharts int) {
	dom, log := runChromium(t, bin, "file://"+reportPath, "--dump-dom")
	if bad := consoleLines(log); len(bad) > 0 {
		t.Errorf("console output while loading the report:\n%s", strings.Join(bad, "\n"))
	}
	charts := regexp.MustCompile(`(?s)<svg class="chart".*?</svg>`).FindAllString(dom, -1)
	if len(charts) != wantCharts {
		t.Errorf("the browser's DOM has %d charts, the report %d", len(charts), wantCharts)
	}
	for i, c := range charts {
		if !strings.Contains(c, `<path class="line" d="M`) && !strings.Contains(c, "<rect ") {
			t.Errorf("chart %d has no drawn path or bar in the DOM", i)
		}
	}
}

// checkLayout lays the page out in the harness: every chart has a size
// and something drawn, and no table is cut off.
func checkLayout(t *testing.T, bin, dir string, wantCharts int) {
	dom, log := runChromium(t, bin, "file://"+filepath.Join(dir, "harness.html"),
		"--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom")
	if bad := consoleLines(log); len(bad) > 0 {
		t.Errorf("console output while laying out the report:\n%s", strings.Join(bad, "\n"))
	}
	m := regexp.MustCompile(`<pre id="result">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the harness wrote no result; DOM:\n%.2000s", dom)
	}
	var result struct {
		Charts [][3]int
		Tables []struct {
			Section             string
			Table, Width, Shown int
		}
	}
	if err := json.Unmarshal([]byte(m[1]), &result); err != nil {
		t.Fatalf("harness result %q: %v", m[1], err)
	}
	boxes := result.Charts
	if len(boxes) != wantCharts {
		t.Errorf("%d charts laid out, want %d", len(boxes), wantCharts)
	}
	for i, b := range boxes {
		if b[0] < 300 || b[1] < 150 || b[2] == 0 {
			t.Errorf("chart %d is %d×%d px with %d drawn lines or bars", i, b[0], b[1], b[2])
		}
	}
	if len(result.Tables) == 0 {
		t.Error("the harness found no table")
	}
	// The tables of a report hold a handful of columns, a sweep's one
	// pair per operation: all of them must show, not scroll.
	for _, tb := range result.Tables {
		t.Logf("table in section %q: %d px wide in a box of %d px", tb.Section, tb.Table, tb.Shown)
		if tb.Width > tb.Shown {
			t.Errorf("the table in section %q is %d px wide and shows %d px: its last columns are cut off", tb.Section, tb.Width, tb.Shown)
		}
	}
}

// checkScreenshot takes the page's screenshot and checks that the charts'
// colours are on it.
func checkScreenshot(t *testing.T, bin, reportPath, shotName string) {
	// CI keeps the screenshot for a person to look at; elsewhere it
	// goes with the test's temporary directory.
	outDir := os.Getenv("MONGOBENCH_ARTIFACTS")
	if outDir == "" {
		outDir = t.TempDir()
	} else if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(outDir, shotName)
	// Tall enough for a whole report of a few runs: the charts at the
	// bottom (a run's metrics) are the ones a reviewer would miss.
	_, log := runChromium(t, bin, "file://"+reportPath, "--screenshot="+shot, "--window-size=1280,12000", "--hide-scrollbars")
	if bad := consoleLines(log); len(bad) > 0 {
		t.Errorf("console output while taking the screenshot:\n%s", strings.Join(bad, "\n"))
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// Blue (#0072B2) and vermillion (#D55E00), the first two series
	// colours, are used by nothing but the charts: a page whose charts
	// failed to draw has neither.
	b := img.Bounds()
	var colour, ink int
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r > 0xc0 && r < 0xe8 && g > 0x48 && g < 0x74 && bl < 0x20 || r < 0x18 && g > 0x60 && g < 0x84 && bl > 0xa0 && bl < 0xc4 {
				colour++
			}
			if r < 0xf0 || g < 0xf0 || bl < 0xf0 {
				ink++
			}
		}
	}
	total := (b.Dx() / 2) * (b.Dy() / 2)
	t.Logf("%d pixels of series colours and %d non-white pixels of %d sampled", colour, ink, total)
	// A blank page has no ink; a short page in the tall window is
	// mostly white, so the bar is a count, not a share.
	if colour < 200 || ink < 5000 {
		t.Errorf("screenshot %s shows no charts: %d pixels of series colours and %d non-white pixels of %d sampled", shot, colour, ink, total)
	}
	if os.Getenv("MONGOBENCH_ARTIFACTS") != "" {
		t.Logf("screenshot kept as artifact: %s (%d×%d)", shot, b.Dx(), b.Dy())
	} else {
		t.Logf("screenshot: %s (%d×%d), removed after the test; set MONGOBENCH_ARTIFACTS=DIR to keep it", shot, b.Dx(), b.Dy())
	}
}
