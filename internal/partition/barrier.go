package partition

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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
	// DefaultLease is how long a registration counts as alive after its
	// part's last sign of life. A waiting part beats every Lead/4, one
	// that measures every Lease/3; a part killed (kill -9, its machine
	// lost) leaves a registration that lapses this long after.
	DefaultLease = 3 * time.Second
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
//
// A part counts only while it shows signs of life: a waiting part beats
// (a counter in its registration) every Lead/4, and the others count it
// once they have seen its counter move, so a part that died while waiting
// is not counted however recent its registration. Each registration
// carries a token of its process: a second process claiming a part of a
// run, or arriving while the run measures (Hold keeps a measuring part's
// registration alive), is a *ConflictError, and makes every waiting part
// of the run fail with it too.
type Barrier struct {
	Coll  *driver.Collection
	Clock Clock
	RunID string
	Part  Part
	// Timeout bounds the wait for the other parts, from this part's
	// arrival.
	Timeout time.Duration
	// Poll, Lead and Lease default to DefaultPoll, DefaultLead and
	// DefaultLease.
	Poll, Lead, Lease time.Duration

	token string // this process's, in its registration
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
	// Token names the process that registered; Beat counts its signs of
	// life, Seen is the last one on its clock.
	Token string `bson:"token"`
	Beat  int64  `bson:"beat"`
	Seen  int64  `bson:"seen_ns"`
	// Conflict, on the run's conflict document (Part -1), says why the
	// run cannot go on: every part that reads it stops.
	Conflict string `bson:"conflict,omitempty"`
}

// MissingError is the barrier's time running out: the parts that never
// arrived, or stopped showing signs of life.
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
	return fmt.Sprintf("%s not arrive within --barrier-timeout %s (run %q), or stopped answering while waiting: each part waits for all before it measures", what, e.Timeout, e.RunID)
}

// ConflictError is another process under the same run id: two runs
// started with one --run-id, or a part started twice.
type ConflictError struct {
	RunID  string
	Reason string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("run %q: %s: two runs under one --run-id, or a part started twice; give each run its own --run-id", e.RunID, e.Reason)
}

func (b *Barrier) timing() (poll, lead, lease time.Duration) {
	poll, lead, lease = b.Poll, b.Lead, b.Lease
	if poll <= 0 {
		poll = DefaultPoll
	}
	if lead <= 0 {
		lead = DefaultLead
	}
	if lease <= 0 {
		lease = DefaultLease
	}
	return poll, lead, lease
}

func (b *Barrier) id() string { return b.RunID + "/" + strconv.Itoa(b.Part.Index) }

// conflictID is the _id of the run's conflict document.
func (b *Barrier) conflictID() string { return b.RunID + "/conflict" }

// Wait registers this part and returns the instant every part of the
// run starts at, once all have arrived; a *MissingError when some have
// not within Timeout, a *ConflictError when another process claims the
// run. A part that does not pass leaves no registration behind, unless it
// is killed, and then its registration lapses.
func (b *Barrier) Wait(ctx context.Context) (_ time.Time, err error) {
	poll, lead, lease := b.timing()
	if b.Part.Whole() {
		return b.Clock.Now(), nil
	}
	me, arrived, err := b.register(ctx, lease)
	if err != nil {
		return time.Time{}, err
	}
	defer func() {
		if err != nil {
			b.deregister(ctx)
		}
	}()
	// Arrivals before this part's by more than the timeout are left over
	// from a run that timed out: its parts waited no longer than that.
	oldest := arrived.Add(-b.Timeout).UnixNano()
	beatEvery := lead / 4
	seen := map[string]*sighting{}
	lastBeat := arrived
	for {
		now := b.Clock.Now()
		if now.Sub(lastBeat) >= beatEvery {
			if err := b.beat(ctx, now); err != nil {
				return time.Time{}, err
			}
			lastBeat = now
		}
		regs, err := b.arrivals(ctx, oldest)
		if err != nil {
			return time.Time{}, err
		}
		missing, last, slowest, err := b.look(ctx, regs, me.ID, seen, now, lease)
		if err != nil {
			return time.Time{}, err
		}
		if len(missing) == 0 {
			return b.pass(ctx, time.Unix(0, last).Add(lead+roundTrips*time.Duration(slowest)), now)
		}
		if now.Sub(arrived) >= b.Timeout {
			return time.Time{}, &MissingError{RunID: b.RunID, Count: b.Part.Count, Missing: missing, Timeout: b.Timeout}
		}
		if err := b.Clock.Sleep(ctx, poll); err != nil {
			return time.Time{}, fmt.Errorf("barrier: waiting for the other parts: %w", err)
		}
	}
}

