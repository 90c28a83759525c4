package sweeptext

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/findmax"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/sweep"
	tt "github.com/mongobench/mongobench/internal/texttable"
	"github.com/mongobench/mongobench/internal/threshold"
)

// TestTrialNote: a sweep's table marks a client-bound trial, after the
// notes that matter more.
func TestTrialNote(t *testing.T) {
	t.Parallel()
	res := func(partial bool, extra *results.Extra) *results.Results {
		return &results.Results{Partial: partial, Extra: extra}
	}
	bound := &results.Extra{Client: &results.Client{Bound: true}, Diagnosis: &results.Diagnosis{Verdict: diagnosis.ClientCPU, Limits: []results.Limit{{Kind: diagnosis.ClientCPU}}}}
	// A client that waited for CPUs others kept busy: the diagnosis names
	// the host, and the table does not call it client-bound.
	starved := &results.Extra{Client: &results.Client{Utilization: 0.04, Waiting: 0.84}, Diagnosis: &results.Diagnosis{Verdict: diagnosis.HostBusy, Limits: []results.Limit{{Kind: diagnosis.HostBusy}}}}
	tests := []struct {
		name string
		t    sweep.Trial
		err  error
		want string
	}{
		{"plain", sweep.Trial{Results: res(false, &results.Extra{Client: &results.Client{}})}, nil, ""},
		{"client-bound", sweep.Trial{Results: res(false, bound)}, nil, "client-bound"},
		{"host busy", sweep.Trial{Results: res(false, starved)}, nil, ""},
		{"warm-up first", sweep.Trial{Results: res(false, bound), Warmup: true}, nil, "warm-up: not in the mean"},
		{"partial first", sweep.Trial{Results: res(true, bound)}, nil, "partial: interrupted"},
		{"failed first", sweep.Trial{Results: res(false, bound)}, errors.New("x"), "failed"},
		{"no extra", sweep.Trial{Results: res(false, nil)}, nil, ""},
	}
	for _, tc := range tests {
		if got := TrialNote(tc.t, tc.err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTableGolden: a point's trials and their mean, in each format; a
// trial's NOT_FOUND counts among its operations not OK.
func TestTableGolden(t *testing.T) {
	t.Parallel()
	plan := &sweep.Plan{Dims: []sweep.Dim{{Name: "threadcount", Values: []string{"4", "16"}}}}
	p := &sweep.Point{Values: map[string]string{"threadcount": "4"}}
	var trials []sweep.Trial
	for i, tp := range []float64{1000, 1100, 1050} {
		res := resultstest.Results(t, resultstest.Spec{Throughput: tp, LatencyUs: map[string]int64{"READ": int64(tp)}})
		if i == 0 {
			res.Status["READ"]["OK"] -= 686
			res.Status["READ"]["NOT_FOUND"] = 686
		}
		trials = append(trials, sweep.Trial{Trial: i + 1, Results: res, Figures: analysis.FiguresOf(res, analysis.ServiceLatency)})
	}
	for _, tc := range []struct {
		name string
		f    tt.Format
	}{{"table.txt", tt.Text}, {"table.csv", tt.CSV}, {"table.md", tt.Markdown}} {
		var out bytes.Buffer
		table := NewTable(&out, tc.f, plan, []string{"READ", "UPDATE"})
		table.Header()
		for _, tr := range trials {
			table.TrialRow(p, tr, "")
		}
		table.MeanRow(p, trials)
		table.MeanRow(p, trials[:1]) // one trial: no mean
		golden.Check(t, tc.name, out.String())
		// NOT_FOUND counts among the operations not OK, in a column named
		// for what it counts: it said "errors 0" beside 686 NOT_FOUND.
		if tc.f == tt.CSV {
			row := strings.Split(strings.Split(out.String(), "\n")[1], ",")
			if head := strings.Split(out.String(), ",")[10]; head != analysis.NotOKFigure || row[10] != "686" {
				t.Errorf("column %q holds %q, want %s 686", head, row[10], analysis.NotOKFigure)
			}
		}
	}
}

// TestWriteFindMax: the steps, a row each, and the answer with the
// objective and the rules every rate had to meet.
func TestWriteFindMax(t *testing.T) {
	t.Parallel()
	objective, err := threshold.Parse("READ:p(99)<10ms")
	if err != nil {
		t.Fatal(err)
	}
	res := findmax.Result{Low: 2000, High: 4000, Steps: []findmax.Step{
		{Phase: "bracket", Target: 1000, Verdict: findmax.Verdict{Pass: true}},
		{Phase: "bracket", Target: 2000, Verdict: findmax.Verdict{Pass: true}},
		{Phase: "bracket", Target: 4000, Verdict: findmax.Verdict{Why: "READ p(99) was 12ms"}},
	}}
	var out bytes.Buffer
	WriteFindMax(&out, res, []threshold.Threshold{objective})
	want := "\nfind-max steps:\nstep  phase    target  verdict\n" +
		"   1  bracket    1000  pass\n   2  bracket    2000  pass\n   3  bracket    4000  fail: READ p(99) was 12ms\n" +
		"find-max: sustains 2000–4000 ops/s at READ:p(99)<10ms (achieved >= 95% of the target, median schedule lag <= 10 ms)\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if !strings.Contains(want, res.Text()) {
		t.Errorf("the answer %q is not printed", res.Text())
	}
}
