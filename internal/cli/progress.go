package cli

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/runner"
)

// progressDisplay is the live display on a terminal: a bar against the
// stop condition (operations, or time when the phase is time-bound) with
// the rate and the last interval's p99. Off a terminal, status lines do
// this job.
type progressDisplay struct {
	bar      *progressbar.ProgressBar
	progress *runner.Progress
	byTime   time.Duration // the phase ends on time: the bar counts seconds
	clock    measure.Clock
	what     string
	lastP99  atomic.Int64 // µs, the worst op's p99 of the last interval
	lastRate atomic.Uint64
	stop     chan struct{}
	done     chan struct{}
}

func startProgress(w io.Writer, what string, operations int64, maxTime time.Duration, progress *runner.Progress, clock measure.Clock) *progressDisplay {
	d := &progressDisplay{progress: progress, clock: clock, what: what, stop: make(chan struct{}), done: make(chan struct{})}
	max := operations
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSetDescription(what),
	}
	switch {
	case operations <= 0 && maxTime > 0:
		d.byTime = maxTime
		max = int64(maxTime / time.Second)
	case operations > 0:
		opts = append(opts, progressbar.OptionShowCount())
	default:
		max = -1
	}
	d.bar = progressbar.NewOptions64(max, opts...)
	go d.run()
	return d
}

// interval notes the finished interval's figures for the description.
func (d *progressDisplay) interval(iv *measure.Interval) {
	var worst int64
	for _, m := range iv.Measurements {
		h := m.Service
		if h == nil {
			h = m.Intended
		}
		if m.Failed || h == nil || h.TotalCount() == 0 {
			continue
		}
		worst = max(worst, measure.Percentiles(h, []float64{99})[0])
	}
	d.lastP99.Store(worst)
	if s := iv.Duration().Seconds(); s > 0 {
		d.lastRate.Store(uint64(float64(iv.Operations) / s))
	}
}

func (d *progressDisplay) run() {
	defer close(d.done)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-tick.C:
			d.update()
		}
	}
}

func (d *progressDisplay) update() {
	desc := fmt.Sprintf("%s %d ops", d.what, d.progress.Started())
	if r := d.lastRate.Load(); r > 0 {
		desc += fmt.Sprintf(", %d ops/s, p99 %d µs", r, d.lastP99.Load())
	}
	d.bar.Describe(desc)
	if d.byTime > 0 {
		_ = d.bar.Set64(int64(time.Duration(d.clock.Now()) / time.Second))
		return
	}
	_ = d.bar.Set64(d.progress.Started())
}

// finish draws the final state and ends the line.
func (d *progressDisplay) finish(w io.Writer) {
	close(d.stop)
	<-d.done
	d.update()
	_ = d.bar.Exit()
	fmt.Fprintln(w)
}
