package report

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		lo, hi         float64
		want           []float64
		wantLo, wantHi float64
	}{
		// The everyday case: a throughput axis from zero.
		{"zero to 97", 0, 97, []float64{0, 20, 40, 60, 80, 100}, 0, 100},
		// Steps of 0.1 must not print as 0.30000000000000004.
		{"fractions", 0.12, 0.47, []float64{0.1, 0.2, 0.3, 0.4, 0.5}, 0.1, 0.5},
		// Large values keep nice steps.
		{"thousands", 2950, 3120, []float64{2950, 3000, 3050, 3100, 3150}, 2950, 3150},
		// A constant series is widened around its value.
		{"constant", 5, 5, []float64{4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6}, 4.4, 5.6},
		// All zeros gives 0 … 1 rather than an empty axis.
		{"zeros", 0, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}, 0, 1},
		// Reversed bounds are swapped.
		{"reversed", 10, 0, []float64{0, 2, 4, 6, 8, 10}, 0, 10},
		// Negative values work like positive ones.
		{"negative", -7, 3, []float64{-8, -6, -4, -2, 0, 2, 4}, -8, 4},
		// Non-finite input falls back to 0 … 1.
		{"NaN", math.NaN(), 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, lo, hi := niceTicks(tc.lo, tc.hi, 5)
			if !slices.Equal(got, tc.want) || lo != tc.wantLo || hi != tc.wantHi {
				t.Errorf("niceTicks(%g, %g) = %v [%g, %g], want %v [%g, %g]", tc.lo, tc.hi, got, lo, hi, tc.want, tc.wantLo, tc.wantHi)
			}
		})
	}
}

func TestNiceStep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ raw, want float64 }{
		{1.2, 1}, {1.6, 2}, {2.9, 2}, {3.1, 5}, {6.9, 5}, {7.5, 10}, {0.031, 0.05}, {420, 500}, {0, 0}, {-1, 0},
	} {
		if got := stepValue(niceStepParts(tc.raw)); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("niceStepParts(%g) gives %g, want %g", tc.raw, got, tc.want)
		}
	}
}

func tickLabels(a axis) string {
	var ls []string
	for _, t := range a.ticks {
		ls = append(ls, t.label)
	}
	return strings.Join(ls, " ")
}

func TestLogAxis(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		lo, hi     float64
		wantLabels string
		wantLo     float64
		wantHi     float64
	}{
		// Less than two decades: 1-2-5 ticks, ends on the nearest ones.
		{"narrow", 300, 5000, "500 µs 1 ms 2 ms 5 ms", 200, 5000},
		{"within a decade", 130, 180, "200 µs", 100, 200},
		// Many decades: whole decades only.
		{"wide", 120, 3_000_000, "100 µs 1 ms 10 ms 100 ms 1 s 10 s", 100, 1e7},
		// More than eight decades: every other decade.
		{"huge", 1, 1e12, "1 µs 100 µs 10 ms 1 s 100 s 10,000 s 1,000,000 s", 1, 1e12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newLogAxis(tc.lo, tc.hi, formatLatencyTick)
			if got := tickLabels(a); !strings.HasSuffix(got, tc.wantLabels) && got != tc.wantLabels {
				t.Errorf("labels %q, want %q", got, tc.wantLabels)
			}
			if math.Abs(a.lo-tc.wantLo) > 1e-9*tc.wantLo || math.Abs(a.hi-tc.wantHi) > 1e-9*tc.wantHi {
				t.Errorf("domain [%g, %g], want [%g, %g]", a.lo, a.hi, tc.wantLo, tc.wantHi)
			}
			if a.lo > tc.lo || a.hi < tc.hi {
				t.Errorf("domain [%g, %g] does not cover [%g, %g]", a.lo, a.hi, tc.lo, tc.hi)
			}
		})
	}
}

func TestPercentileAxis(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		maxPct float64
		want   string
	}{
		// Few values: still up to 99%, so that charts compare.
		{50, "0% 90% 99%"},
		{99.95, "0% 90% 99% 99.9% 99.99%"},
		// A million values reach one in a million.
		{100 * (1 - 1e-6), "0% 90% 99% 99.9% 99.99% 99.999% 99.9999%"},
		// Capped at seven nines.
		{100, "0% 90% 99% 99.9% 99.99% 99.999% 99.9999% 99.99999%"},
	} {
		a := newPercentileAxis(tc.maxPct)
		if got := tickLabels(a); got != tc.want {
			t.Errorf("newPercentileAxis(%g) ticks %q, want %q", tc.maxPct, got, tc.want)
		}
	}
	// Each nine is one equal step along the axis.
	a := newPercentileAxis(99.99)
	for i, q := range []float64{0, 90, 99, 99.9, 99.99} {
		if got, want := a.frac(q), float64(i)/4; math.Abs(got-want) > 1e-9 {
			t.Errorf("frac(%g) = %g, want %g", q, got, want)
		}
	}
}

