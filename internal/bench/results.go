package bench

import (
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// Observation is what the caller read around the phase, outside its
// clock: the facts before it, the sizes after it, the warm-up before it and
// the client's judgement. Any of them may be nil.
type Observation struct {
	Topology                *metrics.TopologyInfo
	SizesBefore, SizesAfter *metrics.SizeStats
	Warmup                  *results.Warmup
	Client                  *ClientReport
	// Part says which part of a partitioned run the phase was.
	Part *results.Part
	// Sharding is what happened to a sharded collection's distribution
	// during the phase.
	Sharding *metrics.ShardingRun
	// DiskCeilings are the disk baselines known (the newest of each
	// device): the run's busiest disk is judged against its own.
	DiskCeilings []*results.DiskCeiling
}

// Client judges the phase's client usage; nil when it was not observed.
// sharesProcess is whether the embedded server ran in this process, which
// only the caller knows.
func (o *Outcome) Client(sharesProcess bool) *ClientReport {
	if o.Usage == nil {
		return nil
	}
	return &ClientReport{Usage: *o.Usage, Operations: o.Summary.Operations, SharesProcess: sharesProcess}
}

// Results assembles the phase's results. meta is what the caller knows
// of the run (tool, command line, label, phase, resolved configuration);
// whether it is partial and its extra sections are the outcome's and obs's.
func (o *Outcome) Results(meta results.Meta, obs Observation) (*results.Results, error) {
	meta.Partial = o.Partial
	extra := &results.Extra{
		Runner: &results.Runner{
			LateStarts:         o.Result.LateStarts,
			AbandonedAtStop:    o.Result.Abandoned,
			StoppedByTime:      o.Result.TimedOut,
			StoppedBySignal:    o.Result.Stopped && !o.Aborted,
			OperationsStarted:  o.Result.Started,
			MeasuredOperations: o.Summary.Operations,
		},
		Topology:        obs.Topology,
		Sharding:        obs.Sharding,
		Warmup:          obs.Warmup,
		StoppedByErrors: o.ErrorStop,
		Part:            obs.Part,
		Documents:       o.Documents,
	}
	if obs.Client != nil {
		extra.Client = obs.Client.Section()
	}
	if obs.SizesBefore != nil || obs.SizesAfter != nil {
		extra.Sizes = &results.Sizes{Start: obs.SizesBefore, End: obs.SizesAfter}
	}
	if o.Observer != nil {
		extra.ServerMetrics, extra.HostMetrics = o.Observer.TimeSeries()
	}
	meta.Extra = extra
	res, err := results.NewResults(o.Summary, meta)
	if err != nil {
		return res, err
	}
	if o.Observer != nil {
		// Interval k of the metrics covers interval k of the latencies.
		for i, m := range o.Observer.Intervals() {
			if i < len(res.Intervals) {
				res.Intervals[i].Metrics = &m
			}
		}
	}
	extra.Diagnosis = diagnosis.Diagnose(res, obs.DiskCeilings...)
	if extra.Client != nil {
		extra.Client.Bound = obs.Client.Bound(extra.Diagnosis)
	}
	return res, nil
}