// register clears the run's lapsed registrations, refuses to join a run
// that is in conflict or already measuring, and registers this part under
// a token of its own.
func (b *Barrier) register(ctx context.Context, lease time.Duration) (_ registration, arrived time.Time, _ error) {
	tok := make([]byte, 8)
	_, _ = rand.Read(tok)
	b.token = hex.EncodeToString(tok)

	// Registrations without a sign of life for a lease are of parts
	// that ended (killed, or finished without cleaning up): they neither
	// count nor conflict.
	sent := b.Clock.Now()
	if _, err := b.Coll.DeleteMany(ctx, bson.D{{Key: "run", Value: b.RunID}, {Key: "$or", Value: bson.A{
		bson.D{{Key: "seen_ns", Value: bson.D{{Key: "$lt", Value: sent.Add(-lease).UnixNano()}}}},
		bson.D{{Key: "seen_ns", Value: bson.D{{Key: "$exists", Value: false}}}},
	}}}); err != nil {
		return registration{}, time.Time{}, fmt.Errorf("barrier: clearing run %q's old registrations in %s: %w", b.RunID, Collection, err)
	}
	live, err := b.arrivals(ctx, 0)
	if err != nil {
		return registration{}, time.Time{}, err
	}
	for _, r := range live {
		switch {
		case r.Conflict != "":
			return registration{}, time.Time{}, &ConflictError{RunID: b.RunID, Reason: r.Conflict}
		case r.StartAt > 0:
			return registration{}, time.Time{}, &ConflictError{RunID: b.RunID, Reason: fmt.Sprintf("part %d passed its barrier for a start at %s and still runs (its last sign of life %s ago)",
				r.Part, time.Unix(0, r.StartAt).UTC().Format(time.RFC3339Nano), sent.Sub(time.Unix(0, r.Seen)).Round(time.Millisecond))}
		}
	}
	arrived = b.Clock.Now()
	me := registration{ID: b.id(), Run: b.RunID, Part: b.Part.Index, Parts: b.Part.Count,
		Arrived: arrived.UnixNano(), RoundTrip: int64(arrived.Sub(sent)), Token: b.token, Seen: arrived.UnixNano()}
	if _, err := b.Coll.InsertOne(ctx, me); err != nil {
		if !driver.IsDuplicateKeyError(err) {
			return registration{}, time.Time{}, fmt.Errorf("barrier: registering part %s in %s: %w", b.Part, Collection, err)
		}
		reason := fmt.Sprintf("part %d is already registered by another process", b.Part.Index)
		var other registration
		if b.Coll.FindOne(ctx, bson.D{{Key: "_id", Value: me.ID}}).Decode(&other) == nil {
			reason += fmt.Sprintf(" (its last sign of life %s ago; a killed part's lapses after %s)", arrived.Sub(time.Unix(0, other.Seen)).Round(time.Millisecond), lease)
		}
		return registration{}, time.Time{}, b.conflict(ctx, reason)
	}
	return me, arrived, nil
}

// sighting is what a part last saw of another's registration.
type sighting struct {
	token string
	beat  int64
	at    time.Time // on this part's clock, when the beat was last seen to move
	moved bool
}

