package bench

import (
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/measure/measuretest"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// TestOutcomeResults checks that the results carry the caller's metadata
// as given and the outcome's and observation's figures each in its place.
func TestOutcomeResults(t *testing.T) {
	t.Parallel()
	summary := measuretest.Summary(t)
	usage := synthUsage(10*time.Second, 6*time.Second, 3*time.Second, selfmon.Limits{NumCPU: 2, GOMAXPROCS: 1, Allowed: 1}, 1<<20)
	stop := &results.ErrorStop{Flag: "--max-errors", Limit: 3, Failed: 3}
	before, after := &metrics.SizeStats{}, &metrics.SizeStats{}
	topology := &metrics.TopologyInfo{}
	warmup := &results.Warmup{Seconds: 2, Operations: 40}
	tests := []struct {
		name    string
		outcome Outcome
		obs     Observation
		// shares is passed to Outcome.Client.
		shares bool
		// bound is the client_bound the diagnosis makes of the usage: 90%
		// of the one CPU it may use, when the client is alone.
		bound bool
	}{
		{name: "nothing observed", outcome: Outcome{Summary: summary, Result: runner.Result{LateStarts: 4, Abandoned: 2, TimedOut: true, Started: 2007}}},
		{
			name:    "stopped on errors, everything observed",
			outcome: Outcome{Summary: summary, Usage: &usage, Partial: true, ErrorStop: stop, Result: runner.Result{Stopped: true, Started: 2005}},
			obs:     Observation{Topology: topology, SizesBefore: before, SizesAfter: after, Warmup: warmup},
			bound:   true,
		},
		{
			name:    "sizes after only, embedded server",
			outcome: Outcome{Summary: summary, Usage: &usage},
			obs:     Observation{SizesAfter: after},
			shares:  true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.outcome
			obs := tc.obs
			obs.Client = o.Client(tc.shares)
			if (obs.Client == nil) != (o.Usage == nil) {
				t.Fatalf("client report %+v for usage %v", obs.Client, o.Usage)
			}
			meta := results.Meta{
				Tool: results.Tool{Name: "mongobench", Version: "test"}, Command: []string{"mongobench", "run", "-P", "w"},
				Label: "a label", Phase: results.PhaseRun, Config: map[string]string{"threadcount": "4"},
			}
			res, err := o.Results(meta, obs)
			if err != nil {
				t.Fatal(err)
			}
			if res.Label != meta.Label || res.Tool != meta.Tool || len(res.Command) != 4 || res.Config["threadcount"] != "4" || res.Partial != o.Partial {
				t.Errorf("metadata: label %q, tool %+v, command %q, config %v, partial %v", res.Label, res.Tool, res.Command, res.Config, res.Partial)
			}
			if res.Operations != summary.Operations || len(res.Intervals) != len(summary.Intervals) {
				t.Errorf("%d operations in %d intervals, want %d in %d", res.Operations, len(res.Intervals), summary.Operations, len(summary.Intervals))
			}
			x := res.Extra
			want := results.Runner{
				LateStarts: o.Result.LateStarts, AbandonedAtStop: o.Result.Abandoned, StoppedByTime: o.Result.TimedOut,
				StoppedBySignal: o.Result.Stopped, OperationsStarted: o.Result.Started, MeasuredOperations: summary.Operations,
			}
			if x == nil || x.Runner == nil || *x.Runner != want {
				t.Fatalf("extra %+v, want runner %+v", x, want)
			}
			if x.StoppedByErrors != o.ErrorStop || x.Topology != obs.Topology || x.Warmup != obs.Warmup {
				t.Errorf("error stop %v, topology %v, warm-up %v; want %v, %v, %v", x.StoppedByErrors, x.Topology, x.Warmup, o.ErrorStop, obs.Topology, obs.Warmup)
			}
			if hasSizes := obs.SizesBefore != nil || obs.SizesAfter != nil; (x.Sizes != nil) != hasSizes ||
				(hasSizes && (x.Sizes.Start != obs.SizesBefore || x.Sizes.End != obs.SizesAfter)) {
				t.Errorf("sizes %+v, want start %v, end %v", x.Sizes, obs.SizesBefore, obs.SizesAfter)
			}
			if (x.Client != nil) != (obs.Client != nil) ||
				(x.Client != nil && (x.Client.Bound != tc.bound || x.Client.Bound != diagnosis.ClientBound(x.Diagnosis) || x.Client.IncludesEmbeddedServer != tc.shares)) {
				t.Errorf("client section %+v, report %+v", x.Client, obs.Client)
			}
		})
	}
}
