package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

func TestShortCollectionWarning(t *testing.T) {
	t.Parallel()
	spec := func(records int64, proportions ...float64) *workload.Spec {
		s := &workload.Spec{Table: "usertable", RecordCount: records}
		copy(s.Proportions[:], proportions)
		return s
	}
	tests := []struct {
		name string
		spec *workload.Spec
		n    int64
		want string
	}{
		{"workload c", spec(1000, 1), 300, `ycsb.usertable holds 300 documents, recordcount is 1000: about 70% of reads will be NOT_FOUND; run "mongobench load" with the same properties first, or set recordcount=300`},
		{"empty", spec(1000, 0.5, 0.5), 0, `ycsb.usertable holds 0 documents, recordcount is 1000: about 100% of reads and updates will be NOT_FOUND; run "mongobench load" with the same properties first`},
		{"every kind of lookup", spec(1000, 0.2, 0.2, 0.2, 0, 0.2, 0.2), 500, `ycsb.usertable holds 500 documents, recordcount is 1000: about 50% of reads, updates, read-modify-writes and deletes will be NOT_FOUND; run "mongobench load" with the same properties first, or set recordcount=500`},
		{"one missing of many", spec(1_000_000, 1), 999_999, `ycsb.usertable holds 999999 documents, recordcount is 1000000: under 1% of reads will be NOT_FOUND; run "mongobench load" with the same properties first, or set recordcount=999999`},
		{"all there", spec(1000, 1), 1000, ""},
		{"more than recordcount", spec(1000, 1), 5000, ""},
		// Inserts and scans look no key up.
		{"inserts only", spec(1000, 0, 0, 1), 0, ""},
		{"scans only", spec(1000, 0, 0, 0, 1), 10, ""},
	}
	for _, tt := range tests {
		if got := ShortCollectionWarning(tt.spec, "ycsb", tt.n); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestURLHosts: which hosts a URL names decides whether host metrics
// describe the server and whether the server shares the client's process.
func TestURLHosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url   string
		hosts []string
		local bool
	}{
		{"mongodb://127.0.0.1:27017/ycsb", []string{"127.0.0.1:27017"}, true},
		{"mongodb://localhost,[::1]:27018/?w=1", []string{"localhost", "[::1]:27018"}, true},
		{"mongodb://admin:p@ss/w0rd@node1:20000,127.0.0.1:20000/testdb?authSource=admin", []string{"node1:20000", "127.0.0.1:20000"}, false},
		{"mongodb+srv://u:p@cluster0.example.net/db", nil, false},
	}
	for _, tc := range tests {
		if got := urlHosts(tc.url); strings.Join(got, " ") != strings.Join(tc.hosts, " ") {
			t.Errorf("urlHosts(%q) = %q, want %q", tc.url, got, tc.hosts)
		}
		if got := IsLocalURL(tc.url); got != tc.local {
			t.Errorf("IsLocalURL(%q) = %v, want %v", tc.url, got, tc.local)
		}
	}
	if !ServedInProcess(embeddedtest.Server().URI()+"db") || ServedInProcess("mongodb://127.0.0.1:1/db") {
		t.Errorf("ServedInProcess: the package's embedded server is in this process, port 1 is not")
	}
}

