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
	plan, err := NewPlan(command, props(t, command, lines...), "", dims)
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
