package partition

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
)

func TestMain(m *testing.M) { embeddedtest.Main(m) }

var dbCounter atomic.Int64

// coordination is a coordination collection of the test's own.
func coordination(t *testing.T) *driver.Collection {
	t.Helper()
	c, err := mongo.OpenMonitor(mongo.Config{URL: embeddedtest.Server().URI(), ConnectTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return c.Database(fmt.Sprintf("barrier%d", dbCounter.Add(1))).Collection(Collection)
}

// fakeClock is one part's clock: it reads what it is set to, and a sleep
// moves it on at once. Each part has its own, as each machine does.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	runtime.Gosched() // let the other parts register
	return ctx.Err()
}

var epoch = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// simTime is the simulated time of several parts, each on a clock of its
// own (offset from the shared time, as machines' clocks are): the shared
// time moves only when every part is asleep, to the earliest wake-up. So
// the parts take their steps in rounds, whatever the scheduler does, and a
// test decides on what the parts did, never on how fast they ran.
type simTime struct {
	mu       sync.Mutex
	cond     *sync.Cond
	now      time.Time
	members  int
	sleepers []time.Time // wake-ups of the parts asleep
}

func newSimTime(members int) *simTime {
	s := &simTime{now: epoch, members: members}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// advance moves the time to the earliest wake-up once every member
// sleeps. Called with mu held.
func (s *simTime) advance() {
	if s.members == 0 || len(s.sleepers) < s.members {
		return
	}
	next := s.sleepers[0]
	for _, w := range s.sleepers {
		if w.Before(next) {
			next = w
		}
	}
	s.now = next
	s.cond.Broadcast()
}

// leave is a part done: the others no longer wait for it to sleep.
func (s *simTime) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.members--
	s.advance()
}

// simClock is one part's clock on a simTime; tick > 0 makes every reading
// that much later than the one before (a slow round trip each).
type simClock struct {
	t      *simTime
	offset time.Duration
	tick   time.Duration
}

func (c *simClock) Now() time.Time {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	c.offset += c.tick
	return c.t.now.Add(c.offset)
}

func (c *simClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s := c.t
	s.mu.Lock()
	defer s.mu.Unlock()
	wake := s.now.Add(d)
	s.sleepers = append(s.sleepers, wake)
	s.advance()
	for s.now.Before(wake) {
		s.cond.Wait()
	}
	i := slices.IndexFunc(s.sleepers, func(w time.Time) bool { return w.Equal(wake) })
	s.sleepers = slices.Delete(s.sleepers, i, i+1)
	return ctx.Err()
}

// waitAll runs the barrier of parts (indexes of count) at once, part i
// arriving i seconds after epoch, and returns their starts and errors.
func waitAll(t *testing.T, coll *driver.Collection, run string, parts []int, count int, timeout time.Duration) ([]time.Time, []error) {
	return waitAllPolling(t, coll, run, parts, count, timeout, 0)
}

// waitAllPolling is waitAll with the barrier polling every poll.
func waitAllPolling(t *testing.T, coll *driver.Collection, run string, parts []int, count int, timeout, poll time.Duration) ([]time.Time, []error) {
	t.Helper()
	clocks := make([]Clock, len(parts))
	sim := newSimTime(len(parts))
	for j, i := range parts {
		clocks[j] = &simClock{t: sim, offset: time.Duration(i) * time.Second}
	}
	timeouts := make([]time.Duration, len(parts))
	for j := range timeouts {
		timeouts[j] = timeout
	}
	return waitClocks(coll, run, parts, count, timeouts, poll, sim, clocks)
}

// waitClocks runs the barrier of parts at once, each on its clock of sim
// with its timeout.
func waitClocks(coll *driver.Collection, run string, parts []int, count int, timeouts []time.Duration, poll time.Duration, sim *simTime, clocks []Clock) ([]time.Time, []error) {
	starts, errs := make([]time.Time, len(parts)), make([]error, len(parts))
	var wg sync.WaitGroup
	for j, i := range parts {
		wg.Go(func() {
			defer sim.leave()
			b := &Barrier{Coll: coll, Clock: clocks[j], RunID: run, Part: Part{i, count}, Timeout: timeouts[j], Poll: poll}
			starts[j], errs[j] = b.Wait(context.Background())
		})
	}
	wg.Wait()
	return starts, errs
}

func TestBarrierAgreesOnOneInstant(t *testing.T) {
	t.Parallel()
	for _, count := range []int{2, 4, 8} {
		coll := coordination(t)
		parts := make([]int, count)
		for i := range parts {
			parts[i] = count - 1 - i // in any order
		}
		starts, errs := waitAll(t, coll, "run1", parts, count, time.Hour)
		// The last part arrived count-1 seconds after the first; all
		// start DefaultLead after it.
		want := epoch.Add(time.Duration(count-1)*time.Second + DefaultLead)
		for j, err := range errs {
			if err != nil {
				t.Fatalf("%d parts: part %d: %v", count, parts[j], err)
			}
			if !starts[j].Equal(want) {
				t.Errorf("%d parts: part %d starts at %v, want %v", count, parts[j], starts[j], want)
			}
		}
	}
}

func TestBarrierNamesTheMissingParts(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	// Parts 0, 1 and 3 of 5 wait; part 0 gives up first and leaves, then
	// part 1: each that gives up is missing for those still waiting.
	sim := newSimTime(3)
	parts := []int{0, 1, 3}
	clocks := []Clock{&simClock{t: sim}, &simClock{t: sim, offset: time.Second}, &simClock{t: sim, offset: 3 * time.Second}}
	_, errs := waitClocks(coll, "run2", parts, 5, []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second}, time.Second, sim, clocks)
	for j, want := range []string{"[2 4]", "[0 2 4]", "[0 1 2 4]"} {
		var m *MissingError
		if !errors.As(errs[j], &m) || fmt.Sprint(m.Missing) != want {
			t.Fatalf("part %d: err = %v, want parts %s missing", parts[j], errs[j], want)
		}
	}
	if want := `parts 2, 4 of 5 did not arrive within --barrier-timeout 10s (run "run2")`; !strings.HasPrefix(errs[0].Error(), want) {
		t.Errorf("err = %q, want it to start %q", errs[0], want)
	}
}