// settings resolves a phase's settings from "key=value" lines, as the
// command line's properties would be.
func settings(t *testing.T, command string, props ...string) *Settings {
	t.Helper()
	p, err := workload.Parse(strings.NewReader(strings.Join(props, "\n")), "test")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := ResolveSpec(command, p)
	if err != nil {
		t.Fatal(err)
	}
	set, _, err := ResolveSettings(command, p, s, "")
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// notices collects a phase's notices.
type notices []Notice

func (n *notices) add(x Notice) { *n = append(*n, x) }

func (n notices) find(kind NoticeKind, part string) bool {
	for _, x := range n {
		if x.Kind == kind && strings.Contains(x.Text, part) {
			return true
		}
	}
	return false
}

// TestPrepareAndRun: a load with Drop, then runs on the same collection:
// one asking for more records than it holds is warned, as a value, one
// that inserts continues after the keys already there; each phase's
// outcome has its observation and no failure.
func TestPrepareAndRun(t *testing.T) {
	t.Parallel()
	url := fmt.Sprintf("%sprep%d", embeddedtest.Server().URI(), dbCounter.Add(1))
	phase := func(command string, drop bool, props ...string) (*Outcome, Observation, notices) {
		t.Helper()
		var said notices
		set := settings(t, command, append(props, "mongodb.url="+url, "threadcount=2", "seed=7")...)
		p, err := Prepare(context.Background(), Target{Settings: set, Drop: drop, Notify: said.add})
		if err != nil {
			t.Fatalf("%s: prepare: %v", command, err)
		}
		defer p.Close(context.Background())
		if p.Seed != 7 || p.Database != mongo.DatabaseFromURL(url) || p.Server != nil {
			t.Errorf("%s: prepared seed %d, database %q, server %v", command, p.Seed, p.Database, p.Server)
		}
		out, obs, err := p.Run(context.Background(), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", command, err)
		}
		if err := out.Failure(); err != nil {
			t.Errorf("%s: failure %v", command, err)
		}
		if obs.Topology == nil || obs.SizesBefore == nil || obs.SizesAfter == nil {
			t.Errorf("%s: observation %+v lacks the topology or sizes", command, obs)
		}
		return out, obs, said
	}
	out, _, said := phase("load", true, "recordcount=40", "insertcount=40")
	if got := out.Summary.Status[db.Insert][db.OK]; got != 40 {
		t.Errorf("load: %d inserts OK, want 40", got)
	}
	if !said.find(Info, "dropped ") {
		t.Errorf("load with Drop: notices %v lack the drop", said)
	}
	_, obs, said := phase("run", false, "recordcount=100", "operationcount=20", "readproportion=1", "updateproportion=0")
	if !said.find(Warning, "holds 40 documents, recordcount is 100: about 60% of reads will be NOT_FOUND") {
		t.Errorf("run on 40 of 100 records: notices %v lack the warning", said)
	}
	if obs.SizesAfter.CollectionError != "" {
		t.Errorf("sizes after: %q", obs.SizesAfter.CollectionError)
	}
	_, _, said = phase("run", false, "recordcount=40", "operationcount=10", "readproportion=0", "updateproportion=0", "insertproportion=1")
	if len(said) != 0 {
		t.Errorf("run of inserts after a load of exactly recordcount: notices %v, want none", said)
	}
	_, _, said = phase("run", false, "recordcount=40", "operationcount=5", "readproportion=0", "updateproportion=0", "insertproportion=1")
	if !said.find(Info, "already holds keys up to number 49 from earlier runs") {
		t.Errorf("run after 10 inserts: notices %v lack where inserts continue", said)
	}
}

// TestPrepareStopped: a stop before anything is prepared ends Prepare at
// its first step with an *Interrupted error and leaves nothing open.
func TestPrepareStopped(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	close(stop)
	set := settings(t, "run", fmt.Sprintf("mongodb.url=%sstopped%d", embeddedtest.Server().URI(), dbCounter.Add(1)), "recordcount=10", "operationcount=10", "operationcount=10")
	_, err := Prepare(context.Background(), Target{Settings: set, Stop: stop})
	var intr *Interrupted
	if !errors.As(err, &intr) || !strings.HasPrefix(intr.Step, "connecting to ") && !strings.HasPrefix(intr.Step, "counting the documents") {
		t.Fatalf("Prepare after a stop: %v, want an *Interrupted while connecting or counting", err)
	}
}

// TestOutcomeFailure: the phase's verdict on itself names the limit that
// stopped it, or that every operation failed.
func TestOutcomeFailure(t *testing.T) {
	t.Parallel()
	summary := func(ok, failed int64) *measure.Summary {
		s := &measure.Summary{Operations: ok + failed}
		s.Status[db.Read][db.OK] = ok
		s.Status[db.Read][db.Error] = failed
		return s
	}
	tests := []struct {
		name string
		o    Outcome
		want string
	}{
		{"fine", Outcome{Summary: summary(10, 2)}, ""},
		{"all failed", Outcome{Summary: summary(0, 3)}, "every one of the 3 operations failed (see the Return= and Error lines)"},
		{"max errors", Outcome{Summary: summary(5, 9), maxErrors: 9, ErrorStop: &results.ErrorStop{Flag: "--max-errors", Limit: 9, Failed: 9}},
			"stopped after 9 failed operations (--max-errors 9); the summary and results cover what ran"},
		{"error rate", Outcome{Summary: summary(5, 9), ErrorStop: &results.ErrorStop{Flag: "--max-error-rate", Reason: "60% failed"}},
			"stopped early: 60% failed; the summary and results cover what ran"},
	}
	for _, tc := range tests {
		got := ""
		if err := tc.o.Failure(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPreloadSpec: the preload before a run on the empty embedded server
// loads the run's records unthrottled and to the end, whatever the run's
// -target, time limit and warm-up.
func TestPreloadSpec(t *testing.T) {
	t.Parallel()
	p := workload.NewProperties()
	for k, v := range map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000", "fieldcount": "3",
		"readproportion": "1", "target": "10", "maxexecutiontime": "5", "warmuptime": "2",
	} {
		p.Set(k, v, "test")
	}
	run, _, err := workload.Resolve(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if run.Target != 10 || run.MaxExecutionTime == 0 || run.WarmupTime == 0 {
		t.Fatalf("the run's spec: target %v, maxexecutiontime %v, warm-up %v: the test's properties were not taken", run.Target, run.MaxExecutionTime, run.WarmupTime)
	}
	got := preloadSpec(run)
	if got.Transactions || got.Target != 0 || got.MaxExecutionTime != 0 || got.WarmupTime != 0 {
		t.Errorf("preload: load phase %v, target %v, maxexecutiontime %v, warm-up %v; want a load, unthrottled, unbounded, no warm-up",
			!got.Transactions, got.Target, got.MaxExecutionTime, got.WarmupTime)
	}
	if got.RecordCount != 1000 || got.FieldCount != 3 || got.InsertCount != run.InsertCount {
		t.Errorf("preload loads %d records of %d fields (%d inserts); want the run's %d of %d (%d)",
			got.RecordCount, got.FieldCount, got.InsertCount, run.RecordCount, run.FieldCount, run.InsertCount)
	}
	if run.Target != 10 || !run.Transactions {
		t.Errorf("preloadSpec changed the run's own spec")
	}
}

// TestWirePath: mongodb.path chooses the binding's wire path (driver by
// default), a bad value is refused naming the accepted ones, and a phase
// on the lean path says what it leaves to the driver's.
func TestWirePath(t *testing.T) {
	t.Parallel()
	if got := settings(t, "run", "recordcount=10", "operationcount=10").Path; got != mongo.PathDriver {
		t.Errorf("default path %q, want %q", got, mongo.PathDriver)
	}
	if got := settings(t, "run", "recordcount=10", "operationcount=10", "mongodb.path=lean").Path; got != mongo.PathLean {
		t.Errorf("mongodb.path=lean: path %q", got)
	}
	p, err := workload.Parse(strings.NewReader("recordcount=10\noperationcount=10\nmongodb.path=fast"), "test")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := ResolveSpec("run", p)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ResolveSettings("run", p, s, "")
	var ie InputError
	if !errors.As(err, &ie) || err.Error() != `mongodb.path="fast" is invalid: expected driver or lean` {
		t.Errorf("mongodb.path=fast: %v", err)
	}

	url := fmt.Sprintf("%sprep%d", embeddedtest.Server().URI(), dbCounter.Add(1))
	var said notices
	set := settings(t, "load", "mongodb.url="+url, "mongodb.path=lean", "recordcount=10", "operationcount=10", "threadcount=2")
	prep, err := Prepare(context.Background(), Target{Settings: set, Drop: true, Notify: said.add})
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close(context.Background())
	if !said.find(Info, "mongodb.path=lean: the lean wire path takes what it covers; to the driver's path go scan:") {
		t.Errorf("no notice of what the lean path leaves to the driver: %+v", said)
	}
	out, _, err := prep.Run(context.Background(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Summary.Status[db.Insert][db.OK]; got != 10 {
		t.Errorf("load on the lean path: %d inserts OK, want 10", got)
	}
}
