package runner

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/workload"
)

// fakeClock is a runner Clock whose time moves only when a worker waits
// for a due time (it jumps there, plus wakeLate) or a fake binding spends
// time on a call. Functions due by then run in the goroutine that moved the
// clock, before it goes on, so time limits fall between known operations.
type fakeClock struct {
	mu       sync.Mutex
	now      int64
	wakeLate int64   // how late every wait ends, as a slow wake-up would
	dues     []int64 // every due time waited for
	funcs    []*fakeFunc
	// added gets a token for every AfterFunc, woken for every Wake: what a
	// fake binding waits for to know the phase has seen a stop.
	added, woken chan struct{}
}

type fakeFunc struct {
	at            int64
	f             func()
	fired, cancel bool
}

func newFakeClock(wakeLate time.Duration) *fakeClock {
	return &fakeClock{wakeLate: int64(wakeLate), added: make(chan struct{}, 64), woken: make(chan struct{}, 1024)}
}

func (c *fakeClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// moveTo moves the clock to to(now) unless that is in the past, and runs
// the functions due by then.
func (c *fakeClock) moveTo(to func(now int64) int64) {
	c.mu.Lock()
	c.now = max(c.now, to(c.now))
	var due []func()
	for _, f := range c.funcs {
		if !f.fired && !f.cancel && f.at <= c.now {
			f.fired = true
			due = append(due, f.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func (c *fakeClock) advance(d time.Duration) {
	c.moveTo(func(now int64) int64 { return now + int64(d) })
}

func (c *fakeClock) NewTimer(time.Duration) Timer { return fakeTimer{c} }

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	ff := &fakeFunc{at: c.now + int64(d), f: f}
	c.funcs = append(c.funcs, ff)
	c.mu.Unlock()
	c.added <- struct{}{}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !ff.fired && !ff.cancel
		ff.cancel = true
		return was
	}
}

func (c *fakeClock) waitedFor() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.dues)
}

type fakeTimer struct{ c *fakeClock }

func (t fakeTimer) WaitUntil(due int64, quit <-chan struct{}) bool {
	select {
	case <-quit:
		return false
	default:
	}
	t.c.mu.Lock()
	t.c.dues = append(t.c.dues, due)
	t.c.mu.Unlock()
	t.c.moveTo(func(int64) int64 { return due + t.c.wakeLate })
	return true
}

func (t fakeTimer) Wake() {
	select {
	case t.c.woken <- struct{}{}:
	default:
	}
}

func (t fakeTimer) Close() {}

// await waits for a token of ch: an event the phase must produce, so the
// bound only ends a test that hangs.
func await(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Errorf("the phase never %s", what)
	}
}

// fakeDB is a binding whose calls take service of the fake clock's time.
// Call n (from 1) fails with fail(n) when that is not nil; hook(n), when
// set, runs at the start of call n and adds what it returns to the call's
// time.
type fakeDB struct {
	clock   *fakeClock
	service time.Duration
	fail    func(n int64) error
	hook    func(n int64) time.Duration
	calls   *atomic.Int64
	mu      *sync.Mutex
	batches *[]int // records per InsertBatch call
}

func (d fakeDB) call(ctx context.Context) error {
	n := d.calls.Add(1)
	extra := time.Duration(0)
	if d.hook != nil {
		extra = d.hook(n)
	}
	d.clock.advance(d.service + extra)
	if err := ctx.Err(); err != nil {
		return err
	}
	if d.fail != nil {
		return d.fail(n)
	}
	return nil
}

func (d fakeDB) Read(ctx context.Context, _, _ string, _ []string, _ db.FieldVisitor) error {
	return d.call(ctx)
}

func (d fakeDB) Scan(ctx context.Context, _, _ string, _ int, _ []string, _ db.FieldVisitor) error {
	return d.call(ctx)
}

func (d fakeDB) Update(ctx context.Context, _, _ string, _ []db.Field) error { return d.call(ctx) }
func (d fakeDB) Insert(ctx context.Context, _, _ string, _ []db.Field) error { return d.call(ctx) }
func (d fakeDB) Delete(ctx context.Context, _, _ string) error               { return d.call(ctx) }
func (d fakeDB) Close() error                                                { return nil }

func (d fakeDB) InsertBatch(ctx context.Context, _ string, keys []string, _ [][]db.Field) error {
	d.mu.Lock()
	*d.batches = append(*d.batches, len(keys))
	d.mu.Unlock()
	return d.call(ctx)
}

