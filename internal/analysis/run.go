package analysis

import (
	"slices"
	"strconv"

	"github.com/mongobench/mongobench/internal/results"
)

// Run is one run's results and where they came from.
type Run struct {
	Res    *results.Results
	Source string // the file, or "run N"
	ID     int64  // the store's run id; 0 for a file
	// Mark is where the run belongs in a sweep; nil outside sweeps.
	Mark *results.SweepMark
}

// NewRun is a run read from source, marked with its sweep position.
func NewRun(res *results.Results, source string, id int64) Run {
	return Run{Res: res, Source: source, ID: id, Mark: MarkOf(res)}
}

// MarkOf is where a run belongs in a sweep; nil for a run outside sweeps
// or a mark without an id.
func MarkOf(res *results.Results) *results.SweepMark {
	if res.Extra == nil || res.Extra.Sweep == nil || res.Extra.Sweep.ID == "" {
		return nil
	}
	return res.Extra.Sweep
}

// Counted reports whether the run counts in the figures of its point: a
// sweep's warm-up trial does not.
func (r Run) Counted() bool { return r.Mark == nil || !r.Mark.Warmup }

// Point names the run's sweep point; "" outside sweeps.
func (r Run) Point() string {
	if r.Mark == nil {
		return ""
	}
	return r.Mark.Label()
}

// Key identifies a run: by its store id, else by its file.
func (r Run) Key() string {
	if r.ID > 0 {
		return "run " + strconv.FormatInt(r.ID, 10)
	}
	return "file " + r.Source
}

// CountedRuns returns the runs that count and how many were left out.
func CountedRuns(runs []Run) ([]Run, int) {
	var out []Run
	for _, r := range runs {
		if r.Counted() {
			out = append(out, r)
		}
	}
	return out, len(runs) - len(out)
}

// PointsOf lists the distinct sweep points of runs in their first order.
func PointsOf(runs []Run) []string {
	var ps []string
	for _, r := range runs {
		if p := r.Point(); !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// RunsAt returns the runs at one sweep point.
func RunsAt(runs []Run, point string) []Run {
	var out []Run
	for _, r := range runs {
		if r.Point() == point {
			out = append(out, r)
		}
	}
	return out
}
