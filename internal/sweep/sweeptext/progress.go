package sweeptext

import (
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/sweep"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// Progress is what a sweep says around its table as it goes: what it
// will do, each trial as it starts and the confounders on Stderr, the
// knees after the table and where everything went. Its TrialStarts and
// SeriesDone are those of sweep.Events.
type Progress struct {
	Stdout, Stderr io.Writer
	Plan           *sweep.Plan
	Sweep          *sweep.Sweep
	// FindMax says the sweep is a find-max search, which says its own
	// answer after its steps.
	FindMax bool
	Reload  *bool
	Knee    stats.KneeOptions
	// CSV keeps stdout for the table alone: the knees go to stderr.
	CSV   bool
	knees []string
}

// Start says what the sweep will do, before its table's header.
func (pr *Progress) Start() {
	s, w := pr.Sweep, pr.Stderr
	what := tt.Plural(pr.Plan.Planned, "point")
	if pr.Plan.Planned == 0 {
		what = "threadcount=auto"
	}
	if pr.FindMax {
		what = "find-max over target"
	}
	if note := sweep.NoReloadWarning(pr.Plan, pr.Reload); note != "" {
		fmt.Fprintf(w, "mongobench: warning: %s\n", note)
	}
	fmt.Fprintf(w, "mongobench: sweep %s: %s × %s; results files in %s\n", s.ID, what, tt.Plural(s.Trials(), "trial"), s.Dir)
	if pr.Plan.Kind == analysis.IntendedLatency {
		fmt.Fprintf(w, "mongobench: sweep %s: the table's latencies are %s\n", s.ID, pr.Plan.Kind)
	}
	for _, d := range pr.Plan.Dims {
		for _, v := range d.Values {
			if name, ok := pr.Plan.SecretName(d.Name, v); ok {
				fmt.Fprintf(w, "mongobench: sweep %s: %s=%s is %s\n", s.ID, d.Name, name, redact.URL(v))
			}
		}
	}
}

// TrialStarts says which trial of which point starts.
func (pr *Progress) TrialStarts(p *sweep.Point, trial, total int, warm bool) {
	where := fmt.Sprintf("point %d", p.Index)
	if pr.Plan.Planned > 0 {
		where += fmt.Sprintf("/%d", pr.Plan.Planned)
	}
	if p.Label != "" {
		where += " (" + p.Label + ")"
	}
	what := fmt.Sprintf("trial %d/%d", trial, total)
	if warm {
		what += " (warm-up)"
	}
	fmt.Fprintf(pr.Stderr, "mongobench: sweep %s: %s, %s starts\n", pr.Sweep.ID, where, what)
}

// SeriesDone keeps the series' knee for after the table and warns of
// what confounds it.
func (pr *Progress) SeriesDone(sr *sweep.Series, done []sweep.PointResult) {
	k, c := pr.Plan.SeriesNotes(pr.Knee, sr, done)
	// A find-max search says its own answer after its steps; the rate
	// sweep's verdict, which judges by other rules (every target kept),
	// would read as a contradiction of it.
	if k != "" && !pr.FindMax {
		pr.knees = append(pr.knees, k)
	}
	if c != "" {
		fmt.Fprintf(pr.Stderr, "mongobench: warning: sweep %s: %s\n", pr.Sweep.ID, c)
	}
}

// Knees prints the knees found, after the table.
func (pr *Progress) Knees() {
	switch {
	case len(pr.knees) > 0 && pr.CSV:
		// Stdout is the table alone, for a spreadsheet to read.
		for _, k := range pr.knees {
			fmt.Fprintf(pr.Stderr, "mongobench: sweep %s: %s\n", pr.Sweep.ID, k)
		}
	case len(pr.knees) > 0:
		fmt.Fprintln(pr.Stdout)
		for _, k := range pr.knees {
			fmt.Fprintln(pr.Stdout, k)
		}
	}
}

// Finish says where the runs went: the results files, and the store at
// storePath when the sweep saved any there; and how to make the report.
func (pr *Progress) Finish(runs int, storePath string) {
	s := pr.Sweep
	where := "results files in " + s.Dir
	if len(s.IDs) > 0 {
		where += ", " + tt.IDList(s.IDs) + " in " + storePath
	}
	fmt.Fprintf(pr.Stderr, "mongobench: sweep %s: %s; %s\n", s.ID, tt.Plural(runs, "run"), where)
	if runs > 0 {
		ref := s.Dir
		if len(s.IDs) > 0 {
			ref = store.SweepPrefix + s.ID
		}
		fmt.Fprintf(pr.Stderr, "mongobench: mongobench report %s -o report.html makes its report\n", ref)
	}
}