// phase is one phase against a fake binding on a fake clock.
type phase struct {
	cfg     Config
	db      fakeDB
	clock   *fakeClock
	batches []int
}

func newPhase(t *testing.T, transactions bool, threads int, ops int64, wakeLate time.Duration) *phase {
	t.Helper()
	spec := benchSpec(t, transactions, threads, "recordcount", "1000", "requestdistribution", "uniform")
	core, err := workload.NewCore(spec, spec.RecordCount, 1)
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock(wakeLate)
	p := &phase{clock: clock}
	p.db = fakeDB{clock: clock, calls: &atomic.Int64{}, mu: &sync.Mutex{}, batches: &p.batches}
	p.cfg = Config{Core: core, Transactions: transactions, Threads: threads, Operations: ops, Seed: 1, Clock: clock}
	return p
}

// run runs the phase, its collector recording the schedule lag too.
func (p *phase) run(t *testing.T) (Result, *measure.Summary) {
	t.Helper()
	c := measure.NewCollector(measure.Options{Threads: p.cfg.Threads, Service: true, Intended: true, ScheduleLag: true}, measure.NewClock())
	p.cfg.Collector = c
	p.cfg.NewDB = func() db.DB { return p.db }
	c.Start(nil)
	res, err := Run(context.Background(), p.cfg, nil)
	sum := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	return res, sum
}

func measurement(t *testing.T, s *measure.Summary, name string) *measure.Measurement {
	t.Helper()
	for i := range s.Measurements {
		if s.Measurements[i].Name == name {
			return &s.Measurements[i]
		}
	}
	t.Fatalf("no %s measurement", name)
	return nil
}

func TestOpenLoopSchedule(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name     string
		threads  int
		service  time.Duration
		wakeLate time.Duration
		// Figures of a single worker, whose order is known; -1 for
		// several, whose interleaving is not.
		late                     int64
		lagP50, lagMax           int64 // µs
		intendedMin, intendedMax int64 // µs
	}{
		// Each operation starts when due: no lag, intended = service.
		{"on time", 1, 200 * time.Microsecond, 0, 0, 0, 0, 200, 200},
		// A worker that wakes 1.5 ms late starts every operation late,
		// though the binding answers at once: lateness is counted after
		// waking, and intended latency keeps the lag.
		{"wakes late", 1, 0, 1500 * time.Microsecond, 10, 1500, 1500, 1500, 1500},
		// Calls of 1.5 ms at 1,000 per second: operation i starts 0.5 ms
		// × i behind schedule; i ≥ 3 are over 1 ms late. Intended latency
		// runs from the schedule: 1.5 ms + lag.
		{"falls behind", 1, 1500 * time.Microsecond, 0, 7, 2000, 4500, 1500, 6000},
		{"four workers", 4, 100 * time.Microsecond, 0, -1, -1, -1, -1, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const ops = 10
			p := newPhase(t, true, tc.threads, ops*int64(tc.threads), tc.wakeLate)
			p.cfg.Target = 1000
			p.db.service = tc.service
			res, sum := p.run(t)

			n := int64(ops * tc.threads)
			if res.Started != n || sum.Operations != n || p.db.calls.Load() != n {
				t.Fatalf("started %d, recorded %d, called %d; want %d", res.Started, sum.Operations, p.db.calls.Load(), n)
			}
			// Operation i is due at start + i/target, whoever runs it.
			dues := p.clock.waitedFor()
			slices.Sort(dues)
			for i, d := range dues {
				if want := int64(i) * int64(ms); d != want {
					t.Fatalf("due times %v: operation %d due at %d ns, want %d", dues, i, d, want)
				}
			}
			if len(dues) != int(n) {
				t.Fatalf("%d waits for %d operations", len(dues), n)
			}
			if tc.late < 0 {
				return
			}
			if res.LateStarts != tc.late {
				t.Errorf("%d late starts, want %d", res.LateStarts, tc.late)
			}
			lag := sum.ScheduleLag
			if lag.TotalCount() != n || !lag.ValuesAreEquivalent(lag.ValueAtQuantile(50), tc.lagP50) || !lag.ValuesAreEquivalent(lag.Max(), tc.lagMax) {
				t.Errorf("schedule lag: %d values, p50 %d µs, max %d µs; want %d, %d, %d", lag.TotalCount(), lag.ValueAtQuantile(50), lag.Max(), n, tc.lagP50, tc.lagMax)
			}
			in := measurement(t, sum, "READ").Intended
			if !in.ValuesAreEquivalent(in.Min(), tc.intendedMin) || !in.ValuesAreEquivalent(in.Max(), tc.intendedMax) {
				t.Errorf("intended latency %d..%d µs, want %d..%d", in.Min(), in.Max(), tc.intendedMin, tc.intendedMax)
			}
		})
	}
}