func TestBarrierIgnoresAnEarlierRun(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	// A run under the same id passed its barrier half a minute ago.
	if _, errs := waitAll(t, coll, "same", []int{0, 1}, 2, time.Hour); errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	// Now part 0 alone, within the timeout of that run's arrivals: the
	// finished run's part 1 does not let it pass.
	b := &Barrier{Coll: coll, Clock: &fakeClock{now: epoch.Add(30 * time.Second)}, RunID: "same", Part: Part{0, 2}, Timeout: time.Minute, Poll: time.Second}
	if _, err := b.Wait(context.Background()); !isMissing(err) {
		t.Errorf("err = %v, want part 1 missing", err)
	}
}

func TestBarrierRefusesOtherPartCounts(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	// Part 0 of 3 is waiting; part 1 arrives as one of 2.
	register(t, coll, registration{ID: "mixed/0", Run: "mixed", Part: 0, Parts: 3, Arrived: epoch.UnixNano(), Token: "p0", Seen: epoch.UnixNano()})
	b := &Barrier{Coll: coll, Clock: &fakeClock{now: epoch.Add(time.Second)}, RunID: "mixed", Part: Part{1, 2}, Timeout: time.Minute}
	if _, err := b.Wait(context.Background()); err == nil || !strings.Contains(err.Error(), "part 0 of run \"mixed\" registered as one of 3 parts, this part as one of 2") {
		t.Errorf("err = %v, want the part counts named", err)
	}
}

