package partition

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	driver "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Collection is the coordination collection the barrier uses, in the
// database under test: every part reaches it already, and it needs no
// coordinator of its own.
const Collection = "mongobench_parts"

// Clock is the time the barrier and the wait for the start read and
// sleep on; tests give a fake one.
type Clock interface {
	Now() time.Time
	// Sleep waits d, or until ctx is done (then its error).
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now is time.Now.
func (SystemClock) Now() time.Time { return time.Now() }

// Sleep waits d on a timer, or until ctx is done.
func (SystemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitUntil sleeps on clock until it reads at, or until ctx is done. An
// instant already past returns at once.
func WaitUntil(ctx context.Context, clock Clock, at time.Time) error {
	d := at.Sub(clock.Now())
	if d <= 0 {
		return ctx.Err()
	}
	return clock.Sleep(ctx, d)
}

// StartInstant is the instant a part starts measuring at: startAt when
// given (--start-at), else the one the parts agree on at the barrier b.
// It then waits for that instant on clock. say gets what the part waits
// for and when it starts, for the user; how is "start-at" or "barrier".
func StartInstant(ctx context.Context, startAt time.Time, b *Barrier, say func(string)) (at time.Time, how string, err error) {
	if !startAt.IsZero() {
		at, how = startAt, "start-at"
	} else {
		say(fmt.Sprintf("part %s of run %s: waiting for the other parts in %s.%s (at most %s)", b.Part, b.RunID, b.Coll.Database().Name(), Collection, b.Timeout))
		if at, err = b.Wait(ctx); err != nil {
			return time.Time{}, "", err
		}
		how = "barrier"
	}
	if late := b.Clock.Now().Sub(at); late > 0 {
		say(fmt.Sprintf("warning: the start instant %s passed %s ago: measuring now", at.UTC().Format(time.RFC3339Nano), late.Round(time.Millisecond)))
	} else {
		// With its date: an instant tomorrow is not one today.
		say(fmt.Sprintf("starting at %s (in %s)", at.UTC().Format("2006-01-02 15:04:05.000 UTC"), (-late).Round(time.Millisecond)))
	}
	return at, how, WaitUntil(ctx, b.Clock, at)
}

// The barrier's default timing.
const (
	// DefaultPoll is how often a waiting part looks for the others: it
	// bounds how late a part learns that the last one arrived.
	DefaultPoll = 50 * time.Millisecond
	// DefaultLead is how long after the last arrival the parts start at
	// the least: long enough for every part to see that arrival (a poll
	// and a round trip) before the instant comes on an idle network.
	DefaultLead = time.Second
	// roundTrips is how many of the slowest part's round trips to the
	// server are added to the lead: the last part still records its
	// start, and the others read the registrations, after it arrives.
	roundTrips = 5
)

// Barrier makes the parts of one run start measuring at one instant: each
// registers in Coll, waits until every part has, and all start after the
// last arrival by Lead plus a few of the slowest part's round trips to the
// server (a loaded server answers slowly, and every part must learn of the
// last arrival before the instant comes). The instant is computed from the registrations alone,
// so every part computes the same one; each then waits for it on its own
// clock, so the parts' clocks must agree (as NTP keeps them) for their
// starts to.
type Barrier struct {
	Coll  *driver.Collection
	Clock Clock
	RunID string
	Part  Part
	// Timeout bounds the wait for the other parts, from this part's
	// arrival.
	Timeout time.Duration
	// Poll and Lead default to DefaultPoll and DefaultLead.
	Poll, Lead time.Duration
}

// registration is a part's document in the coordination collection.
// Times are Unix nanoseconds: BSON dates keep milliseconds only.
type registration struct {
	ID      string `bson:"_id"`
	Run     string `bson:"run"`
	Part    int    `bson:"part"`
	Parts   int    `bson:"parts"`
	Arrived int64  `bson:"arrived_ns"`
	// RoundTrip is how long the part's last request before its arrival
	// took, in nanoseconds.
	RoundTrip int64 `bson:"round_trip_ns"`
	// StartAt is set once the part has seen every part arrive: the
	// instant it starts at.
	StartAt int64 `bson:"start_at_ns"`
}

// MissingError is the barrier's time running out: the parts that never
// arrived.
type MissingError struct {
	RunID   string
	Count   int
	Missing []int
	Timeout time.Duration
}

func (e *MissingError) Error() string {
	names := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		names[i] = strconv.Itoa(m)
	}
	what := "part " + names[0] + " of " + strconv.Itoa(e.Count) + " did"
	if len(names) > 1 {
		what = "parts " + strings.Join(names, ", ") + " of " + strconv.Itoa(e.Count) + " did"
	}
	return fmt.Sprintf("%s not arrive within --barrier-timeout %s (run %q): each part waits for all before it measures", what, e.Timeout, e.RunID)
}

// Wait registers this part and returns the instant every part of the
// run starts at, once all have arrived; a *MissingError when some have
// not within Timeout.
func (b *Barrier) Wait(ctx context.Context) (time.Time, error) {
	poll, lead := b.Poll, b.Lead
	if poll <= 0 {
		poll = DefaultPoll
	}
	if lead <= 0 {
		lead = DefaultLead
	}
	if b.Part.Whole() {
		return b.Clock.Now(), nil
	}
	// Registrations of an earlier run under the same id whose start has
	// passed are that run's, finished: they must not let this one pass.
	sent := b.Clock.Now()
	if _, err := b.Coll.DeleteMany(ctx, bson.D{
		{Key: "run", Value: b.RunID},
		{Key: "start_at_ns", Value: bson.D{{Key: "$gt", Value: 0}, {Key: "$lt", Value: sent.UnixNano()}}},
	}); err != nil {
		return time.Time{}, fmt.Errorf("barrier: clearing run %q's old registrations in %s: %w", b.RunID, Collection, err)
	}
	arrived := b.Clock.Now()
	me := registration{ID: b.RunID + "/" + strconv.Itoa(b.Part.Index), Run: b.RunID, Part: b.Part.Index,
		Parts: b.Part.Count, Arrived: arrived.UnixNano(), RoundTrip: int64(arrived.Sub(sent))}
	if _, err := b.Coll.ReplaceOne(ctx, bson.D{{Key: "_id", Value: me.ID}}, me, options.Replace().SetUpsert(true)); err != nil {
		return time.Time{}, fmt.Errorf("barrier: registering part %s in %s: %w", b.Part, Collection, err)
	}
	// Arrivals before this part's by more than the timeout are left over
	// from a run that timed out: its parts waited no longer than that.
	oldest := arrived.Add(-b.Timeout).UnixNano()
	for {
		regs, err := b.arrivals(ctx, oldest)
		if err != nil {
			return time.Time{}, err
		}
		present := make([]bool, b.Part.Count)
		var last, slowest int64
		for _, r := range regs {
			if r.Parts != b.Part.Count {
				return time.Time{}, fmt.Errorf("barrier: part %d of run %q registered as one of %d parts, this part as one of %d: give every part the same --parts (or a new --run-id)", r.Part, b.RunID, r.Parts, b.Part.Count)
			}
			if r.Part >= 0 && r.Part < b.Part.Count {
				present[r.Part] = true
			}
			last = max(last, r.Arrived)
			slowest = max(slowest, r.RoundTrip)
		}
		var missing []int
		for i, ok := range present {
			if !ok {
				missing = append(missing, i)
			}
		}
		if len(missing) == 0 {
			start := time.Unix(0, last).Add(lead + roundTrips*time.Duration(slowest))
			if _, err := b.Coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: me.ID}},
				bson.D{{Key: "$set", Value: bson.D{{Key: "start_at_ns", Value: start.UnixNano()}}}}); err != nil {
				return time.Time{}, fmt.Errorf("barrier: recording part %s's start in %s: %w", b.Part, Collection, err)
			}
			return start, nil
		}
		if b.Clock.Now().Sub(arrived) >= b.Timeout {
			return time.Time{}, &MissingError{RunID: b.RunID, Count: b.Part.Count, Missing: missing, Timeout: b.Timeout}
		}
		if err := b.Clock.Sleep(ctx, poll); err != nil {
			return time.Time{}, fmt.Errorf("barrier: waiting for the other parts: %w", err)
		}
	}
}

// arrivals reads the run's registrations from oldest (Unix ns) on.
func (b *Barrier) arrivals(ctx context.Context, oldest int64) ([]registration, error) {
	cur, err := b.Coll.Find(ctx, bson.D{{Key: "run", Value: b.RunID}, {Key: "arrived_ns", Value: bson.D{{Key: "$gte", Value: oldest}}}})
	if err != nil {
		return nil, fmt.Errorf("barrier: reading the parts of run %q from %s: %w", b.RunID, Collection, err)
	}
	var regs []registration
	if err := cur.All(ctx, &regs); err != nil {
		return nil, fmt.Errorf("barrier: reading the parts of run %q from %s: %w", b.RunID, Collection, err)
	}
	return regs, nil
}
