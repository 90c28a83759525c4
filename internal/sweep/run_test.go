package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
)

// recorder records a sweep's events in order, as lines.
type recorder struct {
	lines []string
	done  map[string][]PointResult // series label → its points
}

func (r *recorder) Notice(n bench.Notice) {
	kind := "info"
	if n.Kind == bench.Warning {
		kind = "warning"
	}
	r.lines = append(r.lines, kind+": "+n.Text)
}

func (r *recorder) TrialStarts(p *Point, trial, total int, warm bool) {
	r.lines = append(r.lines, fmt.Sprintf("start %s %d/%d warm=%t", p.Label, trial, total, warm))
}

func (r *recorder) TrialDone(p *Point, t Trial, err error) {
	r.lines = append(r.lines, fmt.Sprintf("done %s %d err=%v", p.Label, t.Trial, err))
}

func (r *recorder) PointDone(p *Point, trials []Trial) {
	r.lines = append(r.lines, fmt.Sprintf("point %s %d", p.Label, len(trials)))
}

func (r *recorder) SeriesDone(s *Series, done []PointResult) {
	if r.done == nil {
		r.done = map[string][]PointResult{}
	}
	r.done[s.Label] = done
	r.lines = append(r.lines, fmt.Sprintf("series %q %d", s.Label, len(done)))
}

