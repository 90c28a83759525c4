package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
)

// trialsOf are synthetic runs of sweep id: at each point, one trial per
// factor, its throughput and READ latency scaled by the factor (the
// spread a knee's tests need).
func trialsOf(t *testing.T, id string, varied []string, points []map[string]string, tput []float64, us []int64, factors ...float64) []Run {
	t.Helper()
	var runs []Run
	for i, p := range points {
		for k, f := range factors {
			m := &results.SweepMark{ID: id, Varied: varied, Point: p, Trial: k + 1}
			res := resultstest.Results(t, resultstest.Spec{Throughput: tput[i] * f, LatencyUs: map[string]int64{"READ": int64(math.Round(float64(us[i]) * f))}, Mark: m})
			runs = append(runs, NewRun(res, id, 0))
		}
	}
	return runs
}

func along(dim string, vs ...string) []map[string]string {
	var out []map[string]string
	for _, v := range vs {
		out = append(out, map[string]string{dim: v})
	}
	return out
}

// TestSweepFiguresOf checks a single sweep's points, what it found and
// the trials past its knee.
func TestSweepFiguresOf(t *testing.T) {
	t.Parallel()
	steady := []float64{0.99, 1, 1.01}
	// 4 → 8 threads gains nothing while p99 doubles: the knee is at 4,
	// and 8 threads' trials say what limited the sweep.
	knee := trialsOf(t, "s1", []string{"threadcount"}, along("threadcount", "1", "2", "4", "8"), []float64{1000, 2000, 2050, 2040}, []int64{500, 550, 1500, 3000}, steady...)
	warm := trialsOf(t, "s2", []string{"threadcount"}, along("threadcount", "1"), []float64{10}, []int64{9000}, 1)[0]
	warm.Mark.Warmup = true
	sf, ids := SweepFiguresOf(append(knee, warm), ServiceLatency, stats.KneeOptions{})
	if sf == nil || !sf.ByValue || sf.X != "threadcount" || sf.Left != 1 || !slices.Equal(ids, []string{"s1", "s2"}) {
		t.Fatalf("got %+v, ids %q; want 4 points by value, 1 run left out, 2 sweeps", sf, ids)
	}
	var xs []float64
	for _, p := range sf.Points {
		xs = append(xs, p.X)
		if p.Figures.Trials != 3 || len(p.Runs) != 3 || p.Label != "" || len(p.Avg.Values) != 3 {
			t.Errorf("point %g: %d trials, %d runs, label %q, %d averages", p.X, p.Figures.Trials, len(p.Runs), p.Label, len(p.Avg.Values))
		}
	}
	if !slices.Equal(xs, []float64{1, 2, 4, 8}) {
		t.Errorf("xs %v", xs)
	}
	if sf.Knee == nil || !sf.Knee.Found || sf.Knee.Result.Knee.X != 4 || sf.Rate != nil {
		t.Fatalf("knee %+v, rate %+v; want a knee at 4", sf.Knee, sf.Rate)
	}
	if len(sf.Beyond) != 3 || sf.Beyond[0] != sf.Points[3].Runs[0] {
		t.Errorf("beyond the knee: %d runs, want 8 threads' 3", len(sf.Beyond))
	}

	matrix := trialsOf(t, "m", []string{"recordcount", "threadcount"},
		[]map[string]string{{"recordcount": "10", "threadcount": "1"}, {"recordcount": "10", "threadcount": "2"}, {"recordcount": "20", "threadcount": "1"}},
		[]float64{100, 200, 90}, []int64{500, 500, 600}, 1)
	sf, _ = SweepFiguresOf(matrix, ServiceLatency, stats.KneeOptions{})
	if sf == nil || sf.ByValue || sf.Knee != nil || sf.Rate != nil || sf.Points[2].X != 3 || sf.Points[2].Label != "recordcount=20 threadcount=1" {
		t.Errorf("matrix: %+v, want points in order, labelled, no knee", sf)
	}

	rate := trialsOf(t, "r", []string{"target"}, along("target", "100", "200"), []float64{100, 150}, []int64{500, 900}, 1)
	if sf, _ = SweepFiguresOf(rate, ServiceLatency, stats.KneeOptions{}); sf == nil || sf.Rate == nil || sf.Knee != nil {
		t.Errorf("rate sweep: %+v, want a rate verdict and no knee", sf)
	}

	one := trialsOf(t, "o", []string{"threadcount"}, along("threadcount", "1"), []float64{100}, []int64{500}, 1, 1.1)
	if sf, ids = SweepFiguresOf(one, ServiceLatency, stats.KneeOptions{}); sf != nil || !slices.Equal(ids, []string{"o"}) {
		t.Errorf("one point: %+v, ids %q; want no sweep, its id said", sf, ids)
	}
}