func TestAxisFrac(t *testing.T) {
	t.Parallel()
	lin := axis{kind: linearAxis, lo: 0, hi: 200}
	lg := axis{kind: logAxis, lo: 10, hi: 1000}
	for _, tc := range []struct {
		name string
		a    axis
		v    float64
		want float64
	}{
		{"linear middle", lin, 100, 0.5},
		{"linear end", lin, 200, 1},
		// Far outside values are clamped just past the frame.
		{"linear far above", lin, 1e9, 1.05},
		{"linear far below", lin, -1e9, -0.05},
		{"log middle", lg, 100, 0.5},
		{"log zero", lg, 0, 0},
		{"NaN", lin, math.NaN(), 0},
	} {
		if got := tc.a.frac(tc.v); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: frac(%g) = %g, want %g", tc.name, tc.v, got, tc.want)
		}
	}
}

func TestSweepAxis(t *testing.T) {
	t.Parallel()
	// Thread counts spanning a factor of 8 or more get a log axis ticked
	// at the sweep's own values.
	a := sweepAxis("threadcount", []float64{1, 2, 4, 8, 16, 300})
	if a.kind != logAxis || tickLabels(a) != "1 2 4 8 16 300" {
		t.Errorf("thread sweep: kind %d ticks %q", a.kind, tickLabels(a))
	}
	// A narrow sweep stays linear.
	a = sweepAxis("recordcount", []float64{2e6, 3e6, 4e6, 5e6})
	if a.kind != linearAxis || tickLabels(a) != "2,000,000 3,000,000 4,000,000 5,000,000" {
		t.Errorf("record sweep: kind %d ticks %q", a.kind, tickLabels(a))
	}
	if a.lo >= 2e6 || a.hi <= 5e6 {
		t.Errorf("record sweep domain [%g, %g] leaves no room around the points", a.lo, a.hi)
	}
	// A rate ramp is linear however wide: achieved against target follows
	// a straight diagonal only on a linear x, as the y of rates is.
	a = sweepAxis("target", []float64{50, 100, 200, 400})
	if a.kind != linearAxis || tickLabels(a) != "50 100 200 400" {
		t.Errorf("target sweep: kind %d ticks %q, want linear", a.kind, tickLabels(a))
	}
}

// TestSpanOf: an axis covers its lines and their intervals only as far as
// bandReach beyond them: lines at 300–600 with intervals to 3,000 drew on
// 0–3k.
func TestSpanOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		vs, los, his   []float64
		wantLo, wantHi float64
	}{
		{"wide intervals are cut", []float64{300, 450, 600}, []float64{0, 100, 200}, []float64{3000, 900, 700}, 200, 900},
		{"narrow intervals are covered", []float64{300, 600}, []float64{280, 550}, []float64{320, 650}, 280, 650},
		{"no interval", []float64{1000, 2000}, nil, nil, 1000, 2000},
		{"a log axis stops a decade short", []float64{1000, 5000}, []float64{10, 4000}, []float64{1100, 6000}, 1000 / bandReach, 6000},
	} {
		lo, hi := spanOf(tc.vs, tc.los, tc.his)
		if math.Abs(lo-tc.wantLo) > 1e-9 || math.Abs(hi-tc.wantHi) > 1e-9 {
			t.Errorf("%s: span [%g, %g], want [%g, %g]", tc.name, lo, hi, tc.wantLo, tc.wantHi)
		}
	}
	if lo, hi := spanOf(nil, []float64{1}, []float64{2}); !math.IsInf(lo, 1) || hi != 0 {
		t.Errorf("no values: span [%g, %g]", lo, hi)
	}
	// The throughput axis of lines at 300–600 now ends at 1,000, not 3,000.
	_, hi := spanOf([]float64{300, 450, 600}, nil, []float64{3000})
	if a := newLinearAxis(0, hi, true, formatCompact); a.hi != 1000 {
		t.Errorf("axis to %g, want 1000", a.hi)
	}
}

