package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/measure/measuretest"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/store"
)

// TestSaidOnce checks that a saturated embedded server is said once per
// sweep, however many trials it runs, and again by the next sweep in the
// same process; a client-bound verdict is said after every trial. What is
// said follows each trial's diagnosis.
func TestSaidOnce(t *testing.T) {
	t.Parallel()
	twoCPUs := selfmon.Limits{NumCPU: 2, GOMAXPROCS: 2, Allowed: 2}
	verdict := func(kind string) *results.Diagnosis {
		return &results.Diagnosis{Verdict: kind, Limits: []results.Limit{{Kind: kind, Evidence: []string{"figures"}}}}
	}
	type phase struct {
		c bench.ClientReport
		d *results.Diagnosis
	}
	embedded := phase{bench.ClientReport{Usage: synthUsage(10*time.Second, 15*time.Second, 4*time.Second, twoCPUs, 0), SharesProcess: true}, verdict(diagnosis.ServerCPU)}
	bound := phase{bench.ClientReport{Usage: synthUsage(10*time.Second, 8*time.Second, time.Second, selfmon.Limits{NumCPU: 2, GOMAXPROCS: 1, Allowed: 1}, 0), Operations: 1000}, verdict(diagnosis.ClientCPU)}
	idle := phase{bench.ClientReport{Usage: synthUsage(10*time.Second, time.Second, 0, twoCPUs, 0), SharesProcess: true}, &results.Diagnosis{Verdict: results.NoLimitFound}}
	// The embedded server on a host others keep busy: said every time,
	// since it is not the machine's own limit.
	busy := phase{bench.ClientReport{Usage: synthUsage(10*time.Second, time.Second, 0, twoCPUs, 0), SharesProcess: true}, verdict(diagnosis.HostBusy)}
	// Held by its target: nothing to say, whatever the client used.
	held := phase{bound.c, verdict(diagnosis.Target)}
	tests := []struct {
		name string
		// commands are the reports of each command's phases, in order.
		commands [][]phase
		// said is, per command, which phases print a warning.
		said [][]bool
	}{
		{"embedded: once per command", [][]phase{{embedded, embedded, embedded}, {embedded, embedded}}, [][]bool{{true, false, false}, {true, false}}},
		{"client-bound: every phase", [][]phase{{bound, bound}, {bound}}, [][]bool{{true, true}, {true}}},
		{"nothing to say leaves the embedded warning unsaid", [][]phase{{idle, embedded, embedded}}, [][]bool{{false, true, false}}},
		{"a client-bound phase does not use up the embedded warning", [][]phase{{bound, embedded, bound, embedded}}, [][]bool{{true, true, true, false}}},
		{"a busy host is said every time", [][]phase{{busy, embedded, busy}}, [][]bool{{true, true, true}}},
		{"a held target says nothing", [][]phase{{held, held}}, [][]bool{{false, false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for i, phases := range tc.commands {
				said := &Sweep{}
				for j, p := range phases {
					if got := said.clientWarning(p.c, p.d) != ""; got != tc.said[i][j] {
						t.Errorf("command %d, phase %d: warned %t, want %t", i+1, j+1, got, tc.said[i][j])
					}
				}
			}
		})
	}
}

func synthUsage(wall, user, sys time.Duration, l selfmon.Limits, peak int64) selfmon.Usage {
	u := selfmon.Usage{Wall: wall, User: user, System: sys, Limits: l, PeakRSS: peak, CPUTimeAvailable: true}
	u.Utilization = (user + sys).Seconds() / (wall.Seconds() * l.Allowed)
	return u
}

func TestFileSafe(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"threadcount=4 mongodb.url=mongodb://h/x?w=1", "threadcount=4_mongodb.url=mongodb___h_x_w=1"},
		{"target=1000.5", "target=1000.5"},
		{strings.Repeat("a", 90), strings.Repeat("a", 80)},
	}
	for _, tc := range tests {
		if got := fileSafe(tc.in); got != tc.want {
			t.Errorf("fileSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// someResults is a run's results, as any reader of a results file has them.
func someResults(t *testing.T) *results.Results {
	t.Helper()
	res, err := results.NewResults(measuretest.Summary(t), results.Meta{Tool: results.Tool{Name: "mongobench"}, Phase: "run"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSweepOutDir checks the default output directory and that a sweep
// id is never reused, in a directory or in the store.
func TestSweepOutDir(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx := context.Background()
	st, err := store.Open("runs.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &Sweep{cfg: Config{Store: st}, ID: "20260101-000000"}
	dir, err := s.makeDir(ctx)
	if err != nil || dir != "sweep-20260101-000000" {
		t.Fatalf("first sweep: dir %q, err %v", dir, err)
	}
	s.ID = "20260101-000000"
	if dir, err = s.makeDir(ctx); err != nil || dir != "sweep-20260101-000000-2" || s.ID != "20260101-000000-2" {
		t.Fatalf("second sweep in the same second: dir %q, id %q, err %v", dir, s.ID, err)
	}
	if _, err := st.Save(ctx, someResults(t), store.SaveOptions{SweepID: "20260102-000000"}); err != nil {
		t.Fatal(err)
	}
	s = &Sweep{cfg: Config{OutDir: "mine", Store: st}, ID: "20260102-000000"}
	if dir, err = s.makeDir(ctx); err != nil || dir != "mine" || s.ID != "20260102-000000-2" {
		t.Fatalf("an id the store holds: dir %q, id %q, err %v", dir, s.ID, err)
	}
	if err := os.WriteFile(filepath.Join("mine", "x.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = &Sweep{cfg: Config{OutDir: "mine"}, ID: "20260103-000000"}
	if _, err := s.makeDir(ctx); err == nil || !strings.Contains(err.Error(), "already holds results files") {
		t.Errorf("an --out-dir with results in it: err %v", err)
	}
}

// events records what a sweep tells.
type events struct {
	notices []bench.Notice
}

func (e *events) Notice(n bench.Notice)              { e.notices = append(e.notices, n) }
func (e *events) TrialStarts(*Point, int, int, bool) {}
func (e *events) TrialDone(*Point, Trial, error)     {}
func (e *events) PointDone(*Point, []Trial)          {}
func (e *events) SeriesDone(*Series, []PointResult)  {}

// TestNoticeOnce: a warning is said once per sweep, however many trials
// repeat it; what the sweep did is said every time.
func TestNoticeOnce(t *testing.T) {
	t.Parallel()
	ev := &events{}
	s := &Sweep{cfg: Config{Events: ev}, said: map[string]bool{}}
	for _, n := range []bench.Notice{
		{Kind: bench.Warning, Text: "x"}, {Kind: bench.Info, Text: "loaded"}, {Kind: bench.Warning, Text: "x"},
		{Kind: bench.Info, Text: "loaded"}, {Kind: bench.Warning, Text: "y"},
	} {
		s.notice(n)
	}
	var got []string
	for _, n := range ev.notices {
		got = append(got, n.Text)
	}
	if want := "x loaded loaded y"; strings.Join(got, " ") != want {
		t.Errorf("said %q, want %q", strings.Join(got, " "), want)
	}
}
