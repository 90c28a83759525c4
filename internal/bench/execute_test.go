package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/results"
)

// recordingSink counts the intervals it is given.
type recordingSink struct{ opened, intervals, closed int }

func (s *recordingSink) Open(Phase) error         { s.opened++; return nil }
func (s *recordingSink) Interval(Update) error    { s.intervals++; return nil }
func (s *recordingSink) Close(partial bool) error { s.closed++; return nil }

// TestExecute runs one load through the pipeline every caller shares:
// its metadata from the preparation, the journal written beside the
// other sinks, the disks judged, the results assembled, and the caller's
// last word said before the connections close.
func TestExecute(t *testing.T) {
	t.Parallel()
	url := fmt.Sprintf("%sexec%d", embeddedtest.Server().URI(), dbCounter.Add(1))
	journal := filepath.Join(t.TempDir(), "load.json"+results.JournalSuffix)
	display := &recordingSink{}
	var metaDB string
	ceilings, closed := 0, 0
	done, err := Execute(context.Background(), Execution{
		Target: Target{Settings: settings(t, "load", "mongodb.url="+url, "recordcount=30", "seed=3")},
		Meta: func(p *Prepared) results.Meta {
			metaDB = p.Database
			return results.Meta{Phase: "load", Label: "exec", Config: map[string]string{"seed": fmt.Sprint(p.Seed)}}
		},
		Journal:      journal,
		Display:      []Sink{display},
		DiskCeilings: func(context.Context) []*results.DiskCeiling { ceilings++; return nil },
		BeforeClose:  func() { closed++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if done.ResultsErr != nil || done.Results == nil || done.Results.Operations != 30 || done.Results.Label != "exec" || done.Results.Config["seed"] != "3" {
		t.Fatalf("results %+v, error %v; want 30 operations labelled exec with seed 3", done.Results, done.ResultsErr)
	}
	if done.Database != metaDB || done.Database == "" {
		t.Errorf("database %q, the preparation's %q", done.Database, metaDB)
	}
	if fi, err := os.Stat(journal); err != nil || fi.Size() == 0 {
		t.Errorf("no journal written: %v", err)
	}
	if display.opened != 1 || display.intervals == 0 || display.closed != 1 {
		t.Errorf("the display sink was opened %d, fed %d and closed %d times", display.opened, display.intervals, display.closed)
	}
	if ceilings != 1 || closed != 1 {
		t.Errorf("disk ceilings read %d times, BeforeClose called %d times; want once each", ceilings, closed)
	}
	// A failed preparation says so, and the caller's last word is not
	// said: nothing was held.
	closed = 0
	_, err = Execute(context.Background(), Execution{
		Target:      Target{Settings: settings(t, "load", "mongodb.url=mongodb://127.0.0.1:1/x", "recordcount=5", "mongodb.connecttimeout=1")},
		Meta:        func(*Prepared) results.Meta { return results.Meta{} },
		BeforeClose: func() { closed++ },
	})
	if err == nil || closed != 0 {
		t.Errorf("against no server: error %v, BeforeClose called %d times", err, closed)
	}
}

func TestDuplicateKeyNote(t *testing.T) {
	t.Parallel()
	o := &Outcome{}
	o.Result.DuplicateKeys = 3
	if got, want := o.DuplicateKeyNote("load", "ycsb", "usertable"), "3 inserts failed on duplicate keys: ycsb.usertable already holds these records; load again with -p mongodb.upsert=true, or drop the collection first (--drop)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := o.DuplicateKeyNote("run", "ycsb", "usertable"); got != "" {
		t.Errorf("a run's note %q, want none", got)
	}
}
