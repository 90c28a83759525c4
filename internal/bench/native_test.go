package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/native"
)

// warmItems loads 20 items; its warmup phase inserts 15 more with one
// thread, its measure phase 25 with two.
const warmItems = `
collections:
  items:
    documents: 20
    document:
      _id: {^number: {}}
      price: {^double: {min: 1, max: 100}}
operations:
  - {name: add, kind: insertOne, collection: items}
phases:
  load: {count: 20}
  warmup: {count: 15}
  measure: {count: 25, threads: 2}
`

// nativePhase prepares and runs command's phase of f against url.
func nativePhase(t *testing.T, f *native.File, command, url string, props ...string) (*Outcome, Observation, notices) {
	t.Helper()
	phase, err := native.PhaseProperties(f, command)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range phase {
		props = append(props, kv.Key+"="+kv.Value)
	}
	var said notices
	set := settings(t, command, append(props, "mongodb.url="+url, "seed=7")...)
	p, err := Prepare(context.Background(), Target{Settings: set, Native: f, Notify: said.add})
	if err != nil {
		t.Fatalf("%s: prepare: %v", command, err)
	}
	defer p.Close(context.Background())
	out, obs, err := p.Run(context.Background(), Limits{})
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return out, obs, said
}

// TestNativeWarmupPhase: a run of a file with a warmup phase runs it
// first, with its own operations' count, and leaves it out of the
// phase's figures, as a YCSB warm-up is; its inserts take other numbers
// than the measured phase's, so none fails as a duplicate. -p warmuptime
// replaces the phase's length.
func TestNativeWarmupPhase(t *testing.T) {
	t.Parallel()
	f, err := native.Parse("items.yaml", []byte(warmItems), nil)
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("%swarm%d", embeddedtest.Server().URI(), dbCounter.Add(1))
	nativePhase(t, f, "load", url)
	out, obs, said := nativePhase(t, f, "run", url)
	add, err := db.NamedOp("add")
	if err != nil {
		t.Fatal(err)
	}
	if obs.Warmup == nil || obs.Warmup.Operations != 15 {
		t.Fatalf("warm-up %+v, want the warmup phase's 15 operations", obs.Warmup)
	}
	if !said.find(Info, "warm-up: 15 operations in ") {
		t.Errorf("notices %v do not say the warm-up ran", said)
	}
	if got := out.Summary.Operations; got != 25 {
		t.Errorf("the measured phase counts %d operations, want its own 25 only", got)
	}
	if got := out.Summary.Status[add][db.OK]; got != 25 {
		t.Errorf("%d inserts OK in the measured phase, want 25 (statuses %v)", got, out.Summary.Status[add])
	}
	c, err := mongo.Open(t.Context(), mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if n, err := c.Count(t.Context(), "items"); err != nil || n != 20+15+25 {
		t.Errorf("items holds %d documents (%v), want the load's 20, the warm-up's 15 and the phase's 25", n, err)
	}
}

// TestNativeWarmupLength: the warmup phase ends by its count or its
// duration, and -p warmuptime, when given, replaces both with a time.
func TestNativeWarmupLength(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ph         native.Phase
		warmupTime time.Duration
		length     time.Duration
		count      int64
	}{
		{native.Phase{Count: 15}, 0, 0, 15},
		{native.Phase{Duration: 30 * time.Second}, 0, 30 * time.Second, 0},
		{native.Phase{Count: 15}, 5 * time.Second, 5 * time.Second, 0},
		{native.Phase{Duration: 30 * time.Second}, 5 * time.Second, 5 * time.Second, 0},
	} {
		length, count := warmupLength(&tc.ph, tc.warmupTime)
		if length != tc.length || count != tc.count {
			t.Errorf("phase %+v, warmuptime %s: length %s, count %d; want %s, %d", tc.ph, tc.warmupTime, length, count, tc.length, tc.count)
		}
	}
}

// TestNativeDurationLoadAtOffset: a load phase that runs for a duration
// has no share of a count to start at, so a part past the first of a
// partitioned load (insertstart > 0) is refused before inserting what
// another part inserts.
func TestNativeDurationLoadAtOffset(t *testing.T) {
	t.Parallel()
	f, err := native.Parse("items.yaml", []byte(strings.Replace(warmItems, "load: {count: 20}", "load: {duration: 1s}", 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("%swarm%d", embeddedtest.Server().URI(), dbCounter.Add(1))
	set := settings(t, "load", "mongodb.url="+url, "table=items", "recordcount=20", "insertstart=10", "insertcount=10")
	_, err = Prepare(context.Background(), Target{Settings: set, Native: f})
	var ie InputError
	want := "items.yaml: its load phase runs for a duration, which cannot start at insertstart=10"
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want an InputError starting %q", err, want)
	}
}
