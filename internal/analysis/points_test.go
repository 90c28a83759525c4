package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/stats"
)

// t975df1 is Student's t at 97.5% with one degree of freedom: two trials'
// 95% interval is the mean ± 12.706 standard errors.
const t975df1 = 12.706204736174707

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestSummarize checks a point's means and intervals against values worked
// by hand: two trials, one of which ran an operation the other did not.
func TestSummarize(t *testing.T) {
	t.Parallel()
	fs := []Figures{
		{RuntimeS: 10, Throughput: 100, P99: 10, NotOK: 1, Order: []string{"READ"}, Ops: map[string]*OpFigures{
			"READ": {Count: 10, Throughput: 1, Avg: 5, HasLatency: true, Pct: map[string]float64{"99": 10}},
		}},
		{RuntimeS: 10, Throughput: 300, P99: 30, NotOK: 3, Order: []string{"READ", "UPDATE"}, Ops: map[string]*OpFigures{
			"READ":   {Count: 30, Throughput: 3, Avg: 15, HasLatency: true, Pct: map[string]float64{"99": 30}},
			"UPDATE": {Count: 3, Throughput: 0.3, Pct: map[string]float64{}},
		}},
	}
	p := Summarize(fs)
	// Throughput 100 and 300: mean 200, standard error 100.
	mean, lo, hi := p.Throughput.Bounds()
	if mean != 200 || lo != 0 || !near(hi, 200+100*t975df1) {
		t.Errorf("throughput %g [%g, %g], want 200 [0 (clamped), %g]", mean, lo, hi, 200+100*t975df1)
	}
	if p.Trials != 2 || strings.Join(p.Order, ",") != "READ,UPDATE" {
		t.Errorf("trials %d, ops %v", p.Trials, p.Order)
	}
	tests := []struct {
		name string
		got  Estimate
		want float64
		n    int
	}{
		{"runtime", p.Runtime, 10, 2},
		{"not OK", p.NotOK, 2, 2},
		{"p99", p.P99, 20, 2},
		{"READ avg", p.Op("READ").Avg, 10, 2},
		{"READ p99", p.Op("READ").P99, 20, 2},
		// A trial without UPDATE counts 0 of them, and no latency.
		{"UPDATE count", p.Op("UPDATE").Count, 1.5, 2},
		{"UPDATE avg", p.Op("UPDATE").Avg, 0, 0},
		// An operation no trial ran: 0 in each, no latency.
		{"DELETE count", p.Op("DELETE").Count, 0, 2},
		{"DELETE p99", p.Op("DELETE").P99, 0, 0},
	}
	for _, tc := range tests {
		if tc.got.Mean() != tc.want || len(tc.got.Values) != tc.n {
			t.Errorf("%s: mean %g of %d values, want %g of %d", tc.name, tc.got.Mean(), len(tc.got.Values), tc.want, tc.n)
		}
	}
	if p.Op("UPDATE").HasLatency() || !p.Op("READ").HasLatency() {
		t.Error("HasLatency: UPDATE has none, READ has")
	}
	k := p.KneePoint(4)
	if k.X != 4 || k.Throughput != 200 || k.P99 != 20 || k.P99Lo != 0 || !near(k.P99Hi, 20+10*t975df1) {
		t.Errorf("knee point %+v", k)
	}
	// One trial: no interval, the bounds are the value.
	if m, lo, hi := MeanAndCI([]float64{7}); m != 7 || lo != 7 || hi != 7 {
		t.Errorf("one value: %g [%g, %g]", m, lo, hi)
	}
	if m, lo, hi := MeanAndCI(nil); m != 0 || lo != 0 || hi != 0 {
		t.Errorf("no value: %g [%g, %g]", m, lo, hi)
	}
}

// TestKneeOf checks the knee's dimension and its sentence.
func TestKneeOf(t *testing.T) {
	t.Parallel()
	at := func(x float64, tput, p99 []float64) stats.Point {
		return stats.Point{X: x, Throughput: (tput[0] + tput[1]) / 2, P99: (p99[0] + p99[1]) / 2, ThroughputTrials: tput, P99Trials: p99}
	}
	saturating := []stats.Point{
		at(1, []float64{990, 1010}, []float64{490, 510}),
		at(2, []float64{1990, 2010}, []float64{540, 560}),
		at(4, []float64{2040, 2060}, []float64{1490, 1510}),
	}
	tests := []struct {
		name  string
		x     string
		pts   []stats.Point
		found bool
		text  string
	}{
		{"threads", "threadcount", saturating, true, "knee: throughput stops rising between 1 and 2 threads (2000 ops/s at 2)"},
		{"connections", "mongodb.maxconnections", saturating, true, "knee: throughput stops rising between 1 and 2 connections"},
		{"not a load dimension", "recordcount", saturating, false, "no knee: a knee is sought along threadcount, target or mongodb.maxconnections, and this sweep varies recordcount"},
		{"nothing varied", "", saturating, false, "no knee: a knee is sought along threadcount, target or mongodb.maxconnections, and this sweep varies nothing"},
		{"still rising", "threadcount", saturating[:2], false, "no knee: "},
	}
	for _, tc := range tests {
		k := KneeOf(tc.x, tc.pts, stats.KneeOptions{})
		if k.Found != tc.found || !strings.HasPrefix(k.Text, tc.text) {
			t.Errorf("%s: found %v, %q; want %v, %q…", tc.name, k.Found, k.Text, tc.found, tc.text)
		}
		if k.Found && k.Result.Knee.X != 2 {
			t.Errorf("%s: knee at %g, want 2", tc.name, k.Result.Knee.X)
		}
	}
	for varied, want := range map[string]string{"recordcount,threadcount": "threadcount", "target,recordcount": "target", "fieldcount": "fieldcount", "": ""} {
		var names []string
		if varied != "" {
			names = strings.Split(varied, ",")
		}
		if got := XDim(names); got != want {
			t.Errorf("XDim(%v) = %q, want %q", names, got, want)
		}
	}
}
