package report

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Captions state in one sentence what a chart shows, computed from the
// numbers it plots, so that a reader who only skims the captions still gets
// the findings.

// tsPoint is one value of a time series at t seconds from the start.
type tsPoint struct{ t, v float64 }

// throughputCaption describes the throughput of a run over time.
func throughputCaption(pts []tsPoint) string {
	vs := finiteValues(pts)
	if len(vs) == 0 {
		return "No status interval was recorded, so there is no throughput over time to show."
	}
	dur := pts[len(pts)-1].t
	mean, sd := meanSD(vs)
	if mean <= 0 {
		return "No operation completed in any status interval over " + formatSeconds(dur) + "."
	}
	cv := sd / mean
	if len(vs) == 1 || cv <= 0.10 {
		return "Throughput held at " + formatRate(mean) + " ± " + formatPct(cv) + " for " + formatSeconds(dur) + "."
	}
	if len(vs) >= 6 {
		third := len(vs) / 3
		first, _ := meanSD(vs[:third])
		last, _ := meanSD(vs[len(vs)-third:])
		if first > 0 && last/first >= 1.25 {
			return "Throughput rose from " + formatRate(first) + " in the first third of the run to " + formatRate(last) + " in the last, over " + formatSeconds(dur) + "."
		}
		if first > 0 && last/first <= 0.8 {
			return "Throughput fell from " + formatRate(first) + " in the first third of the run to " + formatRate(last) + " in the last, over " + formatSeconds(dur) + "."
		}
	}
	lo, hi := slices.Min(vs), slices.Max(vs)
	var tLo float64
	for _, p := range pts {
		if p.v == lo {
			tLo = p.t
			break
		}
	}
	return "Throughput varied between " + formatNum(lo) + " and " + formatRate(hi) + " (mean " + formatNum(mean) + ", ± " + formatPct(cv) +
		") over " + formatSeconds(dur) + ", lowest at " + formatSeconds(tLo) + "."
}

// latencyTimeCaption describes the latency of one operation over time from
// its p50 and p99 series.
func latencyTimeCaption(op string, p50, p99 []tsPoint) string {
	vs := finiteValues(p99)
	if len(vs) == 0 {
		return "No " + op + " latency percentiles were recorded per interval."
	}
	dur := p99[len(p99)-1].t
	typical := median(vs)
	peak, tPeak := math.Inf(-1), 0.0
	for _, p := range p99 {
		if isFinite(p.v) && p.v > peak {
			peak, tPeak = p.v, p.t
		}
	}
	if len(vs) >= 3 && typical > 0 && peak >= 3*typical {
		return op + " p99 spiked to " + formatLatency(peak) + " at " + formatSeconds(tPeak) + ", " + formatFactor(peak/typical) +
			" its typical " + formatLatency(typical) + "."
	}
	s := op + " p99 stayed between " + formatLatency(slices.Min(vs)) + " and " + formatLatency(peak) + " over " + formatSeconds(dur)
	if formatLatency(slices.Min(vs)) == formatLatency(peak) {
		s = op + " p99 held at " + formatLatency(peak) + " over " + formatSeconds(dur)
	}
	if m := finiteValues(p50); len(m) > 0 {
		s += ", with p50 around " + formatLatency(median(m))
	}
	return s + "."
}

// spectrumLine holds the figures of one operation's percentile spectrum.
type spectrumLine struct {
	name                 string
	count                int64
	p50, p99, p999, maxV float64
}

// spectrumCaption names the operation with the longest tail relative to
// its median and how long that tail is.
func spectrumCaption(lines []spectrumLine) string {
	best, bestRatio := -1, -1.0
	for i, l := range lines {
		if l.count == 0 || l.p50 <= 0 {
			continue
		}
		if r := tailOf(l) / l.p50; r > bestRatio {
			best, bestRatio = i, r
		}
	}
	if best < 0 {
		return "No latency was recorded, so there is no percentile spectrum to show."
	}
	l := lines[best]
	oneIn, tailName := "1 in 1,000", "p99.9"
	if l.count < 1000 {
		oneIn, tailName = "1 in 100", "p99"
	}
	lead := "Half of " + l.name + " operations took at most " + formatLatency(l.p50)
	if len(lines) > 1 {
		lead = l.name + " has the longest tail: half took at most " + formatLatency(l.p50)
	}
	return lead + ", but " + oneIn + " took " + formatLatency(tailOf(l)) + " or more (" + tailName + ", " +
		formatFactor(bestRatio) + " the median), and the slowest took " + formatLatency(l.maxV) + "."
}

