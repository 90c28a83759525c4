package runner

import (
	"errors"
	"slices"
	"testing"
	"time"
)

const us = int64(time.Microsecond)

// fakeAlarm is an alarm on a fake clock: each sleep ends delays[i] after
// the time it was set for (in turn, round and round), or at once for the
// first early sleeps, as a Wake ends them; every reading of the clock
// moves it on by tick, the time one yield takes.
type fakeAlarm struct {
	now, tick int64
	at        int64
	delays    []int64
	early     int
	err       error

	sets, sleeps, reads int
}

func (a *fakeAlarm) clock() int64 {
	a.reads++
	a.now += a.tick
	return a.now
}

func (a *fakeAlarm) set(d time.Duration) error {
	if a.err != nil {
		return a.err
	}
	a.sets++
	a.at = a.now + int64(d)
	return nil
}

func (a *fakeAlarm) sleep() error {
	a.sleeps++
	if a.early > 0 {
		a.early--
		return nil
	}
	a.now = max(a.now, a.at+a.delays[(a.sleeps-1)%len(a.delays)])
	return nil
}

// TestLeadFollowsMedian: the lead settles at the median of the wake-ups'
// delays, moves by one step however late a wake-up comes, stays within
// its cap and above zero, and learns nothing from a wake-up before its
// time.
func TestLeadFollowsMedian(t *testing.T) {
	l := newLead(500 * time.Microsecond)
	if l.ns != 10*us {
		t.Fatalf("initial lead %d ns, want 10 µs", l.ns)
	}
	// Wake-ups 0…99 µs late, evenly: the median is 49.5 µs.
	for i := range int64(5000) {
		l.woke(0, i*37%100*us)
	}
	if l.ns < 45*us || l.ns > 55*us {
		t.Errorf("lead %d µs after delays of 0…99 µs, want near their median", l.ns/us)
	}
	before := l.ns
	for range 20 {
		l.woke(0, 10_000*us)
	}
	if l.ns != before+20*us {
		t.Errorf("lead %d µs after 20 stalls of 10 ms from %d µs, want %d µs: one step each", l.ns/us, before/us, before/us+20)
	}
	for range 1000 {
		l.woke(0, 10_000*us)
	}
	if l.ns != 500*us {
		t.Errorf("lead %d µs after 1,000 stalls, want the 500 µs cap", l.ns/us)
	}
	for range 1000 {
		l.woke(0, 0)
	}
	if l.ns != 0 {
		t.Errorf("lead %d ns after prompt wake-ups, want 0", l.ns)
	}
	l.woke(100*us, 0) // before its time
	if l.ns != 0 {
		t.Errorf("lead %d ns after an early wake-up, want it unchanged", l.ns)
	}
	if capped := newLead(4 * time.Microsecond); capped.ns != 4*us {
		t.Errorf("initial lead %d ns under a 4 µs cap, want the cap", capped.ns)
	}
}

