package sweep

import (
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/workload"
)

// TestOps: the table's operation columns are known before anything
// runs: a load sweep inserts; a run sweep's are every operation a point
// issues, in the summary's order.
func TestOps(t *testing.T) {
	t.Parallel()
	spec := func(proportions ...float64) *workload.Spec {
		s := &workload.Spec{}
		copy(s.Proportions[:], proportions)
		return s
	}
	if got := Ops(nil, "load", spec(1)); !slices.Equal(got, []string{"INSERT"}) {
		t.Errorf("load: %v, want INSERT alone", got)
	}
	ops := Ops(nil, "run", spec(0.5, 0.5))
	ops = Ops(ops, "run", spec(0, 0, 0.2, 0.8))
	analysis.SortOpNames(ops)
	if want := []string{"READ", "UPDATE", "INSERT", "SCAN"}; !slices.Equal(ops, want) {
		t.Errorf("run: %v, want %v", ops, want)
	}
	// TPC-C's run issues its five transactions, whatever CoreWorkload's
	// proportions say.
	tpccSpec := spec(0.95, 0.05)
	tpccSpec.TPCC = true
	if got := Ops(nil, "run", tpccSpec); !slices.Equal(got, []string{"NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel"}) {
		t.Errorf("tpcc run: %v", got)
	}
}

// TestBeyondKnee: the knee's sentence names what limited the point past
// it, by the most frequent verdict of its counted trials.
func TestBeyondKnee(t *testing.T) {
	t.Parallel()
	diag := func(kind string) *results.Results {
		r := resultstest.Results(t, resultstest.Spec{Throughput: 100})
		if r.Extra == nil {
			r.Extra = &results.Extra{}
		}
		r.Extra.Diagnosis = &results.Diagnosis{Verdict: kind, Limits: []results.Limit{{Kind: kind, Evidence: []string{"busy"}}}}
		return r
	}
	point := func(threads string, kinds ...string) PointResult {
		pr := PointResult{Point: &Point{Values: map[string]string{"threadcount": threads}}}
		for i, k := range kinds {
			pr.Trials = append(pr.Trials, Trial{Trial: i + 1, Results: diag(k)})
		}
		return pr
	}
	done := []PointResult{point("4", diagnosis.ClientCPU), point("8", diagnosis.Disk), point("16", diagnosis.Disk, diagnosis.ServerCPU, diagnosis.ServerCPU)}
	k := analysis.Knee{Found: true, Result: stats.KneeResult{Knee: stats.Point{X: 8}, Next: stats.Point{X: 16}}}
	if got, want := BeyondKnee("threadcount", k, done), "beyond 8 threads the server host's CPU is saturated"; got != want {
		t.Errorf("BeyondKnee = %q, want %q", got, want)
	}
	// A knee at the last point: its own trials say.
	k.Result.Next = stats.Point{}
	if got, want := BeyondKnee("threadcount", k, done), "beyond 8 threads the disk is saturated"; got != want {
		t.Errorf("BeyondKnee at the last point = %q, want %q", got, want)
	}
}