// register writes a registration as a part's process would have left it.
func register(t *testing.T, coll *driver.Collection, r registration) {
	t.Helper()
	if _, err := coll.InsertOne(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

func TestWaitUntil(t *testing.T) {
	t.Parallel()
	c := &fakeClock{now: epoch}
	if err := WaitUntil(context.Background(), c, epoch.Add(1500*time.Millisecond)); err != nil || !c.Now().Equal(epoch.Add(1500*time.Millisecond)) {
		t.Errorf("after the wait the clock reads %v, %v", c.Now(), err)
	}
	// An instant already past does not wait.
	if err := WaitUntil(context.Background(), c, epoch); err != nil || !c.Now().Equal(epoch.Add(1500*time.Millisecond)) {
		t.Errorf("a past instant moved the clock to %v, %v", c.Now(), err)
	}
}

func TestBarrierLeadCoversSlowRoundTrips(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	sim := newSimTime(2)
	clocks := []Clock{&simClock{t: sim}, &simClock{t: sim, offset: time.Second, tick: 100 * time.Millisecond}}
	starts, errs := waitClocks(coll, "slow", []int{0, 1}, 2, []time.Duration{time.Hour, time.Hour}, 0, sim, clocks)
	// Part 1's clock read 1.1 s as it sent its request before arriving,
	// 1.2 s as it arrived: the start is DefaultLead and five such round
	// trips later.
	want := epoch.Add(1200*time.Millisecond + DefaultLead + 500*time.Millisecond)
	for i := range 2 {
		if errs[i] != nil || !starts[i].Equal(want) {
			t.Errorf("part %d: start %v, %v; want %v", i, starts[i], errs[i], want)
		}
	}
}

// isMissing reports whether err is the barrier's time running out.
func isMissing(err error) bool {
	var m *MissingError
	return errors.As(err, &m)
}

// TestStartInstantGiven: with --start-at the part needs no barrier: it
// waits on its clock for the instant, and says so; an instant already
// past starts it at once, with a warning.
func TestStartInstantGiven(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name    string
		startAt time.Time
		wantNow time.Time
		said    string
	}{
		{"ahead", t0.Add(1500 * time.Millisecond), t0.Add(1500 * time.Millisecond), "starting at 2026-01-02 03:04:06.500 UTC (in 1.5s)"},
		{"passed", t0.Add(-2 * time.Second), t0, "warning: the start instant 2026-01-02T03:04:03Z passed 2s ago: measuring now"},
	}
	for _, tt := range tests {
		clock := &fakeClock{now: t0}
		var said []string
		at, how, err := StartInstant(context.Background(), tt.startAt, &Barrier{Clock: clock}, func(s string) { said = append(said, s) })
		if err != nil || !at.Equal(tt.startAt) || how != "start-at" {
			t.Errorf("%s: at %v, how %q, err %v; want %v, start-at", tt.name, at, how, err, tt.startAt)
		}
		if !clock.Now().Equal(tt.wantNow) {
			t.Errorf("%s: the clock reads %v after the wait, want %v", tt.name, clock.Now(), tt.wantNow)
		}
		if len(said) != 1 || said[0] != tt.said {
			t.Errorf("%s: said %q, want %q", tt.name, said, tt.said)
		}
	}
}

// TestBarrierDoesNotCountADeadPart: part 0 registered and died while
// waiting (kill -9: its registration stays, recent); part 1 arrives within
// the lease and must not pass alone: part 0 never shows a sign of life.
func TestBarrierDoesNotCountADeadPart(t *testing.T) {
	t.Parallel()
	for _, died := range []time.Duration{500 * time.Millisecond, -time.Minute} {
		coll := coordination(t)
		register(t, coll, registration{ID: "dead/0", Run: "dead", Part: 0, Parts: 2, Arrived: epoch.Add(died - time.Second).UnixNano(),
			Token: "gone", Beat: 3, Seen: epoch.Add(died).UnixNano()})
		_, errs := waitAllPolling(t, coll, "dead", []int{1}, 2, 10*time.Second, time.Second)
		var m *MissingError
		if !errors.As(errs[0], &m) || fmt.Sprint(m.Missing) != "[0]" {
			t.Errorf("part 0 died %v after epoch: err = %v, want part 0 missing", died, errs[0])
		}
	}
}

// claimed reports whether err is a conflict over the run, and not the
// server's raw duplicate-key error.
func claimed(t *testing.T, err error) bool {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), "E11000") {
		t.Errorf("raw duplicate-key error: %v", err)
	}
	return IsConflict(err)
}

