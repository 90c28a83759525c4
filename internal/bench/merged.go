package bench

import (
	"fmt"
	"io"
	"strconv"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/results"
)

// WriteMergedSummary prints the summary of a merged run as the run's own
// command would have (its percentiles and latencies from the parts'
// configuration), then the parts' lines: how many, their start skew and
// the run id they share.
func WriteMergedSummary(w io.Writer, res *results.Results) error {
	s, err := res.Summary()
	if err != nil {
		return err
	}
	opts := export.TextOptions{Percentiles: []float64{50, 95, 99, 99.9, 99.99}, Service: true, Partial: res.Partial}
	if spec := SpecOf(res); spec != nil {
		opts.Percentiles, opts.Service, opts.Intended = spec.Percentiles, spec.MeasureService, spec.MeasureIntended
	}
	if err := export.WriteText(w, s, opts); err != nil {
		return fmt.Errorf("the summary: %w", err)
	}
	for _, l := range export.ScheduleLagLines(s) {
		fmt.Fprintln(w, l)
	}
	var mg results.Merged
	if res.Extra != nil && res.Extra.Merged != nil {
		mg = *res.Extra.Merged
	}
	fmt.Fprintf(w, "[PARTS], Parts, %d\n", mg.Parts)
	fmt.Fprintf(w, "[PARTS], StartSkew(ms), %s\n", strconv.FormatFloat(mg.StartSkewMs, 'f', 3, 64))
	fmt.Fprintf(w, "[PARTS], RunID, %s\n", mg.RunID)
	return nil
}
