package bench

import (
	"context"
	"sync"
	"time"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// Observer samples server and host metrics on the run's clock: sample k is
// taken at k status intervals after the clock's start, so interval k of
// the metrics covers the same time as interval k of the latencies.
type Observer struct {
	sampler  *metrics.Sampler
	clock    measure.Clock
	interval time.Duration

	// onMetrics, when not nil, gets each interval's metrics as they are
	// derived: index k is interval k of the latencies.
	onMetrics func(index int, m metrics.IntervalMetrics)

	mu     sync.Mutex
	first  metrics.Snapshot
	last   metrics.Snapshot
	series []metrics.IntervalMetrics

	stopc chan struct{}
	done  chan struct{}
}

// StartObserver takes the first sample and starts sampling every
// opts.Interval on clock.
func StartObserver(ctx context.Context, opts metrics.SamplerOptions, clock measure.Clock,
	onMetrics func(index int, m metrics.IntervalMetrics)) *Observer {
	o := &Observer{
		sampler:   metrics.NewSampler(opts),
		clock:     clock,
		interval:  opts.Interval,
		onMetrics: onMetrics,
		stopc:     make(chan struct{}),
		done:      make(chan struct{}),
	}
	o.first = o.sampler.Sample(ctx, time.Now())
	o.last = o.first
	go o.run(ctx)
	return o
}

func (o *Observer) run(ctx context.Context) {
	defer close(o.done)
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for k := int64(1); ; k++ {
		due := time.Duration(k) * o.interval
		t.Reset(due - time.Duration(o.clock.Now()))
		select {
		case <-o.stopc:
			return
		case <-ctx.Done():
			return
		case <-t.C:
		}
		o.take(ctx)
	}
}

func (o *Observer) take(ctx context.Context) {
	s := o.sampler.Sample(ctx, time.Now())
	o.mu.Lock()
	m := metrics.Delta(o.last, s)
	o.series = append(o.series, m)
	o.last = s
	index := len(o.series) - 1
	o.mu.Unlock()
	// Outside the lock: the callback writes to disk.
	if o.onMetrics != nil {
		o.onMetrics(index, m)
	}
}

// Stop takes the closing sample, which covers the last, short interval.
func (o *Observer) Stop(ctx context.Context) {
	close(o.stopc)
	<-o.done
	o.take(ctx)
}

// TimeSeries returns the metrics per interval for the results file, with
// "t" (seconds from the phase's start to the interval's end) beside each.
func (o *Observer) TimeSeries() (server []results.ServerSample, host []results.HostSample) {
	o.mu.Lock()
	defer o.mu.Unlock()
	start := o.clock.StartTime()
	for _, iv := range o.series {
		t := iv.End.Sub(start).Seconds()
		if iv.Server != nil {
			server = append(server, results.ServerSample{T: t, Server: iv.Server})
		}
		if iv.Host != nil {
			host = append(host, results.HostSample{T: t, Host: iv.Host})
		}
	}
	return server, host
}

// Intervals returns a copy of the per-interval metrics.
func (o *Observer) Intervals() []metrics.IntervalMetrics {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]metrics.IntervalMetrics(nil), o.series...)
}

// Bounds returns the phase's first and last samples, for the summary's
// figures over the whole phase.
func (o *Observer) Bounds() (first, last metrics.Snapshot) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.first, o.last
}
