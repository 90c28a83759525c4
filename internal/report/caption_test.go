package report

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"group small", groupDigits("999"), "999"},
		{"group", groupDigits("1234567.25"), "1,234,567.25"},
		{"group negative", groupDigits("-1234"), "-1,234"},
		{"int", formatInt(196890), "196,890"},
		{"num large", formatNum(3050.4), "3,050"},
		{"num tens", formatNum(42.54), "42.5"},
		{"num units", formatNum(3.0), "3"},
		{"num small", formatNum(0.97345), "0.973"},
		{"num tiny", formatNum(0.0000123), "0.0000123"},
		{"num NaN", formatNum(math.NaN()), "–"},
		{"compact", formatCompact(1500), "1.5k"},
		{"compact tens of k", formatCompact(25000), "25k"},
		{"compact M", formatCompact(3e6), "3M"},
		{"latency µs", formatLatency(850), "850 µs"},
		{"latency ms", formatLatency(3140), "3.14 ms"},
		{"latency tens of ms", formatLatency(31400), "31.4 ms"},
		{"latency s", formatLatency(1_250_000), "1.25 s"},
		{"latency thousands of s", formatLatency(3_600_000_000), "3,600 s"},
		{"pct", formatPct(0.031), "3.1%"},
		{"pct large", formatPct(-0.31), "31%"},
		{"pct tiny", formatPct(0.0004), "0.04%"},
		{"factor", formatFactor(3.21), "3.2×"},
		{"factor large", formatFactor(12.4), "12×"},
		{"seconds short", formatSeconds(6.26), "6.3 s"},
		{"seconds", formatSeconds(60), "60 s"},
		{"minutes", formatSeconds(150), "2 min 30 s"},
		{"hours", formatSeconds(3900), "65 min"},
		{"long hours", formatSeconds(4 * 3600), "4 h"},
		{"x whole", formatX(1e6), "1,000,000"},
		{"x fraction", formatX(0.95), "0.95"},
		{"bytes", formatBytes(1.5 * (1 << 30)), "1.5 GiB"},
		{"p", formatP(0.0031), "0.0031"},
		{"p tiny", formatP(0.00001), "<0.001"},
		{"percentile", formatPercentile(99.9), "99.9"},
		{"percentile body", formatPercentile(36.904265551980675), "36.9"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// series of n points every second with values from f.
func ts(n int, f func(i int) float64) []tsPoint {
	pts := make([]tsPoint, n)
	for i := range pts {
		pts[i] = tsPoint{t: float64(i + 1), v: f(i)}
	}
	return pts
}

func TestThroughputCaption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		pts  []tsPoint
		want string
	}{
		{"steady", ts(60, func(i int) float64 { return 3050 + float64(i%3-1)*150 }),
			"Throughput held at 3,050 ops/s ± 4% for 60 s."},
		{"rising", ts(30, func(i int) float64 { return 1000 + 100*float64(i) }),
			"Throughput rose from 1,450 ops/s in the first third of the run to 3,450 ops/s in the last, over 30 s."},
		{"falling", ts(30, func(i int) float64 { return 4000 - 100*float64(i) }),
			"Throughput fell from 3,550 ops/s in the first third of the run to 1,550 ops/s in the last, over 30 s."},
		{"one dip", ts(20, func(i int) float64 {
			if i == 12 {
				return 100
			}
			return 400
		}), "Throughput varied between 100 and 400 ops/s (mean 385, ± 17%) over 20 s, lowest at 13 s."},
		{"idle", ts(5, func(int) float64 { return 0 }), "No operation completed in any status interval over 5 s."},
		{"none", nil, "No status interval was recorded, so there is no throughput over time to show."},
	} {
		if got := throughputCaption(tc.pts); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestLatencyTimeCaption(t *testing.T) {
	t.Parallel()
	flat := ts(10, func(int) float64 { return 500 })
	for _, tc := range []struct {
		name     string
		p50, p99 []tsPoint
		want     string
	}{
		{"spike", flat, ts(10, func(i int) float64 {
			if i == 6 {
				return 45000
			}
			return 3600
		}), "READ p99 spiked to 45 ms at 7 s, 13× its typical 3.6 ms."},
		{"stable", flat, ts(10, func(i int) float64 { return 900 + 30*float64(i) }),
			"READ p99 stayed between 900 µs and 1.17 ms over 10 s, with p50 around 500 µs."},
		{"constant", flat, ts(10, func(int) float64 { return 899 }),
			"READ p99 held at 899 µs over 10 s, with p50 around 500 µs."},
		{"none", nil, nil, "No READ latency percentiles were recorded per interval."},
	} {
		if got := latencyTimeCaption("READ", tc.p50, tc.p99); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestSpectrumCaption(t *testing.T) {
	t.Parallel()
	read := spectrumLine{name: "READ", count: 100000, p50: 310, p99: 2000, p999: 9500, maxV: 95000}
	update := spectrumLine{name: "UPDATE", count: 5000, p50: 800, p99: 3000, p999: 4000, maxV: 6000}
	few := spectrumLine{name: "SCAN", count: 50, p50: 1000, p99: 8000, p999: 8000, maxV: 8000}
	for _, tc := range []struct {
		name  string
		lines []spectrumLine
		want  string
	}{
		{"one op", []spectrumLine{read},
			"Half of READ operations took at most 310 µs, but 1 in 1,000 took 9.5 ms or more (p99.9, 31× the median), and the slowest took 95 ms."},
		{"longest tail wins", []spectrumLine{update, read},
			"READ has the longest tail: half took at most 310 µs, but 1 in 1,000 took 9.5 ms or more (p99.9, 31× the median), and the slowest took 95 ms."},
		// Under a thousand operations, p99.9 is the maximum: quote p99.
		{"few operations", []spectrumLine{few},
			"Half of SCAN operations took at most 1 ms, but 1 in 100 took 8 ms or more (p99, 8× the median), and the slowest took 8 ms."},
		{"nothing", nil, "No latency was recorded, so there is no percentile spectrum to show."},
	} {
		if got := spectrumCaption(tc.lines); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestSweepCaptions(t *testing.T) {
	t.Parallel()
	threads := sweepWords{varied: "threadcount"}
	pts := []SweepPoint{
		{X: 1, Throughput: 800, P99us: 1000},
		{X: 8, Throughput: 5000, P99us: 2500},
		{X: 64, Throughput: 5300, P99us: 8000},
	}
	knee := &KneeMark{X: 8, Throughput: 5000, P99us: 2500}
	falling := []SweepPoint{{X: 1, Throughput: 800, P99us: 1000}, {X: 100, Throughput: 23628, P99us: 4000}, {X: 300, Throughput: 12336, P99us: 10000}}
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		// The sentence of the issue: from the knee to the end.
		{"latency from knee", sweepLatencyCaption(threads, pts, knee),
			"p99 rose 3.2× from 8 to 64 threads while throughput grew 6%."},
		// Without a knee: from the first point to the last.
		{"latency without knee", sweepLatencyCaption(threads, pts, nil),
			"p99 rose 8× from 1 to 64 threads while throughput grew 563%."},
		{"latency while throughput fell", sweepLatencyCaption(threads, falling, &KneeMark{X: 100, Throughput: 23628, P99us: 4000}),
			"p99 rose 2.5× from 100 to 300 threads while throughput fell 48%."},
		{"throughput", sweepThroughputCaption(threads, pts),
			"Throughput peaked at 5,300 ops/s at 64 threads, 6.6× the 800 ops/s of 1 thread."},
		{"throughput falls after peak", sweepThroughputCaption(threads, falling),
			"Throughput peaked at 23,628 ops/s at 100 threads, 30× the 800 ops/s of 1 thread, then fell to 12,336 ops/s at 300 threads."},
		{"other setting", sweepThroughputCaption(sweepWords{varied: "recordcount"}, []SweepPoint{{X: 2e6, Throughput: 900}, {X: 5e6, Throughput: 300}}),
			"Throughput was highest at recordcount 2,000,000 (900 ops/s) and fell to 300 ops/s at recordcount 5,000,000."},
		// Changes the trials' intervals cannot tell from noise are said
		// to be so; intervals apart, or unknown (one trial), are not.
		{"throughput within noise", sweepThroughputCaption(sweepWords{varied: "recordcount"}, []SweepPoint{
			{X: 300, Throughput: 934, ThroughputLo: 0, ThroughputHi: 4000}, {X: 4800, Throughput: 1272, ThroughputLo: 500, ThroughputHi: 2050}}),
			"Throughput peaked at 1,272 ops/s at recordcount 4,800, 1.4× the 934 ops/s of recordcount 300, but the 95% intervals overlap: the change is within the noise."},
		{"throughput fell within noise", sweepThroughputCaption(sweepWords{varied: "recordcount"}, []SweepPoint{
			{X: 1, Throughput: 900, ThroughputLo: 700, ThroughputHi: 1100}, {X: 2, Throughput: 800, ThroughputLo: 600, ThroughputHi: 1000}}),
			"Throughput was highest at recordcount 1 (900 ops/s) and fell to 800 ops/s at recordcount 2, but the 95% intervals overlap: the change is within the noise."},
		{"throughput apart", sweepThroughputCaption(threads, []SweepPoint{
			{X: 1, Throughput: 800, ThroughputLo: 780, ThroughputHi: 820}, {X: 8, Throughput: 5000, ThroughputLo: 4900, ThroughputHi: 5100}}),
			"Throughput peaked at 5,000 ops/s at 8 threads, 6.2× the 800 ops/s of 1 thread."},
		{"latency within noise", sweepLatencyCaption(threads, []SweepPoint{
			{X: 1, Throughput: 800, ThroughputLo: 700, ThroughputHi: 900, P99us: 1000, P99Lo: 500, P99Hi: 1500},
			{X: 8, Throughput: 850, ThroughputLo: 750, ThroughputHi: 950, P99us: 1300, P99Lo: 900, P99Hi: 1700}}, nil),
			"p99 rose 1.3× from 1 to 8 threads (within the noise: the 95% intervals overlap) while throughput grew 6.2% (within the noise)."},
		{"latency from knee uses the knee point's intervals", sweepLatencyCaption(threads, []SweepPoint{
			{X: 1, Throughput: 800, P99us: 1000},
			{X: 8, Throughput: 5000, ThroughputLo: 4000, ThroughputHi: 6000, P99us: 2500, P99Lo: 2400, P99Hi: 2600},
			{X: 64, Throughput: 5300, ThroughputLo: 4500, ThroughputHi: 6100, P99us: 8000, P99Lo: 7000, P99Hi: 9000}}, knee),
			"p99 rose 3.2× from 8 to 64 threads while throughput grew 6% (within the noise)."},
		{"per op within noise", sweepOpCaption(threads, []SweepPoint{
			{X: 1, PerOp: map[string]OpFigures{"READ": {AvgUs: 478, P99us: 1554, P99Lo: 1520, P99Hi: 1588}}},
			{X: 16, PerOp: map[string]OpFigures{"READ": {AvgUs: 4203, P99us: 11063, P99Lo: 0, P99Hi: 26100}}},
		}, []string{"READ"}),
			"READ p99 grew, 7.1× from 1 to 16 threads (from 1.55 ms to 11.1 ms; average from 478 µs to 4.2 ms), but the 95% intervals overlap: the change is within the noise."},
		{"per op", sweepOpCaption(threads, []SweepPoint{
			{X: 1, PerOp: map[string]OpFigures{"READ": {AvgUs: 300, P99us: 1000}, "INSERT": {AvgUs: 400, P99us: 1200}}},
			{X: 300, PerOp: map[string]OpFigures{"READ": {AvgUs: 10000, P99us: 40000}, "INSERT": {AvgUs: 8000, P99us: 20000}}},
		}, []string{"READ", "INSERT"}),
			"READ p99 grew the most, 40× from 1 to 300 threads (from 1 ms to 40 ms; average from 300 µs to 10 ms)."},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestCompareCaptions(t *testing.T) {
	t.Parallel()
	p99 := CompareRow{Op: "READ", Figure: "p99", A: 6000, B: 4140, RelDiff: -0.31, Significant: true, P: 0.003}
	tput := CompareRow{Op: "OVERALL", Figure: "throughput", A: 2000, B: 2120, RelDiff: 0.06, HigherIsBetter: true, P: 0.12}
	avg := CompareRow{Op: "UPDATE", Figure: "avg", A: 900, B: 1000, RelDiff: 0.111, Significant: true}
	same := CompareRow{Op: "READ", Figure: "p50", A: 500, B: 500, RelDiff: 0, P: 1}
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"significant", compareSentence("A", "B", p99), "B's READ p99 is 31% lower than A's (significant, p=0.003)."},
		{"not significant", compareSentence("2.6", "3.0", tput), "3.0's throughput is 6% higher than 2.6's (not significant, p=0.12)."},
		{"no p-value", compareSentence("A", "B", avg), "B's UPDATE average latency is 11% higher than A's (significant)."},
		{"same", compareSentence("A", "B", same), "B's READ p50 is the same as A's (not significant)."},
		// Without a test, the verdict says why rather than "not significant".
		{"no test", compareSentence("A", "B", CompareRow{Op: "READ", Figure: "p99", RelDiff: 0.1, Verdict: "no verdict possible: single run per side"}),
			"B's READ p99 is 10% higher than A's (no verdict possible: single run per side)."},
		{"no test, no verdict", compareSentence("A", "B", CompareRow{Op: "READ", Figure: "p99", RelDiff: 0.1}),
			"B's READ p99 is 10% higher than A's (no significance test)."},
		{"no relative difference", compareSentence("A", "B", CompareRow{Op: "READ", Figure: "p99", RelDiff: math.NaN()}),
			"B's READ p99 cannot be compared with A's: no verdict is possible."},
		// The chart's caption is about its largest significant difference.
		{"chart picks significant", compareCaption("A", "B", []CompareRow{tput, p99, avg}), "B's READ p99 is 31% lower than A's (significant, p=0.003)."},
		// A change the test cannot tell from noise is never the headline.
		{"chart without significance", compareCaption("A", "B", []CompareRow{same, tput}), "No significant difference between B and A in any of these 2 figures."},
		{"one figure without significance", compareCaption("A", "B", []CompareRow{tput}), "No significant difference between B and A in throughput."},
		{"chart without a test", compareCaption("A", "B", []CompareRow{{Figure: "throughput", RelDiff: 2.48}}), "No verdict: a single run on a side cannot be tested; repeat the runs to compare B with A."},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		row       CompareRow
		word, col string
	}{
		// Lower latency is better; higher throughput is better.
		{p99, "31% better", colorBetter},
		{avg, "11% worse", colorWorse},
		{tput, "not significant", colorNeutral},
		{CompareRow{RelDiff: -0.2, Significant: true, HigherIsBetter: true}, "20% worse", colorWorse},
		{CompareRow{RelDiff: -0.2, HigherIsBetter: true}, "no verdict", colorNeutral},
	} {
		if w, c := verdictWord(tc.row); w != tc.word || c != tc.col {
			t.Errorf("verdictWord(%+v) = %q %s, want %q %s", tc.row, w, c, tc.word, tc.col)
		}
	}
}

func TestMetricsCaption(t *testing.T) {
	t.Parallel()
	cpu := []metricSeries{
		{name: "user", points: ts(10, func(i int) float64 { return 40 + float64(i) })},
		{name: "system", points: ts(10, func(int) float64 { return 10 })},
	}
	// The chart names its group and series in words before the caption.
	if got, want := metricsCaption("Host CPU", cpu, "%"), "Host CPU user, the highest here, averaged 44.5% and peaked at 49% at 10 s."; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	flat := []metricSeries{{name: "used", points: ts(10, func(int) float64 { return 3 << 30 })}}
	if got, want := metricsCaption("Host memory", flat, "bytes"), "Host memory used held at about 3 GiB over 10 s."; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	empty := []metricSeries{{name: "hit_ratio", points: ts(3, func(int) float64 { return math.NaN() })}}
	if got, want := metricsCaption("cache", empty, "ratio"), "No cache value was reported."; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