// TestOverlayOf checks the lines of an overlay: one per group over the
// swept threads, one per value of a sweep's other dimension, none when a
// swept value is no number or a single line is all there is.
func TestOverlayOf(t *testing.T) {
	t.Parallel()
	ssd := trialsOf(t, "a", []string{"threadcount"}, along("threadcount", "1", "2", "4"), []float64{1000, 2000, 2050}, []int64{500, 550, 1500}, 0.99, 1, 1.01)
	essd := trialsOf(t, "b", []string{"threadcount"}, along("threadcount", "1", "2", "4"), []float64{900, 1900, 3000}, []int64{500, 520, 600}, 1)
	ov := OverlayOf([]string{"ssd", "essd"}, [][]Run{ssd, essd}, ServiceLatency, stats.KneeOptions{Alpha: 0.05})
	if ov == nil || ov.X != "threadcount" || len(ov.Lines) != 2 || ov.Lines[0].Name != "ssd" || ov.Lines[1].Name != "essd" {
		t.Fatalf("got %+v, want lines ssd and essd along threadcount", ov)
	}
	if l := ov.Lines[0]; len(l.Points) != 3 || l.Points[2].Figures.Throughput.Mean() != 2050 || l.Knee == nil || !l.Knee.Found || l.Knee.Result.Knee.X != 2 {
		t.Errorf("ssd: %+v, want 3 points ending at 2050 ops/s and a knee at 2", l)
	} else if len(l.Beyond) != 3 || l.Beyond[0] != l.Points[2].Runs[0] {
		t.Errorf("ssd: %d runs beyond the knee, want 4 threads' 3", len(l.Beyond))
	}
	if l := ov.Lines[1]; l.Knee == nil || l.Knee.Found {
		t.Errorf("essd: knee %+v, want one sought and none found (one trial per point)", l.Knee)
	}

	matrix := trialsOf(t, "m", []string{"recordcount", "threadcount"},
		[]map[string]string{{"recordcount": "10", "threadcount": "1"}, {"recordcount": "10", "threadcount": "2"}, {"recordcount": "20", "threadcount": "1"}, {"recordcount": "20", "threadcount": "2"}},
		[]float64{100, 200, 90, 150}, []int64{500, 500, 600, 700}, 1)
	ov = OverlayOf([]string{"m"}, [][]Run{matrix}, ServiceLatency, stats.KneeOptions{})
	if ov == nil || !slices.Equal(ov.Others, []string{"recordcount"}) || len(ov.Lines) != 2 || ov.Lines[1].Name != "recordcount=20" || ov.Lines[1].Points[1].Figures.Throughput.Mean() != 150 {
		t.Errorf("two dimensions: %+v, want a line per recordcount", ov)
	}

	if ov := OverlayOf([]string{"ssd"}, [][]Run{ssd}, ServiceLatency, stats.KneeOptions{}); ov != nil {
		t.Errorf("one sweep of one dimension made an overlay of %d lines", len(ov.Lines))
	}
	words := trialsOf(t, "w", []string{"threadcount"}, along("threadcount", "1", "many"), []float64{100, 200}, []int64{500, 500}, 1)
	if ov := OverlayOf([]string{"ssd", "w"}, [][]Run{ssd, words}, ServiceLatency, stats.KneeOptions{}); ov != nil {
		t.Errorf("a sweep over a word made an overlay: %+v", ov)
	}

	rate := func(id string) []Run {
		return trialsOf(t, id, []string{"target"}, along("target", "100", "200"), []float64{100, 150}, []int64{500, 900}, 1)
	}
	ov = OverlayOf([]string{"x", "y"}, [][]Run{rate("x"), rate("y")}, ServiceLatency, stats.KneeOptions{})
	if ov == nil || ov.Lines[0].Rate == nil || ov.Lines[0].Knee != nil {
		t.Errorf("rate lines: %+v, want a rate verdict each and no knee", ov)
	}
}
