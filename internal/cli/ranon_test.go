package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/sweep/sweeptext"
	"github.com/mongobench/mongobench/internal/threshold"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/sweep"
)

// The sweeps recorded for these tests, against the embedded server on a
// busy two-core machine: workload A with 40% inserts over 1, 2 and 4
// threads without a reload (the data grew along the sweep) and with
// --reload (it did not), and workload A at targets of 250 to 4,000 ops/s
// from one thread.
const (
	recordedInserts = "testdata/recorded/thread-sweep-inserts"
	recordedReload  = "testdata/recorded/thread-sweep-inserts-reload"
	recordedRate    = "testdata/recorded/rate-sweep"
)

// TestReportOfRecordedSweeps pins what the page says of recorded sweeps
// before its charts: its warnings, the sweep's verdict (a knee, or for a
// rate sweep the targets kept) and what each configuration ran on.
func TestReportOfRecordedSweeps(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, refs := range [][]string{{recordedInserts}, {recordedRate}, {recordedInserts, recordedReload}} {
		o, err := parseReportArgs(append(append([]string(nil), refs...), "--store", filepath.Join(t.TempDir(), "none.db")))
		if err != nil {
			t.Fatal(err)
		}
		src := &runSource{storePath: o.store.path}
		groups, err := src.loadGroups(context.Background(), o.refs)
		src.close()
		if err != nil {
			t.Fatal(err)
		}
		in, _, err := reportPage(o, groups)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== report %s\n", strings.Join(refs, " "))
		for _, w := range in.Warnings {
			fmt.Fprintf(&b, "warning: %s\n", w)
		}
		if in.Sweep != nil {
			fmt.Fprintf(&b, "sweep: %s\n", in.Sweep.KneeSentence)
		}
		if in.Study != nil {
			for _, s := range in.Study.Series {
				fmt.Fprintf(&b, "line %s: %s\n", s.Name, s.KneeSentence)
			}
		}
		for _, r := range in.RanOn.Rows {
			fmt.Fprintf(&b, "ran on: %s: %s\n", r.Property, strings.Join(r.Values, " | "))
		}
		for _, r := range in.RanOn.Differ {
			fmt.Fprintf(&b, "differ: %s: %s\n", r.Property, strings.Join(r.Values, " | "))
		}
		for _, r := range in.RanOn.Varied {
			fmt.Fprintf(&b, "varied: %s: %s\n", r.Property, strings.Join(r.Values, " | "))
		}
	}
	golden.Check(t, "report_recorded.golden", b.String())
}