// TestLatencyUnits: an axis, a table or a row states its latencies in one
// unit, the one its largest value reads best in unless its smallest would
// read under 0.1.
func TestLatencyUnits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		vs   []float64
		want latencyUnit
	}{
		{[]float64{500, 800, 900}, microseconds},
		{[]float64{800, 1200, 36863}, milliseconds},
		{[]float64{500, 2000, 8000}, milliseconds},
		{[]float64{2e5, 1.2e6, 2e6}, seconds},
		// The smallest would read under 0.1 of a second, or of a ms.
		{[]float64{800, 1.2e6, 2e6}, milliseconds},
		{[]float64{50, 2000}, microseconds},
		{[]float64{0, math.NaN(), -1}, microseconds},
		{nil, microseconds},
	} {
		if got := latencyUnitFor(tc.vs...); got != tc.want {
			t.Errorf("latencyUnitFor(%v) = %s, want %s", tc.vs, got.name, tc.want.name)
		}
	}
	// A metric in ms (disk await): its ticks in one unit too.
	if got := tickLabels(inOneUnitOf(newLinearAxis(0, 1.9, true, formatCompact), 1000)); got != "0 0.5 ms 1 ms 1.5 ms 2 ms" {
		t.Errorf("an axis of 0 … 2 ms: ticks %q", got)
	}
	if got := milliseconds.format(800); got != "0.8 ms" {
		t.Errorf("800 µs in ms: %q", got)
	}
	if got := milliseconds.format(math.NaN()); got != "–" {
		t.Errorf("NaN: %q", got)
	}
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		// It read "0 500 µs 1 ms 1.5 ms 2 ms".
		{200, 1900, "0 0.5 ms 1 ms 1.5 ms 2 ms"},
		{20, 90, "0 20 µs 40 µs 60 µs 80 µs 100 µs"},
		// A log axis from 100 µs to 10 s: one unit, ms.
		{120, 3_000_000, "0.1 ms 1 ms 10 ms 100 ms 1,000 ms 10,000 ms"},
	} {
		if got := tickLabels(latencyAxis(tc.lo, tc.hi)); got != tc.want {
			t.Errorf("latencyAxis(%g, %g) ticks %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestPlaceLabel: knee labels of lines that saturate at the same point are
// stacked, none over another.
func TestPlaceLabel(t *testing.T) {
	t.Parallel()
	var placed []labelBox
	w := textWidth("knee")
	var ys []float64
	for range 4 {
		ys = append(ys, placeLabel(&placed, 300, 100, w))
	}
	// A ring elsewhere keeps its label just above it.
	if y := placeLabel(&placed, 600, 100, w); y != 89 {
		t.Errorf("a lone ring's label at %g, want 89 (just above)", y)
	}
	if !slices.Equal(ys, []float64{89, 121, 75, 135}) {
		t.Errorf("four labels at one ring placed at %v, want above, below, further above, further below", ys)
	}
	for i := range ys {
		for j := range i {
			if math.Abs(ys[i]-ys[j]) < labelHeight {
				t.Errorf("labels %d and %d overlap: %g and %g", j, i, ys[j], ys[i])
			}
		}
	}
	// Another line's ring just above this one (registered as render
	// does) sends the label below.
	rings := []labelBox{{300, 89 + 4, 16}, {300, 100 + 4, 16}}
	if y := placeLabel(&rings, 300, 100, w); y != 121 {
		t.Errorf("label under another ring at %g, want 121 (below its own)", y)
	}
}

// TestBandsCutAndMarked: a band beyond the axis is drawn cut at the plot's
// edge and marked there with a triangle, and the figure note says so.
func TestBandsCutAndMarked(t *testing.T) {
	t.Parallel()
	c := lineChart{title: "t", x: newLinearAxis(1, 4, false, formatCompact), y: newLinearAxis(0, 1000, true, formatCompact),
		series: []series{{name: "a", color: "#000", band: true, points: []point{
			{x: 1, y: 300, lo: 100, hi: 3000, hasErr: true, tip: "1"},
			{x: 4, y: 600, lo: 500, hi: 700, hasErr: true, tip: "4"},
		}}}}
	svg := c.render()
	if n := strings.Count(svg, `class="cut"`); n != 1 {
		t.Errorf("%d cut marks, want 1 (the interval to 3,000 on an axis to 1,000)", n)
	}
	if !strings.Contains(svg, "the interval runs past the top of the axis") {
		t.Errorf("the mark does not say what it marks")
	}
	band := regexp.MustCompile(`class="band" d="M[0-9.]+ ([0-9.]+)`).FindStringSubmatch(svg)
	if band == nil {
		t.Fatal("no band")
	}
	if y, _ := strconv.ParseFloat(band[1], 64); y < marginTop {
		t.Errorf("the band starts at y=%g, above the plot's top %d", y, marginTop)
	}
	if c.clippedNote() == "" {
		t.Errorf("no note of the cut interval")
	}
	c.series[0].points[0].hi = 900
	if svg := c.render(); strings.Contains(svg, `class="cut"`) || c.clippedNote() != "" {
		t.Errorf("an interval within the axis is marked as cut")
	}
}

func TestTimeAxis(t *testing.T) {
	t.Parallel()
	if got := tickLabels(timeAxis(60)); got != "0 20 s 40 s 60 s" {
		t.Errorf("one minute: %q", got)
	}
	// Long runs are ticked in whole minutes.
	if got := tickLabels(timeAxis(3600)); got != "0 10 min 20 min 30 min 40 min 50 min 60 min" {
		t.Errorf("one hour: %q", got)
	}
}

func TestLatencyAxis(t *testing.T) {
	t.Parallel()
	if a := latencyAxis(200, 900); a.kind != linearAxis || a.lo != 0 {
		t.Errorf("narrow latencies: kind %d from %g, want linear from 0", a.kind, a.lo)
	}
	if a := latencyAxis(200, 90000); a.kind != logAxis {
		t.Errorf("latencies spanning 450×: kind %d, want log", a.kind)
	}
}

// FuzzNiceTicks checks that any domain gives a bounded, increasing set of
// ticks covering it: the axis code must never loop, panic or draw nothing.
func FuzzNiceTicks(f *testing.F) {
	f.Add(0.0, 97.0)
	f.Add(1e300, math.MaxFloat64)
	f.Add(-5e-324, 5e-324)
	f.Add(1e9, 1e9+1e-7)
	f.Fuzz(func(t *testing.T, lo, hi float64) {
		ticks, nlo, nhi := niceTicks(lo, hi, 5)
		if len(ticks) < 2 || len(ticks) > maxTicks+1 {
			t.Fatalf("niceTicks(%g, %g): %d ticks", lo, hi, len(ticks))
		}
		for i := 1; i < len(ticks); i++ {
			if !(ticks[i] > ticks[i-1]) {
				t.Fatalf("niceTicks(%g, %g): ticks not increasing: %v", lo, hi, ticks)
			}
		}
		if isFinite(lo) && isFinite(hi) && isFinite(nhi-nlo) {
			// Within rounding: a value a billionth of the range (or a
			// few ulps of its magnitude) outside is drawn on the frame,
			// which is where it belongs.
			tol := math.Max((nhi-nlo)*1e-9, math.Max(math.Abs(lo), math.Abs(hi))*1e-12)
			if nlo > math.Min(lo, hi)+tol || nhi < math.Max(lo, hi)-tol {
				t.Fatalf("niceTicks(%g, %g): domain [%g, %g] does not cover the input", lo, hi, nlo, nhi)
			}
		}
		a := newLogAxis(math.Abs(lo), math.Abs(hi), formatCompact)
		if len(a.ticks) == 0 || len(a.ticks) > maxTicks || !(a.lo > 0) || !(a.hi > a.lo) {
			t.Fatalf("newLogAxis(%g, %g): %d ticks, domain [%g, %g]", math.Abs(lo), math.Abs(hi), len(a.ticks), a.lo, a.hi)
		}
	})
}

func TestBytesAxis(t *testing.T) {
	t.Parallel()
	a := newBytesAxis(3.2*(1<<30), formatBytes)
	if got, want := tickLabels(a), "0 B 1 GiB 2 GiB 3 GiB 4 GiB"; got != want {
		t.Errorf("ticks %q, want %q", got, want)
	}
	if got, want := tickLabels(newBytesAxis(700, formatBytes)), "0 B 200 B 400 B 600 B 800 B"; got != want {
		t.Errorf("small sizes: ticks %q, want %q", got, want)
	}
}

// TestFormatSecondsTick: a time is labelled to four significant digits,
// so that a mean of runs carries no float noise, and round ticks stay as
// they are.
func TestFormatSecondsTick(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0"}, {0.5, "0.5 s"}, {1, "1 s"}, {2.5, "2.5 s"}, {30, "30 s"}, {600, "600 s"},
		{0.46099999999999997, "0.461 s"}, {0.2095, "0.2095 s"}, {0.20954, "0.2095 s"},
		{12345.6, "12350 s"}, {0.000123456, "0.0001235 s"},
	} {
		if got := formatSecondsTick(tc.in); got != tc.want {
			t.Errorf("formatSecondsTick(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
