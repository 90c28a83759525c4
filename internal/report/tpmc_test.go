package report

import (
	"math"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
)

// tpccSweep is a made-up TPC-C thread sweep of batching on or off: at
// each thread count one trial per factor, its throughput the same on
// both sides (so that only tpmC can differ) and its tpmC scaled by the
// factor.
func tpccSweep(t *testing.T, batch string, tpmC []float64, factors ...float64) []analysis.Run {
	t.Helper()
	var runs []analysis.Run
	for i, th := range []string{"1", "2", "4"} {
		for k, f := range factors {
			m := &results.SweepMark{ID: "s-" + batch, Varied: []string{"threadcount"}, Point: map[string]string{"threadcount": th}, Trial: k + 1}
			res := resultstest.Results(t, resultstest.Spec{Throughput: 10 * float64(i+1) * f, LatencyUs: map[string]int64{"READ": int64(math.Round(2000 * f))}, Mark: m,
				Config: map[string]string{"threadcount": th, "workload": "tpcc", "tpcc.batchwrites": batch}})
			res.Extra.TPCC = &results.TPCC{TpmC: tpmC[i] * f, Warehouses: 2, Transactions: []results.TPCCTransaction{
				{Name: "NewOrder", Retries: 3, Aborts: 4, RolledBack: 1}, {Name: "Payment", Retries: 2, CommitRetries: 1, Aborts: 2},
				{Name: "OrderStatus"}, {Name: "Delivery", Failed: 1}, {Name: "StockLevel"},
			}, Check: []results.TPCCCondition{{Number: 1, Checked: 2}, {Number: 2, Checked: 20, Failed: 3}}}
			// A file each: runs of one source would be one run.
			runs = append(runs, analysis.NewRun(res, "s-"+batch+"-"+th+"-"+itoa(k+1)+".json", 0))
		}
	}
	return runs
}