// TestStops checks every way a phase ends early, one worker at 1,000
// operations per second (or closed loop), each call taking 0.1 ms.
func TestStops(t *testing.T) {
	errBoom := errors.New("boom")
	cases := []struct {
		name      string
		target    float64
		maxErrors int64
		maxTime   time.Duration
		fail      bool // every call fails
		// stopAt, when > 0, is the call during which the test asks the
		// phase to stop (Stop when grace > 0, else ErrorStop); that call
		// then takes callTime.
		stopAt   int64
		grace    time.Duration
		callTime time.Duration

		recorded, failures, abandoned int64
		errorLimit, stopped, timedOut bool
	}{
		// Failures stop the phase at MaxErrors; nothing is in flight.
		{name: "max errors", maxErrors: 5, fail: true, recorded: 5, failures: 5, errorLimit: true},
		// The caller's own rule: the call in flight ends and counts.
		{name: "error stop", target: 1000, stopAt: 3, recorded: 3, errorLimit: true},
		// Operations due at 0…5 ms end before 5.5 ms; the one due at 6
		// ms is not started.
		{name: "max time", target: 1000, maxTime: 5500 * time.Microsecond, recorded: 6, timedOut: true},
		// A stop lets the call in flight finish within the grace…
		{name: "stop within grace", target: 1000, stopAt: 3, grace: time.Second, callTime: 100 * time.Millisecond, recorded: 3, stopped: true},
		// …and cuts it off after: abandoned, not recorded.
		{name: "stop after grace", target: 1000, stopAt: 3, grace: time.Second, callTime: 10 * time.Second, recorded: 2, abandoned: 1, stopped: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPhase(t, true, 1, 100, 0)
			p.cfg.Target, p.cfg.MaxErrors, p.cfg.MaxTime = tc.target, tc.maxErrors, tc.maxTime
			p.db.service = 100 * time.Microsecond
			if tc.fail {
				p.db.fail = func(int64) error { return errBoom }
			}
			if tc.stopAt > 0 {
				stop := make(chan struct{})
				if tc.grace > 0 {
					p.cfg.Stop, p.cfg.Grace = stop, tc.grace
				} else {
					p.cfg.ErrorStop = stop
				}
				p.db.hook = func(n int64) time.Duration {
					if n != tc.stopAt {
						return 0
					}
					close(stop)
					// The call goes on once the phase has seen the stop:
					// a Stop sets its grace timer, an ErrorStop wakes the
					// waits for due times.
					if tc.grace > 0 {
						await(t, p.clock.added, "set a grace timer after Stop")
					} else {
						await(t, p.clock.woken, "stopped its workers on ErrorStop")
					}
					return tc.callTime
				}
			}
			res, sum := p.run(t)
			if sum.Operations != tc.recorded || res.Failures != tc.failures || res.Abandoned != tc.abandoned {
				t.Errorf("recorded %d, failed %d, abandoned %d; want %d, %d, %d", sum.Operations, res.Failures, res.Abandoned, tc.recorded, tc.failures, tc.abandoned)
			}
			if res.Started != sum.Operations+res.Abandoned {
				t.Errorf("started %d = recorded %d + abandoned %d does not hold", res.Started, sum.Operations, res.Abandoned)
			}
			if res.ErrorLimit != tc.errorLimit || res.Stopped != tc.stopped || res.TimedOut != tc.timedOut {
				t.Errorf("error limit %v, stopped %v, timed out %v; want %v, %v, %v", res.ErrorLimit, res.Stopped, res.TimedOut, tc.errorLimit, tc.stopped, tc.timedOut)
			}
		})
	}
}

// holdDB holds every read until its context is done, as a read on a
// stalled server would: through a per-operation deadline on the context it
// is handed, as the mongo binding sets for optimeout. It says when each
// read starts and counts those the phase's cancellation ended.
type holdDB struct {
	nopDB
	started chan<- struct{}
	cut     *atomic.Int64
}

