package promsink

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// RunIDTimeLayout is how a whole run's id begins: its start in UTC, so
// that ids sort by when the runs started.
const RunIDTimeLayout = "20060102T150405Z"

// WorkloadName names a run's workload by its -P files as a user names
// them: "workloada", "workloada+mine".
func WorkloadName(files []string) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return strings.Join(names, "+")
}

// RunOptions are the labels a finished run's series carry: the run id
// its live endpoint used (recorded in the results), else the run id its
// parts share, else its start time; its label; the -P files of its
// command line; and its part.
func RunOptions(r *results.Results) Options {
	o := Options{Part: 0, Parts: 1, RunID: r.RunID, Label: r.Label, Workload: WorkloadName(workloadFiles(r.Command))}
	if r.Extra != nil && r.Extra.Part != nil {
		o.Part, o.Parts = r.Extra.Part.Index, r.Extra.Part.Count
		if o.RunID == "" {
			o.RunID = r.Extra.Part.RunID
		}
	}
	if r.Extra != nil && r.Extra.Merged != nil && o.RunID == "" {
		o.RunID = r.Extra.Merged.RunID
	}
	if o.RunID == "" {
		o.RunID = r.Start.UTC().Format(RunIDTimeLayout)
	}
	return o
}

// workloadFiles are the -P arguments of a recorded command line.
func workloadFiles(command []string) []string {
	var files []string
	for i := 0; i < len(command); i++ {
		switch a := command[i]; {
		case (a == "-P" || a == "--P") && i+1 < len(command):
			files = append(files, command[i+1])
			i++
		case strings.HasPrefix(a, "-P="):
			files = append(files, strings.TrimPrefix(a, "-P="))
		}
	}
	return files
}

// FromResults is a sink holding a finished run's figures as its live
// endpoint served them after its last interval: the same series and
// labels, so that a run whose endpoint closed before the last scrape
// still reaches the same dashboard. The achieved rate is the run's
// average, not its last interval's, which the results do not keep whole.
func FromResults(r *results.Results, opts Options) (*Sink, error) {
	s, err := r.Summary()
	if err != nil {
		return nil, err
	}
	target := 0.0
	if v := r.Config["target"]; v != "" {
		if target, err = strconv.ParseFloat(v, 64); err != nil {
			return nil, fmt.Errorf("results target %q: %w", v, err)
		}
	}
	sink := New(opts)
	if err := sink.Open(bench.Phase{Command: r.Phase, Target: target}); err != nil {
		return nil, err
	}
	whole := &measure.Interval{
		StartNs: 0, EndNs: max(int64(r.RuntimeMs)*int64(time.Millisecond), 1),
		Operations: r.Operations, Measurements: s.Measurements, Status: s.Status, ScheduleLag: s.ScheduleLag,
	}
	if err := sink.Interval(bench.Update{Interval: whole}); err != nil {
		return nil, err
	}
	return sink, sink.Close(false)
}