// tailOf is the tail percentile a spectrum caption quotes: p99.9 when there
// are enough operations for it to mean something, p99 otherwise.
func tailOf(l spectrumLine) float64 {
	if l.count < 1000 {
		return l.p99
	}
	return l.p999
}

// sweepWords names the values of a sweep's varied setting in sentences.
type sweepWords struct{ varied string }

// at names one value: "8 threads", "1 thread", "recordcount 2,000,000".
func (s sweepWords) at(x float64) string {
	switch s.varied {
	case "threadcount", "threads":
		if x == 1 {
			return "1 thread"
		}
		return formatX(x) + " threads"
	case "target":
		return "a target of " + formatRate(x)
	}
	return s.varied + " " + formatX(x)
}

// span names a range: "from 8 to 64 threads", "from recordcount 2,000,000
// to 5,000,000".
func (s sweepWords) span(a, b float64) string {
	switch s.varied {
	case "threadcount", "threads":
		return "from " + formatX(a) + " to " + formatX(b) + " threads"
	case "target":
		return "from a target of " + formatX(a) + " to " + formatRate(b)
	}
	return "from " + s.varied + " " + formatX(a) + " to " + formatX(b)
}

// axisLabel is the title of the varied setting's axis.
func (s sweepWords) axisLabel() string {
	switch s.varied {
	case "threadcount", "threads":
		return "client threads"
	case "target":
		return "target (ops/s)"
	}
	return s.varied
}

// sweepThroughputCaption describes throughput across a sweep whose points
// are sorted by X.
func sweepThroughputCaption(w sweepWords, pts []SweepPoint) string {
	switch len(pts) {
	case 0:
		return "The sweep has no points."
	case 1:
		return "The sweep has a single point: " + formatRate(pts[0].Throughput) + " at " + w.at(pts[0].X) + "."
	}
	peak := 0
	for i, p := range pts {
		if p.Throughput > pts[peak].Throughput {
			peak = i
		}
	}
	first, last, top := pts[0], pts[len(pts)-1], pts[peak]
	if peak == 0 {
		s := "Throughput was highest at " + w.at(first.X) + " (" + formatRate(first.Throughput) + ") and fell to " +
			formatRate(last.Throughput) + " at " + w.at(last.X)
		if overlap(first.ThroughputLo, first.ThroughputHi, last.ThroughputLo, last.ThroughputHi) {
			s += withinNoise
		}
		return s + "."
	}
	s := "Throughput peaked at " + formatRate(top.Throughput) + " at " + w.at(top.X)
	if first.Throughput > 0 {
		s += ", " + formatFactor(top.Throughput/first.Throughput) + " the " + formatRate(first.Throughput) + " of " + w.at(first.X)
	}
	if peak < len(pts)-1 && last.Throughput < 0.95*top.Throughput {
		s += ", then fell to " + formatRate(last.Throughput) + " at " + w.at(last.X)
	}
	if overlap(top.ThroughputLo, top.ThroughputHi, first.ThroughputLo, first.ThroughputHi) {
		s += withinNoise
	}
	return s + "."
}

// withinNoise qualifies a caption's change that the trials cannot tell
// from noise: a chart must not state it as a finding.
const withinNoise = ", but the 95% intervals overlap: the change is within the noise"

// overlap says whether two 95% intervals are both known (from repeated
// trials) and overlap.
func overlap(aLo, aHi, bLo, bHi float64) bool {
	if !(aHi > aLo) || !(bHi > bLo) {
		return false
	}
	return aLo <= bHi && bLo <= aHi
}