// TestSleepThenYield is the open loop's wait on a fake clock, operation
// after operation: it never returns before the due time; once the lead
// has settled at the wake-ups' median, an operation starts no later than
// a wake-up's delay beyond that median, and the wait yields no longer
// than the median before the due time.
func TestSleepThenYield(t *testing.T) {
	for _, tc := range []struct {
		name   string
		delays []int64 // how late each wake-up comes
		cap    time.Duration
		// after the first 200 waits: the lag's median and largest, and
		// the most yielding per wait, in µs.
		lagP50, lagMax, yieldMax int64
	}{
		{"prompt wake-ups", []int64{0}, 25 * time.Microsecond, 0, 0, 1},
		{"steady 8 µs", []int64{8 * us}, 25 * time.Microsecond, 1, 1, 1},
		// 5…15 µs: the lead settles at 10 µs, half the operations start
		// up to 5 µs late and half the waits yield up to 5 µs.
		{"5 to 15 µs", []int64{5 * us, 12 * us, 7 * us, 15 * us, 10 * us, 6 * us, 13 * us, 9 * us, 11 * us, 8 * us, 14 * us}, 25 * time.Microsecond, 1, 6, 6},
		// Beyond the cap: every operation late by the rest, no yielding.
		{"slow machine", []int64{100 * us, 120 * us}, 25 * time.Microsecond, 96, 96, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &fakeAlarm{tick: 100, delays: tc.delays}
			l := newLead(tc.cap)
			var lags []int64
			var yieldMax int64
			for i := range int64(1000) {
				due := (i + 1) * 500 * us
				ok, err := sleepThenYield(a.clock, a, &l, due, nil)
				if !ok || err != nil {
					t.Fatalf("wait %d: %v, %v", i, ok, err)
				}
				if a.now < due {
					t.Fatalf("wait %d returned at %d ns, before its due time %d ns", i, a.now, due)
				}
				if i < 200 {
					continue
				}
				lags = append(lags, a.now-due)
				// The sleep ended at a.at plus its delay; whatever lies
				// between that and the due time was yielded.
				woke := a.at + tc.delays[(a.sleeps-1)%len(tc.delays)]
				yieldMax = max(yieldMax, due-woke)
			}
			slices.Sort(lags)
			p50, most := lags[len(lags)/2]/us, lags[len(lags)-1]/us
			if p50 > tc.lagP50 || most > tc.lagMax {
				t.Errorf("lag p50 %d µs, largest %d µs; want at most %d and %d", p50, most, tc.lagP50, tc.lagMax)
			}
			if yieldMax/us > tc.yieldMax {
				t.Errorf("yielded up to %d µs before a due time, want at most %d", yieldMax/us, tc.yieldMax)
			}
			if a.sleeps != 1000 || a.sets != 1000 {
				t.Errorf("%d sleeps, %d sets for 1,000 waits: want one each", a.sleeps, a.sets)
			}
		})
	}
}

// TestSleepThenYieldEdges: a worker already late neither sleeps nor
// yields; a closed quit ends the wait before it sleeps; a sleep ended
// early sleeps again for the rest and teaches the lead nothing; an alarm
// that fails says so.
func TestSleepThenYieldEdges(t *testing.T) {
	t.Run("late", func(t *testing.T) {
		a := &fakeAlarm{now: 1000 * us, tick: 100, delays: []int64{0}}
		l := newLead(25 * time.Microsecond)
		ok, err := sleepThenYield(a.clock, a, &l, 900*us, nil)
		if !ok || err != nil || a.sets != 0 || a.sleeps != 0 || a.reads > 2 {
			t.Errorf("late by 100 µs: %v, %v; %d sets, %d sleeps, %d clock readings", ok, err, a.sets, a.sleeps, a.reads)
		}
	})
	t.Run("quit", func(t *testing.T) {
		quit := make(chan struct{})
		close(quit)
		a := &fakeAlarm{tick: 100, delays: []int64{0}}
		l := newLead(25 * time.Microsecond)
		ok, err := sleepThenYield(a.clock, a, &l, 900*us, quit)
		if ok || err != nil || a.sleeps != 0 {
			t.Errorf("quit closed: %v, %v after %d sleeps; want false, nil, none", ok, err, a.sleeps)
		}
	})
	t.Run("woken early", func(t *testing.T) {
		a := &fakeAlarm{tick: 100, delays: []int64{3 * us}, early: 2}
		l := newLead(25 * time.Microsecond)
		before := l.ns
		ok, err := sleepThenYield(a.clock, a, &l, 900*us, nil)
		if !ok || err != nil || a.now < 900*us || a.sleeps != 3 {
			t.Errorf("woken early twice: %v, %v at %d ns after %d sleeps; want true at 900 µs after 3", ok, err, a.now, a.sleeps)
		}
		if l.ns != before-int64(leadStep) {
			t.Errorf("lead %d ns, want one step down from %d ns for the one sleep that ended 3 µs late", l.ns, before)
		}
	})
	t.Run("alarm fails", func(t *testing.T) {
		broken := errors.New("no timer")
		a := &fakeAlarm{tick: 100, delays: []int64{0}, err: broken}
		l := newLead(25 * time.Microsecond)
		if ok, err := sleepThenYield(a.clock, a, &l, 900*us, nil); ok || !errors.Is(err, broken) {
			t.Errorf("broken alarm: %v, %v", ok, err)
		}
	})
}