// TestDataSizeConfounderCounted checks that only the trials that count
// give a point its data size: a warm-up that started on other data does
// not make a series look confounded, and a real growth is named.
func TestDataSizeConfounderCounted(t *testing.T) {
	t.Parallel()
	const mib = 1024 * 1024.0
	sized := func(b float64) *results.Results {
		r := resultstest.Results(t, resultstest.Spec{Throughput: 100})
		if r.Extra == nil {
			r.Extra = &results.Extra{}
		}
		r.Extra.Sizes = &results.Sizes{Start: &metrics.SizeStats{Coll: metrics.SizeFigures{DataSize: metrics.Known(b)}}}
		return r
	}
	point := func(threads string, warm, counted float64) PointResult {
		return PointResult{Point: &Point{Values: map[string]string{"threadcount": threads}}, Trials: []Trial{
			{Trial: 0, Warmup: true, Results: sized(warm)}, {Trial: 1, Results: sized(counted)},
		}}
	}
	steady := []PointResult{point("1", 1*mib, 1*mib), point("2", 9*mib, 1*mib), point("4", 9*mib, 1.05*mib)}
	if got := DataSizeConfounder([]string{"threadcount"}, "threadcount", steady); got != "" {
		t.Errorf("warm-ups counted: %q", got)
	}
	grew := []PointResult{point("1", 1*mib, 1*mib), point("2", 1*mib, 3*mib)}
	if got, want := DataSizeConfounder([]string{"threadcount"}, "threadcount", grew), "the data size at the start changed from 1 MiB at threadcount=1 to 3 MiB at threadcount=2 along the sweep (3×)"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start %q", got, want)
	}
	// A varied parameter of a native workload shapes the data, as
	// recordcount does: the growth it makes is what was asked for. Its
	// runs record the workload's parameters as native.NAME.
	for _, pr := range grew {
		for _, tr := range pr.Trials {
			if tr.Results.Config == nil {
				tr.Results.Config = map[string]string{}
			}
			tr.Results.Config["native"] = "items"
			tr.Results.Config["native.docs"] = "10"
		}
	}
	if got := DataSizeConfounder([]string{"docs", "threadcount"}, "threadcount", grew); got != "" {
		t.Errorf("a varied parameter of the workload: %q", got)
	}
	if got := DataSizeConfounder([]string{"threadcount"}, "threadcount", grew); got == "" {
		t.Error("a native workload whose parameters were not varied: no confounder said")
	}
}

// TestSeriesFinding checks what a series' line says around the knee's
// text: nothing without a dimension, the series' label first.
func TestSeriesFinding(t *testing.T) {
	t.Parallel()
	if got := SeriesFinding("", stats.KneeOptions{}, &Series{}, nil); got != "" {
		t.Errorf("no dimension: %q", got)
	}
	got := SeriesFinding("batchsize", stats.KneeOptions{}, &Series{Label: "recordcount=10"}, nil)
	if want := "recordcount=10: no knee: a knee is sought along threadcount, target or mongodb.maxconnections, and this sweep varies batchsize"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestSeriesNotes: the finding and the confounder, the latter named by
// the series' label.
func TestSeriesNotes(t *testing.T) {
	t.Parallel()
	const mib = 1024 * 1024.0
	sized := func(b float64) *results.Results {
		r := resultstest.Results(t, resultstest.Spec{Throughput: 100})
		r.Extra = &results.Extra{Sizes: &results.Sizes{Start: &metrics.SizeStats{Coll: metrics.SizeFigures{DataSize: metrics.Known(b)}}}}
		return r
	}
	point := func(v string, b float64) PointResult {
		return PointResult{Point: &Point{Values: map[string]string{"batchsize": v}}, Trials: []Trial{{Trial: 1, Results: sized(b)}}}
	}
	grew := []PointResult{point("1", 1*mib), point("2", 3*mib)}
	p := &Plan{X: "batchsize", Varied: []string{"batchsize"}, Series: []*Series{{}, {}}}
	finding, confounder := p.SeriesNotes(stats.KneeOptions{}, &Series{Label: "recordcount=10"}, grew)
	if want := "recordcount=10: no knee: a knee is sought along"; !strings.HasPrefix(finding, want) {
		t.Errorf("finding %q, want it to start %q", finding, want)
	}
	if want := "recordcount=10: the data size at the start changed from 1 MiB at batchsize=1 to 3 MiB at batchsize=2"; !strings.HasPrefix(confounder, want) {
		t.Errorf("confounder %q, want it to start %q", confounder, want)
	}
	if _, c := p.SeriesNotes(stats.KneeOptions{}, &Series{}, grew); !strings.HasPrefix(c, "the data size at the start changed") {
		t.Errorf("unlabelled series: %q", c)
	}
}