// sweepLatencyCaption describes what p99 did from the knee (or the first
// point, without one) to the last point, against what throughput gained:
// "p99 rose 3.2× from 8 to 64 threads while throughput grew 6%".
func sweepLatencyCaption(w sweepWords, pts []SweepPoint, knee *KneeMark) string {
	if len(pts) < 2 {
		if len(pts) == 1 {
			return "The sweep has a single point: p99 " + formatLatency(pts[0].P99us) + " at " + w.at(pts[0].X) + "."
		}
		return "The sweep has no points."
	}
	from, to := pts[0], pts[len(pts)-1]
	if knee != nil && knee.X < to.X {
		from = SweepPoint{X: knee.X, Throughput: knee.Throughput, P99us: knee.P99us}
		for _, p := range pts {
			if p.X == knee.X {
				from = p // with its intervals
			}
		}
	}
	if !(from.P99us > 0) || !(from.Throughput > 0) {
		return "p99 went from " + formatLatency(from.P99us) + " to " + formatLatency(to.P99us) + " " + w.span(from.X, to.X) + "."
	}
	f := to.P99us / from.P99us
	var lat string
	switch {
	case f >= 1.05:
		lat = "p99 rose " + formatFactor(f)
	case f <= 1/1.05:
		lat = "p99 fell " + formatPct(1-f)
	default:
		lat = "p99 stayed within 5%"
	}
	latNoise := ""
	if lat != "p99 stayed within 5%" && overlap(from.P99Lo, from.P99Hi, to.P99Lo, to.P99Hi) {
		latNoise = " (within the noise: the 95% intervals overlap)"
	}
	g := to.Throughput/from.Throughput - 1
	var tp string
	switch {
	case g >= 0.005:
		tp = "throughput grew " + formatPct(g)
	case g <= -0.005:
		tp = "throughput fell " + formatPct(g)
	default:
		tp = "throughput did not change"
	}
	if tp != "throughput did not change" && overlap(from.ThroughputLo, from.ThroughputHi, to.ThroughputLo, to.ThroughputHi) {
		tp += " (within the noise)"
	}
	return lat + " " + w.span(from.X, to.X) + latNoise + " while " + tp + "."
}

// sweepOpCaption names the operation whose p99 grew most across the sweep.
func sweepOpCaption(w sweepWords, pts []SweepPoint, ops []string) string {
	if len(pts) < 2 || len(ops) == 0 {
		return "Average and p99 latency of each operation at each point of the sweep."
	}
	first, last := pts[0], pts[len(pts)-1]
	best, bestF := "", 0.0
	for _, op := range ops {
		a, b := first.PerOp[op].P99us, last.PerOp[op].P99us
		if a > 0 && b > 0 && b/a > bestF {
			best, bestF = op, b/a
		}
	}
	if best == "" {
		return "Average and p99 latency of each operation at each point of the sweep."
	}
	verb := "grew"
	if len(ops) > 1 {
		verb = "grew the most"
	}
	if bestF < 1 {
		verb = "fell"
		if len(ops) > 1 {
			verb = "fell the least"
		}
	}
	fa, fb := first.PerOp[best], last.PerOp[best]
	noise := ""
	if overlap(fa.P99Lo, fa.P99Hi, fb.P99Lo, fb.P99Hi) {
		noise = withinNoise
	}
	return best + " p99 " + verb + ", " + formatFactor(bestF) + " " + w.span(first.X, last.X) + " (from " + formatLatency(fa.P99us) +
		" to " + formatLatency(fb.P99us) + "; average from " + formatLatency(fa.AvgUs) + " to " + formatLatency(fb.AvgUs) + ")" + noise + "."
}

// figureName names a comparison row's figure in a sentence: "READ p99",
// "throughput", "READ average latency".
func figureName(r CompareRow) string {
	fig := r.Figure
	switch strings.ToLower(fig) {
	case "avg", "mean", "average":
		fig = "average latency"
	}
	if r.Op == "" || strings.EqualFold(r.Op, "OVERALL") {
		return fig
	}
	return r.Op + " " + fig
}

// isRate reports whether a comparison row is a throughput (ops/s) rather
// than a latency (µs).
func isRate(r CompareRow) bool {
	f := strings.ToLower(r.Figure)
	return strings.Contains(f, "throughput") || strings.Contains(f, "ops")
}

// compareSentence states one comparison row: "B's READ p99 is 31% lower
// than A's (significant, p=0.003)".
func compareSentence(a, b string, r CompareRow) string {
	name := figureName(r)
	var diff string
	switch {
	case !isFinite(r.RelDiff):
		return b + "'s " + name + " cannot be compared with " + a + "'s: no verdict is possible."
	case math.Abs(r.RelDiff) < 0.0005:
		diff = b + "'s " + name + " is the same as " + a + "'s"
	case r.RelDiff > 0:
		diff = b + "'s " + name + " is " + formatPct(r.RelDiff) + " higher than " + a + "'s"
	default:
		diff = b + "'s " + name + " is " + formatPct(r.RelDiff) + " lower than " + a + "'s"
	}
	var q string
	switch {
	case r.Significant:
		q = "significant"
	case r.P > 0:
		q = "not significant"
	case r.Verdict != "":
		// No test was made: the verdict says why.
		return diff + " (" + r.Verdict + ")."
	default:
		return diff + " (no significance test)."
	}
	if r.P > 0 && r.P < 1 {
		q += ", p=" + formatP(r.P)
	}
	return diff + " (" + q + ")."
}