// look reads the registrations of one poll: which parts are missing, the
// latest arrival and the slowest round trip among those present. A part
// counts only while alive: this one, one already measuring, or one whose
// beat was seen to move within the lease.
func (b *Barrier) look(ctx context.Context, regs []registration, myID string, seen map[string]*sighting, now time.Time, lease time.Duration) (missing []int, last, slowest int64, err error) {
	present := make([]bool, b.Part.Count)
	for _, r := range regs {
		if r.Conflict != "" {
			return nil, 0, 0, &ConflictError{RunID: b.RunID, Reason: r.Conflict}
		}
		if r.Parts != b.Part.Count {
			return nil, 0, 0, fmt.Errorf("barrier: part %d of run %q registered as one of %d parts, this part as one of %d: give every part the same --parts (or a new --run-id)", r.Part, b.RunID, r.Parts, b.Part.Count)
		}
		alive := false
		switch {
		case r.ID == myID:
			if r.Token != b.token {
				return nil, 0, 0, b.conflict(ctx, fmt.Sprintf("part %d's registration was taken over by another process", b.Part.Index))
			}
			alive = true
		case r.StartAt > 0:
			// It saw every part, this one among them: it is measuring.
			alive = true
		default:
			s := seen[r.ID]
			if s == nil || s.token != r.Token || s.beat != r.Beat {
				// Moved since an earlier look: alive now. A first look
				// proves nothing, as a dead part's registration looks the
				// same.
				seen[r.ID] = &sighting{token: r.Token, beat: r.Beat, at: now, moved: s != nil && s.token == r.Token}
			}
			s = seen[r.ID]
			alive = s.moved && now.Sub(s.at) < lease
		}
		if !alive || r.Part < 0 || r.Part >= b.Part.Count {
			continue
		}
		present[r.Part] = true
		last = max(last, r.Arrived)
		slowest = max(slowest, r.RoundTrip)
	}
	for i, ok := range present {
		if !ok {
			missing = append(missing, i)
		}
	}
	return missing, last, slowest, nil
}

// pass records the start every part agreed on in this part's
// registration, which keeps later arrivals under the run id out.
func (b *Barrier) pass(ctx context.Context, start, now time.Time) (time.Time, error) {
	res, err := b.Coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: b.id()}, {Key: "token", Value: b.token}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "start_at_ns", Value: start.UnixNano()}, {Key: "seen_ns", Value: now.UnixNano()}}}})
	if err != nil {
		return time.Time{}, fmt.Errorf("barrier: recording part %s's start in %s: %w", b.Part, Collection, err)
	}
	if res.MatchedCount == 0 {
		return time.Time{}, b.conflict(ctx, fmt.Sprintf("part %d's registration was taken over or removed by another process", b.Part.Index))
	}
	return start, nil
}

// beat shows this part alive: its counter moves and its last sign of
// life is now. Its registration gone or another's is a conflict.
func (b *Barrier) beat(ctx context.Context, now time.Time) error {
	res, err := b.Coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: b.id()}, {Key: "token", Value: b.token}},
		bson.D{{Key: "$inc", Value: bson.D{{Key: "beat", Value: 1}}}, {Key: "$set", Value: bson.D{{Key: "seen_ns", Value: now.UnixNano()}}}})
	if err != nil {
		return fmt.Errorf("barrier: renewing part %s's registration in %s: %w", b.Part, Collection, err)
	}
	if res.MatchedCount == 0 {
		return b.conflict(ctx, fmt.Sprintf("part %d's registration was taken over or removed by another process", b.Part.Index))
	}
	return nil
}

// conflict records reason in the run's conflict document, which stops
// every part of the run that reads it, and returns it as the error.
func (b *Barrier) conflict(ctx context.Context, reason string) error {
	now := b.Clock.Now().UnixNano()
	_, _ = b.Coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: b.conflictID()}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "run", Value: b.RunID}, {Key: "part", Value: -1}, {Key: "parts", Value: b.Part.Count},
			{Key: "arrived_ns", Value: now}, {Key: "seen_ns", Value: now}, {Key: "conflict", Value: reason}}}},
		options.UpdateOne().SetUpsert(true))
	return &ConflictError{RunID: b.RunID, Reason: reason}
}

// deregister removes this part's registration, even when ctx has ended
// (a signal stopped the wait): a part that left must not be counted.
func (b *Barrier) deregister(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, _ = b.Coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: b.id()}, {Key: "token", Value: b.token}})
}

// Hold keeps this part's registration alive while it measures, so that a
// run started under the same id meanwhile is refused; release stops that
// and removes the registration. Only after Wait passed.
func (b *Barrier) Hold(ctx context.Context) (release func()) {
	if b.token == "" {
		return func() {}
	}
	_, _, lease := b.timing()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b.Clock.Sleep(ctx, lease/3) == nil {
			// A failed beat only lets the registration lapse early.
			_, _ = b.Coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: b.id()}, {Key: "token", Value: b.token}},
				bson.D{{Key: "$inc", Value: bson.D{{Key: "beat", Value: 1}}}, {Key: "$set", Value: bson.D{{Key: "seen_ns", Value: b.Clock.Now().UnixNano()}}}})
		}
	}()
	return func() {
		cancel()
		<-done
		b.deregister(ctx)
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

// IsConflict says whether err is another process under the same run id.
func IsConflict(err error) bool {
	var c *ConflictError
	return errors.As(err, &c)
}