// TestCompareRecordedSweeps pins compare's lines on what the
// configurations ran on and its warning on the sweep whose data grew.
func TestCompareRecordedSweeps(t *testing.T) {
	t.Parallel()
	r := experiment(t, runCompare, recordedInserts, recordedReload, "--store", filepath.Join(t.TempDir(), "none.db"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	head, _, _ := strings.Cut(r.stdout, "\nlatency: ")
	golden.Check(t, "compare_recorded.golden", head+"\n")
}

// recordedDone reads a recorded sweep as the sweep reports its finished
// points: one trial each.
func recordedDone(t *testing.T, dir string) []sweep.PointResult {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("recorded sweep %s: %v, %d files", dir, err, len(files))
	}
	var done []sweep.PointResult
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := results.ReadJSON(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		p := &sweep.Point{Values: res.Extra.Sweep.Point, Label: res.Extra.Sweep.Label()}
		done = append(done, sweep.PointResult{Point: p, Trials: []sweep.Trial{{Trial: 1, Results: res}}})
	}
	return done
}

// TestSweepRateLine checks the line a rate sweep prints after its table,
// on the recorded rate sweep: the targets it kept, not a knee.
func TestSweepRateLine(t *testing.T) {
	t.Parallel()
	done := recordedDone(t, recordedRate)
	got := sweep.SeriesFinding("target", stats.KneeOptions{}, &sweep.Series{}, done)
	want := "rate: kept none of the targets: at 250 ops/s the rate was reached (250 ops/s) but 876 operations (44%) started late and intended p99 reached 160 ms"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Workload A inserts nothing: its data stayed put.
	if c := sweep.DataSizeConfounder([]string{"target"}, "target", done); c != "" {
		t.Errorf("a sweep without inserts flagged: %q", c)
	}
}

// TestFindMaxSaysNoRateLine: a find-max search says its own answer, so
// its series gets no rate verdict beside it (one that judges every target
// kept would read as a contradiction); the same trials as a rate sweep do.
func TestFindMaxSaysNoRateLine(t *testing.T) {
	t.Parallel()
	done := recordedDone(t, recordedRate)
	for _, tc := range []struct {
		findMax []threshold.Threshold
		lines   int
	}{{nil, 1}, {[]threshold.Threshold{{Op: threshold.Overall}}, 0}} {
		var out strings.Builder
		pr := &sweeptext.Progress{Stdout: &out, Stderr: io.Discard, FindMax: tc.findMax != nil,
			Plan: &sweep.Plan{X: "target", Varied: []string{"target"}, Series: []*sweep.Series{{}}}, Sweep: &sweep.Sweep{ID: "s"}}
		pr.SeriesDone(&sweep.Series{}, done)
		pr.Knees()
		knees := strings.Fields(strings.TrimSpace(out.String()))
		if lines := strings.Count(out.String(), "\n") / 2; lines != tc.lines || (tc.lines == 1 && knees[0] != "rate:") {
			t.Errorf("find-max %v: printed %q, want %d rate line", tc.findMax != nil, out.String(), tc.lines)
		}
	}
}

// TestSweepConfounderRecorded checks the warning a sweep prints when its
// data grew, on the recorded thread sweeps with inserts: without a reload
// it grew 2.6-fold, with --reload it did not.
func TestSweepConfounderRecorded(t *testing.T) {
	t.Parallel()
	want := "the data size at the start changed from 2 MiB at threadcount=1 to 5.29 MiB at threadcount=4 along the sweep (2.6×) while only threadcount was varied: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data"
	if got := sweep.DataSizeConfounder([]string{"threadcount"}, "threadcount", recordedDone(t, recordedInserts)); got != want {
		t.Errorf("without a reload:\n got %q\nwant %q", got, want)
	}
	if got := sweep.DataSizeConfounder([]string{"threadcount"}, "threadcount", recordedDone(t, recordedReload)); got != "" {
		t.Errorf("with --reload: %q", got)
	}
}

// TestCompareUnintendedDifferences checks compare's lines when the
// configurations ran on different systems: one thing different (the
// engine, what is compared) is named; two at once (the version too) are
// warned of; versions that differ within a group are warned of.
func TestCompareUnintendedDifferences(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Each file is a run of its own: two identical results are one run
	// read twice, which compare refuses.
	runs := 0
	write := func(name, version, engine string) string {
		runs++
		r := resultstest.Results(t, resultstest.Spec{Throughput: 1000 + float64(runs)})
		r.Extra = &results.Extra{Topology: &metrics.TopologyInfo{Kind: metrics.KindStandalone, Version: version, StorageEngine: engine}}
		p := filepath.Join(dir, name+".json")
		if err := writeResults(p, r); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a1, a2 := write("a1", "7.0.42", "wiredTiger"), write("a2", "7.0.42", "wiredTiger")
	b1, b2 := write("b1", "7.0.42", "inMemory"), write("b2", "7.0.42", "inMemory")
	c1, c2 := write("c1", "6.0.5", "inMemory"), write("c2", "7.0.42", "inMemory")
	tests := []struct {
		name string
		args []string
		want []string
		not  []string
	}{
		{"one thing", []string{a1 + "," + a2, b1 + "," + b2},
			[]string{"differ: storage engine\n", "storage engine  wiredTiger      inMemory\n"}, []string{"warning:"}},
		{"two things, and versions within a group", []string{a1 + "," + a2, c1 + "," + b1},
			[]string{
				"differ: server, storage engine\n",
				"warning: B's runs did not all run on the same system: server MongoDB 6.0.5 (1 run), MongoDB 7.0.42 (1 run); its figures mix them\n",
				"warning: the configurations differ in 2 things at once: server (A MongoDB 7.0.42, B MongoDB 6.0.5 (1 run), MongoDB 7.0.42 (1 run)), storage engine (A wiredTiger, B inMemory); whichever the study meant to compare, the others are mixed into every difference it shows\n",
			}, nil},
		{"the same", []string{b1, c2}, []string{"differ: in nothing recorded (server, engine, topology, hosts)\n"}, []string{"warning:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := experiment(t, runCompare, append(tc.args, "--store", filepath.Join(dir, "none.db"))...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, r.stdout)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(r.stdout, n) {
					t.Errorf("output has %q:\n%s", n, r.stdout)
				}
			}
		})
	}
}