// TestBarrierRefusesTwoClaims: processes claiming one part of one run
// at the same moment: one registers, the others are refused, and the
// conflict stops the one that registered too, so neither run measures.
func TestBarrierRefusesTwoClaims(t *testing.T) {
	t.Parallel()
	for _, claims := range []int{2, 8} {
		coll := coordination(t)
		parts := make([]int, claims) // all part 0
		_, errs := waitAllPolling(t, coll, "twice", parts, 2, time.Hour, time.Second)
		for j, err := range errs {
			if !claimed(t, err) {
				t.Errorf("%d claims: claim %d: err = %v, want a conflict", claims, j, err)
			}
		}
		if len(errs) > 0 && errs[0] != nil {
			if want := `run "twice": part 0 is already registered by another process`; !strings.Contains(errs[0].Error()+fmt.Sprint(errs[1:]), want) {
				t.Errorf("%d claims: %v, want one saying %q", claims, errs, want)
			}
		}
	}
}

// TestBarrierRefusesWhileARunMeasures: a part arriving under the run id
// of parts that passed their barrier and still show signs of life is
// refused; once their registrations lapse, it waits as any part.
func TestBarrierRefusesWhileARunMeasures(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	if _, errs := waitAll(t, coll, "busy", []int{0, 1}, 2, time.Hour); errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	b := &Barrier{Coll: coll, Clock: &fakeClock{now: epoch.Add(2 * time.Second)}, RunID: "busy", Part: Part{0, 2}, Timeout: time.Minute}
	_, err := b.Wait(context.Background())
	if !IsConflict(err) || !strings.Contains(err.Error(), "passed its barrier") || !strings.Contains(err.Error(), "give each run its own --run-id") {
		t.Errorf("err = %v, want the run under way named", err)
	}
	b = &Barrier{Coll: coll, Clock: &fakeClock{now: epoch.Add(time.Minute)}, RunID: "busy", Part: Part{0, 2}, Timeout: 5 * time.Second, Poll: time.Second}
	if _, err := b.Wait(context.Background()); !isMissing(err) {
		t.Errorf("a minute later: err = %v, want part 1 missing", err)
	}
}

// stoppingClock is a clock whose first sleep is cut short by a stop.
type stoppingClock struct {
	fakeClock
	cancel context.CancelFunc
}

func (c *stoppingClock) Sleep(ctx context.Context, d time.Duration) error {
	c.cancel()
	return c.fakeClock.Sleep(ctx, d)
}

// TestBarrierLeavesOnStop: a part stopped while waiting (Ctrl-C) takes
// its registration away, so no part counts it.
func TestBarrierLeavesOnStop(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	ctx, cancel := context.WithCancel(context.Background())
	b := &Barrier{Coll: coll, Clock: &stoppingClock{fakeClock: fakeClock{now: epoch}, cancel: cancel}, RunID: "stop", Part: Part{0, 2}, Timeout: time.Minute}
	if _, err := b.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n, err := coll.CountDocuments(context.Background(), map[string]string{"run": "stop"}); err != nil || n != 0 {
		t.Errorf("%d registrations left (%v), want none", n, err)
	}
}

// TestHold: a part that passed keeps its registration alive while it
// measures, and removes it when released.
func TestHold(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	sim := newSimTime(2)
	bs := make([]*Barrier, 2)
	var wg sync.WaitGroup
	for i := range bs {
		bs[i] = &Barrier{Coll: coll, Clock: &simClock{t: sim, offset: time.Duration(i) * time.Second}, RunID: "held", Part: Part{i, 2}, Timeout: time.Hour}
		wg.Go(func() {
			defer sim.leave()
			if _, err := bs[i].Wait(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// The parts measure on clocks of their own now.
	bs[0].Clock = &fakeClock{now: epoch.Add(10 * time.Second)}
	release := bs[0].Hold(context.Background())
	var r registration
	for beats := 0; beats < 3; {
		if err := coll.FindOne(context.Background(), map[string]string{"_id": "held/0"}).Decode(&r); err != nil {
			t.Fatal(err)
		}
		beats = int(r.Beat)
		runtime.Gosched()
	}
	if seen := time.Unix(0, r.Seen); !seen.After(epoch.Add(10 * time.Second)) {
		t.Errorf("last sign of life %v, want after the hold began", seen)
	}
	release()
	if n, err := coll.CountDocuments(context.Background(), map[string]string{"_id": "held/0"}); err != nil || n != 0 {
		t.Errorf("after release: %d registrations of part 0 (%v), want none", n, err)
	}
}