func (d holdDB) Read(ctx context.Context, _, _ string, _ []string, _ db.FieldVisitor) error {
	ctx, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	d.started <- struct{}{}
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		return errors.New("the read was never cancelled")
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		d.cut.Add(1)
	}
	return ctx.Err()
}

// TestCancelReachesEveryWorker: however the phase is cut off, the one
// operation each worker has in flight is cancelled, abandoned and not
// recorded.
func TestCancelReachesEveryWorker(t *testing.T) {
	const threads = 4
	cases := []struct {
		name string
		// cut cuts the phase off once every worker is inside a read.
		cut func(p *phase, cancel context.CancelFunc, stop chan struct{})

		stopped, timedOut bool
	}{
		// The caller cancels the phase's context (Ctrl-C after a stop).
		{name: "caller cancels", cut: func(_ *phase, cancel context.CancelFunc, _ chan struct{}) { cancel() }},
		// The time limit passes.
		{name: "time limit", cut: func(p *phase, _ context.CancelFunc, _ chan struct{}) {
			await(t, p.clock.added, "set its time limit")
			p.clock.advance(time.Second)
		}, timedOut: true},
		// A stop's grace runs out.
		{name: "stop after grace", cut: func(p *phase, _ context.CancelFunc, stop chan struct{}) {
			close(stop)
			await(t, p.clock.added, "set a grace timer after Stop")
			p.clock.advance(time.Second)
		}, stopped: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPhase(t, true, threads, 1000, 0)
			stop := make(chan struct{})
			if tc.timedOut {
				p.cfg.MaxTime = time.Second
			}
			if tc.stopped {
				p.cfg.Stop, p.cfg.Grace = stop, time.Second
			}
			started := make(chan struct{}, threads)
			var cut atomic.Int64
			p.cfg.NewDB = func() db.DB { return holdDB{nopDB{&atomic.Int64{}}, started, &cut} }
			c := measure.NewCollector(measure.Options{Threads: threads}, measure.NewClock())
			p.cfg.Collector = c
			c.Start(nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type ran struct {
				res Result
				err error
			}
			done := make(chan ran, 1)
			go func() {
				res, err := Run(ctx, p.cfg, nil)
				done <- ran{res, err}
			}()
			for range threads {
				await(t, started, "started a read in every worker")
			}
			tc.cut(p, cancel, stop)
			var r ran
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the phase never ended")
			}
			sum := c.Stop()
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := cut.Load(); got != threads {
				t.Errorf("%d reads cancelled, want one in each of %d workers", got, threads)
			}
			if r.res.Started != threads || r.res.Abandoned != threads || sum.Operations != 0 {
				t.Errorf("started %d, abandoned %d, recorded %d; want %d, %d, 0", r.res.Started, r.res.Abandoned, sum.Operations, threads, threads)
			}
			if r.res.Stopped != tc.stopped || r.res.TimedOut != tc.timedOut {
				t.Errorf("stopped %v, timed out %v; want %v, %v", r.res.Stopped, r.res.TimedOut, tc.stopped, tc.timedOut)
			}
		})
	}
}

// TestLoadFlushesLastBatch: 7 records in batches of 3 are sent as 3, 3 and
// the last partial batch of 1, and each record is measured once.
func TestLoadFlushesLastBatch(t *testing.T) {
	for _, target := range []float64{0, 1000} {
		p := newPhase(t, false, 1, 7, 0)
		p.cfg.BatchSize, p.cfg.Target = 3, target
		_, sum := p.run(t)
		if !slices.Equal(p.batches, []int{3, 3, 1}) {
			t.Errorf("target %v: batches of %v, want [3 3 1]", target, p.batches)
		}
		if sum.Operations != 7 || sum.Status[db.Insert][db.OK] != 7 {
			t.Errorf("target %v: %d operations, %d INSERT OK; want 7", target, sum.Operations, sum.Status[db.Insert][db.OK])
		}
	}
}

func TestSpinCap(t *testing.T) {
	for _, tc := range []struct {
		target float64
		want   time.Duration
	}{
		{0, 0},
		{2000, 25 * time.Microsecond}, // 5% of one CPU: 2000 × 25 µs
		{100, 500 * time.Microsecond},
		{10, time.Millisecond}, // capped
	} {
		if got := spinCap(tc.target); got != tc.want {
			t.Errorf("spinCap(%v) = %v, want %v", tc.target, got, tc.want)
		}
	}
}