func tpccPage(t *testing.T, on, off []float64) string {
	t.Helper()
	in, _, err := FromRuns([][]analysis.Run{tpccSweep(t, "true", on, 0.98, 1, 1.02), tpccSweep(t, "false", off, 0.98, 1, 1.02)},
		Options{Names: []string{"batch-true", "batch-false"}, Alpha: 0.05, Allowed: []string{"tpcc.batchwrites"}, Knee: stats.KneeOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	in.Generated, in.Version = fixedGenerated, "0.1.0"
	return render(t, in)
}

// TestTpmCPage checks a TPC-C study's page: tpmC against threads, the
// first overlay, its pivot and its verdict where significant; the
// comparison's table and each run's counts.
func TestTpmCPage(t *testing.T) {
	t.Parallel()
	// Batching off commits a third fewer NewOrders at 2 and 4 threads.
	out := tpccPage(t, []float64{300, 600, 900}, []float64{300, 400, 600})
	study := section(out, "study")
	golden.Check(t, "tpmc.golden.html", study+"\n"+section(out, "conclusion")+"\n"+section(out, "comparison"))
	if i, j := strings.Index(study, `id="study-tpmc"`), strings.Index(study, `id="study-throughput"`); i < 0 || j < i {
		t.Errorf("tpmC chart at %d, throughput's at %d: want tpmC first", i, j)
	}
	for _, want := range []string{
		`<span class="kicker">tpmC against client threads</span>`,
		// 900 against 600 at 4 threads: 50% higher; 900 ± 4.303·18/√3.
		"At 4 threads, batch-true has the best tpmC, 900 tpmC, 50% higher than batch-false&#39;s 600 tpmC",
		"<tr><td class=\"text\">4</td><td>900<small>95% CI 855 – 945</small></td><td>600<small>95% CI 570 – 630</small></td></tr>",
	} {
		if !strings.Contains(study, want) {
			t.Errorf("study section lacks %q", want)
		}
	}
	concl := section(out, "conclusion")
	for _, want := range []string{
		"batch-false&#39;s threadcount=2 tpmC is 33% lower than batch-true&#39;s (significant",
		"batch-false&#39;s threadcount=4 tpmC is 33% lower than batch-true&#39;s (significant",
	} {
		if !strings.Contains(concl, want) {
			t.Errorf("conclusion lacks %q:\n%s", want, concl)
		}
	}
	// 300 against 300 at one thread: no sentence.
	if strings.Contains(concl, "threadcount=1 tpmC") {
		t.Errorf("conclusion speaks of a tpmC that did not differ:\n%s", concl)
	}
	if cmp := section(out, "comparison"); !strings.Contains(cmp, "<tr><td>threadcount=4 tpmC</td><td>900 tpmC<small>95% CI 855 tpmC – 945 tpmC</small></td>") {
		t.Errorf("comparison's table lacks tpmC at 4 threads:\n%s", cmp)
	}
	run := out[strings.Index(out, `class="run"`):]
	for _, want := range []string{
		"<h3>TPC-C: 294 tpmC</h3>",
		"<tr><td class=\"text\">NewOrder</td><td>3</td><td>0</td><td>4</td><td>1</td><td>0</td></tr>",
		"<tr><td class=\"text\">Payment</td><td>2</td><td>1</td><td>2</td><td>0</td><td>0</td></tr>",
		"Broken after the run: condition 2 on 3 of 20.",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("first run's section lacks %q", want)
		}
	}
}

// TestTpmCNotSignificant checks that a tpmC within the noise gets no
// verdict in the conclusion, and that a study of other runs has no tpmC.
func TestTpmCNotSignificant(t *testing.T) {
	t.Parallel()
	out := tpccPage(t, []float64{300, 600, 900}, []float64{305, 590, 910})
	if concl := section(out, "conclusion"); strings.Contains(concl, "tpmC") {
		t.Errorf("conclusion speaks of tpmC within the noise:\n%s", concl)
	}
	if study := section(out, "study"); !strings.Contains(study, "no line&#39;s tpmC stands apart from the next") {
		t.Errorf("tpmC caption does not say the lines are within the noise:\n%s", study)
	}
	if page := render(t, studyInput()); strings.Contains(page, "tpmC") {
		t.Error("a study of YCSB runs mentions tpmC")
	}
}

// TestTpmCComparisonBars checks that two groups of single TPC-C runs
// (no sweep: bars, not overlays) chart tpmC on its own, in its unit,
// apart from the throughput in ops/s and from the latencies.
func TestTpmCComparisonBars(t *testing.T) {
	t.Parallel()
	group := func(batch string, tpm float64) []analysis.Run {
		var rs []analysis.Run
		for _, f := range []float64{0.98, 1, 1.02} {
			res := resultstest.Results(t, resultstest.Spec{Throughput: 10 * f, Config: map[string]string{"threadcount": "1", "workload": "tpcc", "tpcc.batchwrites": batch}})
			res.Extra = &results.Extra{TPCC: &results.TPCC{TpmC: tpm * f, Warehouses: 1}}
			rs = append(rs, analysis.NewRun(res, batch, 0))
		}
		return rs
	}
	in, _, err := FromRuns([][]analysis.Run{group("true", 300), group("false", 200)},
		Options{Names: []string{"batch-true", "batch-false"}, Alpha: 0.05, Allowed: []string{"tpcc.batchwrites"}})
	if err != nil {
		t.Fatal(err)
	}
	out := section(render(t, in), "comparison")
	tpm := out[strings.Index(out, `<figure id="comparison-tpmc">`):]
	tpm = tpm[:strings.Index(tpm, "</figure>")]
	for _, want := range []string{
		"<span class=\"kicker\">tpmC: batch-false against batch-true</span>",
		"batch-false&#39;s tpmC is 33% lower than batch-true&#39;s (significant",
		"<title>batch-true tpmC: 300 tpmC",
	} {
		if !strings.Contains(tpm, want) {
			t.Errorf("tpmC chart lacks %q:\n%s", want, tpm)
		}
	}
	if lat := out[strings.Index(out, `<figure id="comparison-latency">`):]; strings.Contains(lat[:strings.Index(lat, "</figure>")], "tpmC") {
		t.Error("tpmC is drawn among the latencies")
	}
	if !strings.Contains(out, "<tr><td>tpmC</td><td>300 tpmC<small>") {
		t.Error("comparison's table lacks the tpmC row, named tpmC")
	}
}

// TestTpmCSweep checks a single TPC-C sweep's page: tpmC against threads
// first, its caption from the points' means and intervals.
func TestTpmCSweep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		tpmC []float64
		want string
	}{
		// 300 ± 14.9 against 900 ± 44.7: apart.
		{"rising", []float64{300, 600, 900}, "tpmC peaked at 900 tpmC at 4 threads, 3× the 300 tpmC of 1 thread."},
		{"falling", []float64{900, 600, 300}, "tpmC was highest at 1 thread (900 tpmC) and fell to 300 tpmC at 4 threads."},
		// 300 ± 14.9 against 310 ± 15.4: the intervals overlap.
		{"flat", []float64{300, 305, 310}, "tpmC peaked at 310 tpmC at 4 threads, 1× the 300 tpmC of 1 thread" + withinNoise + "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in, _, err := FromRuns([][]analysis.Run{tpccSweep(t, "true", tc.tpmC, 0.98, 1, 1.02)}, Options{Names: []string{"batch-true"}, Alpha: 0.05})
			if err != nil {
				t.Fatal(err)
			}
			sw := section(render(t, in), "sweep")
			if i, j := strings.Index(sw, `<figure id="sweep-tpmc">`), strings.Index(sw, `<figure id="sweep-throughput">`); i < 0 || j < i {
				t.Fatalf("tpmC chart at %d, throughput's at %d: want tpmC first", i, j)
			}
			if !strings.Contains(sw, `<span class="sentence">`+tc.want+`</span>`) {
				t.Errorf("sweep's tpmC caption is not %q:\n%s", tc.want, sw[:strings.Index(sw, "<svg")])
			}
		})
	}
}