func (r *recorder) count(prefix string) int {
	n := 0
	for _, l := range r.lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// sweepOf plans and starts a sweep into a directory of the test's own.
func sweepOf(t *testing.T, command string, dims []Dim, cfg Config, lines ...string) (*Sweep, *recorder) {
	t.Helper()
	plan, err := NewPlan(t.Context(), command, props(t, command, lines...), "", dims)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cfg.Events = rec
	if cfg.Repeat == 0 {
		cfg.Repeat = 1
	}
	cfg.OutDir = filepath.Join(t.TempDir(), "out")
	s, err := Start(context.Background(), plan, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, rec
}

// TestRunSweep: a run sweep over two thread counts, two trials each, the
// first a warm-up: the data is loaded once, into the empty collection;
// every trial is written, marked with its place, saved in the store and
// told of in order; the warm-up does not count.
func TestRunSweep(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// A baseline of a disk no run uses: the trials' diagnoses say they
	// were judged without it, which shows they were given it.
	if _, err := st.SaveDiskBaseline(context.Background(), &results.DiskBaseline{Device: "mongobench-test-disk",
		Tests: []results.DiskTest{{Name: "randwrite-qd32", Pattern: results.RandWrite, IOPS: 9800}}}); err != nil {
		t.Fatal(err)
	}
	s, rec := sweepOf(t, "run", []Dim{{Name: "threadcount", Values: []string{"1", "2"}}},
		Config{DiscardFirst: true, Store: st, Tool: results.Tool{Name: "mongobench"}, CommandLine: []string{"mongobench", "run"}},
		"mongodb.url="+freshURL(), "recordcount=30", "operationcount=40", "readproportion=1", "updateproportion=0")
	if err := s.Run(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(rec.lines, "\n"))
	}
	want := []string{"start threadcount=1 1/2 warm=true", "done threadcount=1 1 err=<nil>", "start threadcount=1 2/2 warm=false",
		"done threadcount=1 2 err=<nil>", "point threadcount=1 2", "start threadcount=2 1/2 warm=true", "done threadcount=2 1 err=<nil>",
		"start threadcount=2 2/2 warm=false", "done threadcount=2 2 err=<nil>", "point threadcount=2 2", `series "" 2`}
	var events []string
	for _, l := range rec.lines {
		if !strings.HasPrefix(l, "info: ") && !strings.HasPrefix(l, "warning: ") {
			events = append(events, l)
		}
	}
	if !slices.Equal(events, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	if n := rec.count("info: sweep " + s.ID + ": loading 30 records into "); n != 1 {
		t.Errorf("%d loads, want 1 (into the empty collection):\n%s", n, strings.Join(rec.lines, "\n"))
	}
	if len(s.IDs) != 4 || s.Unsaved != 0 {
		t.Errorf("saved %v, unsaved %d; want 4 runs saved", s.IDs, s.Unsaved)
	}
	done := rec.done[""]
	for i, pr := range done {
		if len(pr.Trials) != 2 || pr.Trials[0].Counts() || !pr.Trials[1].Counts() {
			t.Fatalf("point %d: trials %+v: want a warm-up that does not count, then one that does", i, pr.Trials)
		}
		tr := pr.Trials[1]
		file := filepath.Join(s.Dir, fmt.Sprintf("p%02d-threadcount=%d-t2.json", i+1, i+1))
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		res, err := results.ReadJSON(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		m := res.Extra.Sweep
		if m == nil || m.ID != s.ID || m.Trial != 2 || m.Warmup || m.Point["threadcount"] != fmt.Sprint(i+1) {
			t.Errorf("%s: sweep mark %+v", file, m)
		}
		if res.Config["threadcount"] != fmt.Sprint(i+1) || res.Status[db.Read.String()]["OK"] != 40 {
			t.Errorf("%s: threadcount %s, reads %v; want %d threads, 40 reads OK", file, res.Config["threadcount"], res.Status, i+1)
		}
		if tr.Figures.Throughput <= 0 || tr.Figures.Ops["READ"] == nil || tr.Figures.Ops["READ"].Count != 40 {
			t.Errorf("point %d: figures %+v", i+1, tr.Figures)
		}
		if d := res.Extra.Diagnosis; d == nil {
			t.Errorf("%s holds no diagnosis", file)
		} else if _, ok := diagnosis.BusiestDisk(res); ok && !slices.ContainsFunc(d.Notes, func(n string) bool {
			return strings.HasPrefix(n, "the disk baselines measured mongobench-test-disk, not ")
		}) {
			t.Errorf("%s: the diagnosis's notes %q do not name the store's baseline", file, d.Notes)
		}
		if _, err := os.Stat(file + results.JournalSuffix); err != nil {
			t.Errorf("no journal beside %s: %v", file, err)
		}
		if got := strings.Join(res.Command, " "); !strings.HasSuffix(got, fmt.Sprintf("-p threadcount=%d -p exportfile= --out %s", i+1, file)) {
			t.Errorf("%s: command %q", file, got)
		}
	}
}

// TestReloadEveryTrial: with Reload the data is loaded before every
// trial, the warm-up's included, so that each starts from the same data.
func TestReloadEveryTrial(t *testing.T) {
	t.Parallel()
	reload := true
	s, rec := sweepOf(t, "run", nil, Config{Repeat: 2, Reload: &reload},
		"mongodb.url="+freshURL(), "recordcount=20", "operationcount=20", "readproportion=0", "updateproportion=0", "insertproportion=1")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := rec.count("info: sweep " + s.ID + ": loading 20 records into "); n != 2 {
		t.Errorf("%d loads, want one per trial:\n%s", n, strings.Join(rec.lines, "\n"))
	}
	// Each trial's inserts start after the records loaded, not after the
	// previous trial's: the reload dropped them.
	if n := rec.count("info: ") - rec.count("info: sweep "); n != 0 {
		t.Errorf("a trial said where earlier inserts ended, after a reload:\n%s", strings.Join(rec.lines, "\n"))
	}
}

// TestLoadSweep: a load sweep drops the collection before every trial, so
// that each inserts every record into nothing.
func TestLoadSweep(t *testing.T) {
	t.Parallel()
	s, rec := sweepOf(t, "load", []Dim{{Name: "recordcount", Values: []string{"10", "25"}}}, Config{Repeat: 2},
		"mongodb.url="+freshURL())
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, pr := range rec.done[""] {
		for _, tr := range pr.Trials {
			want := []int64{10, 25}[i]
			if got := tr.Results.Status["INSERT"]["OK"]; got != want {
				t.Errorf("point %s trial %d: %d inserts OK, want %d (none a duplicate)", pr.Point.Label, tr.Trial, got, want)
			}
		}
	}
}

// TestAutoThreads: threadcount=auto doubles the threads from 1 until the
// knee rule stops it, here at its thread limit.
func TestAutoThreads(t *testing.T) {
	t.Parallel()
	s, rec := sweepOf(t, "run", []Dim{{Name: "threadcount", Auto: true}},
		Config{Knee: stats.KneeOptions{MaxX: 4, MinThroughputGain: 1e6, MinLatencyGrowth: 1e6}},
		"mongodb.url="+freshURL(), "recordcount=20", "operationcount=20", "readproportion=1", "updateproportion=0")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var threads []string
	for _, pr := range rec.done[""] {
		threads = append(threads, pr.Point.Values["threadcount"])
	}
	if got := strings.Join(threads, " "); got != "1 2 4" {
		t.Errorf("threads %q, want 1 2 4 (doubling up to the limit)", got)
	}
}

// TestStopBeforeTrial: a stop before the sweep runs ends it at once,
// with ErrStopped and nothing run.
func TestStopBeforeTrial(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	close(stop)
	s, rec := sweepOf(t, "run", []Dim{{Name: "threadcount", Values: []string{"1", "2"}}}, Config{Stop: stop},
		"mongodb.url="+freshURL(), "recordcount=20", "operationcount=20")
	if err := s.Run(context.Background()); err != ErrStopped {
		t.Fatalf("err %v, want ErrStopped", err)
	}
	if n := rec.count("start "); n != 0 {
		t.Errorf("%d trials started after the stop", n)
	}
}

// count is the number of documents in url's usertable.
func count(t *testing.T, url string) int64 {
	t.Helper()
	c, err := mongo.Open(context.Background(), mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	n, err := c.Count(context.Background(), "usertable")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// carried is what a run says when it finds an earlier run's inserts.
const carried = "from earlier runs: inserts continue after them"

// TestReloadPoints: with Reload every point starts from the data as
// loaded, so the inserts of one point are gone before the next; by
// default operationcount does not shape the data, so it is loaded once
// and each point's inserts stay for the next, which inserts after them.
func TestReloadPoints(t *testing.T) {
	t.Parallel()
	sweep := func(reload *bool) (*Sweep, *recorder, int64) {
		url := freshURL()
		s, rec := sweepOf(t, "run", []Dim{{Name: "operationcount", Values: []string{"30", "20", "10"}}}, Config{Reload: reload},
			"mongodb.url="+url, "recordcount=50", "readproportion=0", "updateproportion=0", "insertproportion=1")
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, pr := range rec.done[""] {
			if got, want := pr.Trials[0].Results.Status["INSERT"]["OK"], pr.Point.Values["operationcount"]; fmt.Sprint(got) != want {
				t.Errorf("operationcount %s: %d inserts OK", want, got)
			}
		}
		return s, rec, count(t, url)
	}
	reload := true
	s, rec, n := sweep(&reload)
	for _, p := range []string{"30", "20", "10"} {
		if rec.count("info: sweep "+s.ID+": loading 50 records into ") != 3 || !slices.ContainsFunc(rec.lines, func(l string) bool {
			return strings.HasSuffix(l, "usertable for operationcount="+p)
		}) {
			t.Errorf("reload: no load for operationcount=%s before it:\n%s", p, strings.Join(rec.lines, "\n"))
		}
	}
	if rec.count("info: ") != rec.count("info: sweep ") || n != 50+10 {
		t.Errorf("reload: %d documents after the sweep, want 60 (the 50 loaded and the last point's 10), and no point finding another's inserts:\n%s", n, strings.Join(rec.lines, "\n"))
	}

	s, rec, n = sweep(nil)
	if rec.count("info: sweep "+s.ID+": loading 50 records into ") != 1 || !slices.ContainsFunc(rec.lines, func(l string) bool { return strings.HasSuffix(l, "usertable for the sweep") }) {
		t.Errorf("default: want one load for the whole sweep:\n%s", strings.Join(rec.lines, "\n"))
	}
	for _, last := range []string{"79", "99"} {
		if rec.count("info: ") == 0 || !slices.ContainsFunc(rec.lines, func(l string) bool { return strings.Contains(l, "already holds keys up to number "+last+" "+carried) }) {
			t.Errorf("default: no point found the inserts up to key %s:\n%s", last, strings.Join(rec.lines, "\n"))
		}
	}
	if n != 50+30+20+10 {
		t.Errorf("default: %d documents after the sweep, want 110: every point's inserts stay", n)
	}
}

// TestReloadTrialsInOrder: with Reload and a warm-up, each trial's load
// comes before it and says which trial it prepares; no trial finds the
// inserts of the one before.
func TestReloadTrialsInOrder(t *testing.T) {
	t.Parallel()
	reload := true
	url := freshURL()
	s, rec := sweepOf(t, "run", []Dim{{Name: "operationcount", Values: []string{"30", "20"}}}, Config{Repeat: 2, DiscardFirst: true, Reload: &reload},
		"mongodb.url="+url, "recordcount=50", "readproportion=0", "updateproportion=0", "insertproportion=1")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"30", "20"} {
		for trial := 1; trial <= 3; trial++ {
			load := slices.IndexFunc(rec.lines, func(l string) bool {
				return strings.HasSuffix(l, fmt.Sprintf("usertable for operationcount=%s, trial %d/3", p, trial))
			})
			start := slices.Index(rec.lines, fmt.Sprintf("start operationcount=%s %d/3 warm=%t", p, trial, trial == 1))
			if load < 0 || start < 0 || load > start {
				t.Errorf("operationcount=%s trial %d: load at %d, start at %d: want the load first:\n%s", p, trial, load, start, strings.Join(rec.lines, "\n"))
			}
		}
	}
	if rec.count("info: ") != rec.count("info: sweep ") {
		t.Errorf("a trial found an earlier trial's inserts:\n%s", strings.Join(rec.lines, "\n"))
	}
	if n := count(t, url); n != 50+20 {
		t.Errorf("%d documents after the sweep, want 70: the 50 loaded and the last trial's 20", n)
	}
}

// TestNoReload: Reload false loads once, into the empty collection, even
// when a varied property shapes the data, and the plan warns of it; by
// default recordcount loads each point's data.
func TestNoReload(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reload     *bool
		loads      []string
		docs       int64
		warnedPlan bool
	}{
		{new(bool), []string{"80"}, 80, true},
		{nil, []string{"80", "50"}, 50, false},
	} {
		url := freshURL()
		s, rec := sweepOf(t, "run", []Dim{{Name: "recordcount", Values: []string{"80", "50"}}}, Config{Reload: tc.reload},
			"mongodb.url="+url, "operationcount=20")
		if got := NoReloadWarning(s.plan, tc.reload) != ""; got != tc.warnedPlan {
			t.Errorf("reload %v: warned %t", tc.reload, got)
		}
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		var loads []string
		for _, l := range rec.lines {
			if _, rest, ok := strings.Cut(l, ": loading "); ok {
				loads = append(loads, strings.Fields(rest)[0])
			}
		}
		if !slices.Equal(loads, tc.loads) || count(t, url) != tc.docs {
			t.Errorf("reload %v: loads %v, %d documents; want %v and %d", tc.reload, loads, count(t, url), tc.loads, tc.docs)
		}
	}
}

// TestMatrix: threads vary fastest, so each recordcount's load serves a
// whole series, once; each series is told of with its label.
func TestMatrix(t *testing.T) {
	t.Parallel()
	url := freshURL()
	s, rec := sweepOf(t, "run", []Dim{{Name: "threadcount", Values: []string{"1", "2"}}, {Name: "recordcount", Values: []string{"100", "150"}}}, Config{},
		"mongodb.url="+url, "operationcount=50", "readproportion=1", "updateproportion=0")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, l := range rec.lines {
		if strings.HasPrefix(l, "start ") || strings.HasPrefix(l, "series ") || strings.Contains(l, ": loading ") {
			order = append(order, l)
		}
	}
	dbName := mongo.DatabaseFromURL(url)
	want := []string{
		"info: sweep " + s.ID + ": loading 100 records into " + dbName + ".usertable for threadcount=1 recordcount=100",
		"start threadcount=1 recordcount=100 1/1 warm=false", "start threadcount=2 recordcount=100 1/1 warm=false", `series "recordcount=100" 2`,
		"info: sweep " + s.ID + ": loading 150 records into " + dbName + ".usertable for threadcount=1 recordcount=150",
		"start threadcount=1 recordcount=150 1/1 warm=false", "start threadcount=2 recordcount=150 1/1 warm=false", `series "recordcount=150" 2`,
	}
	if !slices.Equal(order, want) {
		t.Errorf("ran:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	if n := count(t, url); n != 150 {
		t.Errorf("%d documents after the sweep, want 150", n)
	}
}
