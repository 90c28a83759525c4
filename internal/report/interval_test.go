package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// TestChartedIntervals: only a last interval that is a sliver of the one
// before it is left out of the charts over time.
func TestChartedIntervals(t *testing.T) {
	t.Parallel()
	ivs := func(ends ...float64) []results.IntervalResult {
		var out []results.IntervalResult
		start := 0.0
		for _, e := range ends {
			out = append(out, results.IntervalResult{StartS: start, EndS: e})
			start = e
		}
		return out
	}
	for _, tc := range []struct {
		name string
		in   []results.IntervalResult
		keep int
		cut  float64
	}{
		{"none", nil, 0, 0},
		{"one short interval", ivs(0.01), 1, 0},
		{"the stop's 8 ms", ivs(1, 2, 2.008), 2, 0.008},
		{"a last half interval", ivs(1, 2, 2.5), 3, 0},
		{"a sliver inside", ivs(1, 1.01, 2), 3, 0},
	} {
		got, cut := chartedIntervals(tc.in)
		if len(got) != tc.keep || cut < tc.cut-1e-9 || cut > tc.cut+1e-9 {
			t.Errorf("%s: kept %d intervals, cut %g s; want %d and %g s", tc.name, len(got), cut, tc.keep, tc.cut)
		}
	}
}

// realRun reads testdata/real-run.json, the results file of a real run
// (see TestChromium for how it was made).
func realRun(t *testing.T) *results.Results {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "real-run.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := results.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if res.Extra == nil || len(res.Extra.HostMetrics) == 0 {
		t.Fatal("testdata/real-run.json has no host metrics")
	}
	return res
}

// TestRealRunThroughput: the real run of testdata ends with an 8 ms
// interval without operations, which once made its throughput "fall" and
// drew a cliff to 0 at the end of the chart.
func TestRealRunThroughput(t *testing.T) {
	t.Parallel()
	res := realRun(t)
	last := res.Intervals[len(res.Intervals)-1]
	if last.EndS-last.StartS > 0.05 || last.Operations != 0 {
		t.Fatalf("testdata/real-run.json no longer ends with the stop's sliver: %+v", last)
	}
	fig, ok := throughputFigure("run-1", res)
	if !ok {
		t.Fatal("no throughput figure")
	}
	if strings.Contains(fig.Sentence, "fell") || !strings.Contains(fig.Note, "left out") {
		t.Errorf("caption %q, note %q: want no fall and the sliver's leaving out said", fig.Sentence, fig.Note)
	}
	if svg := string(fig.SVG); strings.Contains(svg, `text-anchor="middle">8 s</text>`) || strings.Contains(svg, formatSeconds(last.EndS)+": 0 ops/s") {
		t.Errorf("the chart still reaches past the run or plots the sliver:\n%.600s", svg)
	}

	// Its host metrics end with a sample 11 ms after the one before, whose
	// rates (system CPU 100%, disk utilisation 0%) are the stop's.
	mv := metricsSection("run-1-host", "Host metrics", "host", hostSamples(res.Extra.HostMetrics))
	if len(mv.Figures) == 0 || !slices.ContainsFunc(mv.Notes, func(n string) bool { return strings.Contains(n, "The last sample") }) {
		t.Fatalf("host metrics: %d figures, notes %q; want the last sample's leaving out said", len(mv.Figures), mv.Notes)
	}
	// Its server metrics are empty samples: nothing charted, nothing cut.
	if sv := metricsSection("run-1-server", "Server metrics", "server", serverSamples(res.Extra.ServerMetrics)); len(sv.Figures) != 0 || !slices.Equal(sv.Notes, []string{"No server metric was recorded."}) {
		t.Errorf("server metrics: %d figures, notes %q; want only that none was recorded", len(sv.Figures), sv.Notes)
	}
	for _, f := range mv.Figures {
		if svg := string(f.SVG); strings.Contains(svg, `text-anchor="middle">8 s</text>`) {
			t.Errorf("host metrics chart %s reaches past the run's 6 s", f.Title)
		}
	}
}

// TestSliverLast: only a last sample much closer to the one before it
// than the samples before are to each other is a sliver.
func TestSliverLast(t *testing.T) {
	t.Parallel()
	rows := func(ts ...float64) []metricSample {
		var out []metricSample
		for _, v := range ts {
			out = append(out, metricSample{t: v, name: "host", v: &metrics.HostInterval{}})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		rows []metricSample
		idx  int
	}{
		{"even", rows(1, 2, 3), -1},
		{"the stop", rows(1, 2, 3, 3.01), 3},
		{"two samples", rows(1, 1.01), -1},
		{"a half step", rows(1, 2, 2.5), -1},
		{"a sample without time last", append(rows(1, 2, 2.01), metricSample{t: math.NaN(), name: "host", v: &metrics.HostInterval{}}), 2},
	} {
		if i, _ := sliverLast(tc.rows); i != tc.idx {
			t.Errorf("%s: sliver at %d, want %d", tc.name, i, tc.idx)
		}
	}
}

// TestTimeAxisHair: a sample a hair past a whole second does not stretch
// the time axis by a whole tick; half a second does.
func TestTimeAxisHair(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		end  float64
		want string
	}{
		{6, "0 2 s 4 s 6 s"},
		{6.0002, "0 2 s 4 s 6 s"},
		{6.5, "0 2 s 4 s 6 s 8 s"},
	} {
		if got := tickLabels(timeAxis(tc.end)); got != tc.want {
			t.Errorf("timeAxis(%g): %q, want %q", tc.end, got, tc.want)
		}
	}
}
