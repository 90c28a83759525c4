package partition

import (
	"context"
	"errors"
	"fmt"
	"runtime"
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

// waitAll runs the barrier of parts (indexes of count) at once, part i
// arriving i seconds after epoch, and returns their starts and errors.
func waitAll(t *testing.T, coll *driver.Collection, run string, parts []int, count int, timeout time.Duration) ([]time.Time, []error) {
	return waitAllPolling(t, coll, run, parts, count, timeout, 0)
}

// waitAllPolling is waitAll with the barrier polling every poll.
func waitAllPolling(t *testing.T, coll *driver.Collection, run string, parts []int, count int, timeout, poll time.Duration) ([]time.Time, []error) {
	t.Helper()
	starts, errs := make([]time.Time, len(parts)), make([]error, len(parts))
	var wg sync.WaitGroup
	for j, i := range parts {
		wg.Go(func() {
			b := &Barrier{Coll: coll, Clock: &fakeClock{now: epoch.Add(time.Duration(i) * time.Second)},
				RunID: run, Part: Part{i, count}, Timeout: timeout, Poll: poll}
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
	_, errs := waitAllPolling(t, coll, "run2", []int{0, 1, 3}, 5, 10*time.Second, time.Second)
	for _, err := range errs {
		var m *MissingError
		if !errors.As(err, &m) || fmt.Sprint(m.Missing) != "[2 4]" {
			t.Fatalf("err = %v, want parts 2 and 4 missing", err)
		}
		if want := `parts 2, 4 of 5 did not arrive within --barrier-timeout 10s (run "run2")`; err.Error()[:len(want)] != want {
			t.Errorf("err = %q, want it to start %q", err, want)
		}
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
	// Part 0 of 3 waited in vain; part 1 arrives as one of 2 while
	// part 0's registration is recent.
	if _, errs := waitAllPolling(t, coll, "mixed", []int{0}, 3, 5*time.Second, time.Second); !isMissing(errs[0]) {
		t.Fatalf("err = %v", errs[0])
	}
	b := &Barrier{Coll: coll, Clock: &fakeClock{now: epoch.Add(time.Second)}, RunID: "mixed", Part: Part{1, 2}, Timeout: time.Minute}
	if _, err := b.Wait(context.Background()); err == nil || !strings.Contains(err.Error(), "part 0 of run \"mixed\" registered as one of 3 parts, this part as one of 2") {
		t.Errorf("err = %v, want the part counts named", err)
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

// tickingClock is a part's clock on a slow server: every reading is a
// round trip later than the one before.
type tickingClock struct {
	fakeClock
	tick time.Duration
}

func (c *tickingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.tick)
	return c.now
}

func TestBarrierLeadCoversSlowRoundTrips(t *testing.T) {
	t.Parallel()
	coll := coordination(t)
	clocks := []Clock{&fakeClock{now: epoch}, &tickingClock{fakeClock: fakeClock{now: epoch.Add(time.Second)}, tick: 100 * time.Millisecond}}
	starts := make([]time.Time, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			b := &Barrier{Coll: coll, Clock: clocks[i], RunID: "slow", Part: Part{i, 2}, Timeout: time.Hour}
			starts[i], errs[i] = b.Wait(context.Background())
		})
	}
	wg.Wait()
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
