// Package progress is the live display of a phase on a terminal, a
// bench.Sink: a bar against the phase's stop condition and its figures.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/measure"
)

// progressTick is how often the display is redrawn.
const progressTick = 200 * time.Millisecond

// progressDisplay is the live display on a terminal: a bar against the
// stop condition (operations, or time when the phase is time-bound) and a
// description with the figures: done of the total, elapsed of the time
// limit, the last interval's rate and p99, and the time left. Elapsed time
// and time left are on the run's clock, not the bar library's, so that the
// display agrees with the status lines and can be tested. Off a terminal,
// status lines do this job.
type progressDisplay struct {
	bar     *progressbar.ProgressBar
	started func() int64         // operations started so far
	elapsed func() time.Duration // time since the phase started
	total   int64                // operations to do; 0 when not bound by count
	limit   time.Duration        // the phase's time limit; 0 for none
	what    string
	unit    string // what is counted: "ops", "records"

	// lastRate and lastP99 are the last interval's figures, for the
	// description: ops/s, and the worst operation's p99 in µs (-1 when no
	// operation succeeded). haveInterval is set once an interval closed.
	haveInterval atomic.Bool
	lastRate     atomic.Int64
	lastP99      atomic.Int64

	stop chan struct{}
	done chan struct{}
}

// Sink shows the display for the phase it is opened for.
type Sink struct {
	w io.Writer
	d *progressDisplay
}

// NewSink is a display drawn on w, a terminal.
func NewSink(w io.Writer) *Sink { return &Sink{w: w} }

// Sinks show a phase as it goes: on a terminal the display, else with
// status the YCSB status lines; none for neither.
func Sinks(w io.Writer, terminal, status bool) []bench.Sink {
	switch {
	case terminal:
		return []bench.Sink{NewSink(w)}
	case status:
		return []bench.Sink{bench.NewStatusLines(w)}
	}
	return nil
}

func (s *Sink) Open(p bench.Phase) error {
	what := "run:"
	if p.Command == "load" {
		what = "load:"
	}
	clock := p.Clock
	s.d = newProgressDisplay(s.w, what, p.Operations, p.MaxTime, p.Progress.Started, func() time.Duration { return time.Duration(clock.Now()) })
	go s.d.run()
	return nil
}

func (s *Sink) Interval(u bench.Update) error {
	s.d.interval(u.Interval)
	return nil
}

func (s *Sink) Close(bool) error {
	s.d.finish(s.w)
	return nil
}

// newProgressDisplay draws the display's blank state on w; update redraws
// it. started and elapsed are read at every update.
func newProgressDisplay(w io.Writer, what string, operations int64, maxTime time.Duration, started func() int64, elapsed func() time.Duration) *progressDisplay {
	d := &progressDisplay{
		started: started, elapsed: elapsed, limit: maxTime, what: what, unit: "ops",
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	if what == "load:" {
		d.unit = "records"
	}
	d.lastP99.Store(-1)
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(30),
		// The ticker paces the redraws; the library's own throttle would
		// drop the final one.
		progressbar.OptionThrottle(0),
		// Elapsed time and time left are in the description, on the run's
		// clock.
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSetDescription(what),
	}
	var max int64
	switch {
	case operations > 0:
		d.total = operations
		max = operations
	case maxTime > 0:
		max = int64(maxTime / time.Second)
	default:
		max = -1 // a spinner
	}
	d.bar = progressbar.NewOptions64(max, opts...)
	return d
}

// interval notes the finished interval's figures for the description.
func (d *progressDisplay) interval(iv *measure.Interval) {
	worst := int64(-1)
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
		d.lastRate.Store(int64(float64(iv.Operations) / s))
		d.haveInterval.Store(true)
	}
}

func (d *progressDisplay) run() {
	defer close(d.done)
	tick := time.NewTicker(progressTick)
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

// describe is the text beside the bar, e.g.
// "run: 250/1000 ops, 1250 ops/s, p99 700 µs, ETA 6s" or
// "run: 300 ops, 12s/1m0s, 25 ops/s, p99 900 µs".
func (d *progressDisplay) describe() string {
	done, elapsed := d.started(), d.elapsed()
	var b strings.Builder
	b.WriteString(d.what)
	if d.total > 0 {
		fmt.Fprintf(&b, " %d/%d %s", done, d.total, d.unit)
	} else {
		fmt.Fprintf(&b, " %d %s", done, d.unit)
	}
	if d.limit > 0 {
		fmt.Fprintf(&b, ", %s/%s", roundSecond(min(elapsed, d.limit)), roundSecond(d.limit))
	}
	if d.haveInterval.Load() {
		fmt.Fprintf(&b, ", %d ops/s", d.lastRate.Load())
		if p99 := d.lastP99.Load(); p99 >= 0 {
			fmt.Fprintf(&b, ", p99 %d µs", p99)
		}
	}
	// Time left at the mean rate so far, as the status lines reckon it:
	// the last interval alone would swing with every hiccup.
	if d.total > 0 && done > 0 && done < d.total && elapsed > 0 {
		left := time.Duration(float64(d.total-done) * float64(elapsed) / float64(done))
		if d.limit > 0 {
			left = min(left, d.limit-elapsed)
		}
		fmt.Fprintf(&b, ", ETA %s", roundSecond(max(left, 0)))
	}
	return b.String()
}

func roundSecond(t time.Duration) time.Duration { return t.Round(time.Second) }

func (d *progressDisplay) update() {
	d.bar.Describe(d.describe())
	switch {
	case d.total > 0:
		_ = d.bar.Set64(d.started())
	case d.limit > 0:
		_ = d.bar.Set64(int64(min(d.elapsed(), d.limit) / time.Second))
	default:
		_ = d.bar.Set64(d.started())
	}
}

// finish draws the final state and ends the line.
func (d *progressDisplay) finish(w io.Writer) {
	close(d.stop)
	<-d.done
	d.update()
	_ = d.bar.Exit()
	fmt.Fprintln(w)
}

// IsTerminal reports whether f is a terminal, by asking the terminal
// driver. A character device is not enough: /dev/null is one, so is a
// serial port, and stderr sent to either must not get a display that
// redraws one line with carriage returns.
func IsTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
