package sweeptext

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/sweep"
)

// TestProgressLines pins the lines a sweep says as it goes: each trial
// as it starts, and where the runs went with how to make the report, from
// the results files or from the store.
func TestProgressLines(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	pr := &Progress{Stderr: &stderr, Plan: &sweep.Plan{Planned: 3}, Sweep: &sweep.Sweep{ID: "s1", Dir: "sweep-s1"}}
	pr.TrialStarts(&sweep.Point{Index: 2, Label: "threadcount=4"}, 1, 3, true)
	pr.TrialStarts(&sweep.Point{Index: 3}, 2, 3, false)
	pr.Finish(0, "")
	pr.Finish(4, "")
	pr.Sweep.IDs = []int64{7, 8}
	pr.Finish(2, "runs.db")
	want := `mongobench: sweep s1: point 2/3 (threadcount=4), trial 1/3 (warm-up) starts
mongobench: sweep s1: point 3/3, trial 2/3 starts
mongobench: sweep s1: 0 runs; results files in sweep-s1
mongobench: sweep s1: 4 runs; results files in sweep-s1
mongobench: mongobench report sweep-s1 -o report.html makes its report
mongobench: sweep s1: 2 runs; results files in sweep-s1, runs 7–8 in runs.db
mongobench: mongobench report sweep:s1 -o report.html makes its report
`
	if got := stderr.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestProgressKnees: the knees follow the table on stdout, or go to
// stderr when stdout is a CSV table alone.
func TestProgressKnees(t *testing.T) {
	t.Parallel()
	for _, csv := range []bool{false, true} {
		var stdout, stderr strings.Builder
		pr := &Progress{Stdout: &stdout, Stderr: &stderr, CSV: csv, Sweep: &sweep.Sweep{ID: "s1"}, knees: []string{"knee: at 8 threads"}}
		pr.Knees()
		gotOut, gotErr := stdout.String(), stderr.String()
		if csv && (gotOut != "" || gotErr != "mongobench: sweep s1: knee: at 8 threads\n") {
			t.Errorf("csv: stdout %q, stderr %q", gotOut, gotErr)
		}
		if !csv && (gotOut != "\nknee: at 8 threads\n" || gotErr != "") {
			t.Errorf("text: stdout %q, stderr %q", gotOut, gotErr)
		}
	}
}