// formatP formats a p-value with two significant digits: "0.003", "0.41",
// "<0.001".
func formatP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// compareCaption picks the row a comparison chart is about: the largest
// significant difference. A difference the test cannot tell from noise is
// never the headline, however large: when none is significant the caption
// says so.
func compareCaption(a, b string, rows []CompareRow) string {
	if len(rows) == 0 {
		return "Nothing to compare."
	}
	best, tested := -1, 0
	for i, r := range rows {
		if r.P > 0 || r.Significant {
			tested++
		}
		if !r.Significant || !isFinite(r.RelDiff) {
			continue
		}
		if best < 0 || math.Abs(r.RelDiff) > math.Abs(rows[best].RelDiff) {
			best = i
		}
	}
	switch {
	case best >= 0:
		return compareSentence(a, b, rows[best])
	case tested == 0:
		return "No verdict: a single run on a side cannot be tested; repeat the runs to compare " + b + " with " + a + "."
	case len(rows) == 1:
		return "No significant difference between " + b + " and " + a + " in " + figureName(rows[0]) + "."
	}
	return "No significant difference between " + b + " and " + a + " in any of these " + formatInt(int64(len(rows))) + " figures."
}

// verdictWord is the short verdict under a group of bars ("31% better",
// "not significant", or "no verdict" when no test was made) and its
// colour.
func verdictWord(r CompareRow) (string, string) {
	switch {
	case !r.Significant && !(r.P > 0):
		return "no verdict", colorNeutral
	case !r.Significant || !isFinite(r.RelDiff):
		return "not significant", colorNeutral
	}
	better := (r.RelDiff > 0) == r.HigherIsBetter
	if better {
		return formatPct(r.RelDiff) + " better", colorBetter
	}
	return formatPct(r.RelDiff) + " worse", colorWorse
}

// metricsCaption describes a chart of server or host metrics by its
// highest series: its mean and its peak, or its level when it hardly moved.
func metricsCaption(prefix string, ss []metricSeries, unit string) string {
	best, bestMean := -1, math.Inf(-1)
	for i, s := range ss {
		vs := finiteValues(s.points)
		if len(vs) == 0 {
			continue
		}
		if m, _ := meanSD(vs); m > bestMean {
			best, bestMean = i, m
		}
	}
	if best < 0 {
		return "No " + orDefault(prefix, "metric") + " value was reported."
	}
	s := ss[best]
	peak, tPeak, low, end := math.Inf(-1), 0.0, math.Inf(1), 0.0
	for _, p := range s.points {
		end = math.Max(end, p.t)
		if !isFinite(p.v) {
			continue
		}
		low = math.Min(low, p.v)
		if p.v > peak {
			peak, tPeak = p.v, p.t
		}
	}
	name := strings.TrimSpace(prefix + " " + s.name)
	if len(ss) > 1 {
		name += ", the highest here,"
	}
	if peak-low <= 0.05*math.Abs(bestMean) {
		return name + " held at about " + formatUnit(bestMean, unit) + " over " + formatSeconds(end) + "."
	}
	return name + " averaged " + formatUnit(bestMean, unit) + " and peaked at " + formatUnit(peak, unit) + " at " + formatSeconds(tPeak) + "."
}

// formatUnit formats a metric with its unit.
func formatUnit(v float64, unit string) string {
	switch unit {
	case "%":
		return formatNum(v) + "%"
	case "µs":
		return formatLatency(v)
	case "ms":
		return formatLatency(v * 1000)
	case "bytes":
		return formatBytes(v)
	case "bytes/s":
		return formatBytes(v) + "/s"
	case "/s":
		return formatNum(v) + "/s"
	case "", "ratio":
		return formatNum(v)
	}
	return formatNum(v) + " " + unit
}

// formatBytes formats a size in binary units: "512 B", "1.5 GiB".
func formatBytes(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for math.Abs(v) >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return sig3(v) + " " + units[i]
}

func finiteValues(pts []tsPoint) []float64 {
	vs := make([]float64, 0, len(pts))
	for _, p := range pts {
		if isFinite(p.v) {
			vs = append(vs, p.v)
		}
	}
	return vs
}

func meanSD(vs []float64) (mean, sd float64) {
	if len(vs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	if len(vs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range vs {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(vs)-1))
}

func median(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
