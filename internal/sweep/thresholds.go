package sweep

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/printable"
)

// ThresholdsFailure says on w which trials failed which thresholds, and
// is the error that fails the sweep, or nil when every trial met them all.
func (s *Sweep) ThresholdsFailure(w io.Writer) error {
	if len(s.ThresholdFailures) == 0 {
		return nil
	}
	for _, f := range s.ThresholdFailures {
		keys := slices.Sorted(maps.Keys(f.Point))
		point := make([]string, len(keys))
		for i, k := range keys {
			point[i] = k + "=" + f.Point[k]
		}
		for _, t := range f.Failed {
			fmt.Fprintf(w, "mongobench: %s trial %d (%s): threshold %s failed: %s\n", printable.String(strings.Join(point, " ")), f.Trial, printable.String(f.File), t.Threshold, t.Reason)
		}
	}
	trials := "1 trial"
	if n := len(s.ThresholdFailures); n != 1 {
		trials = fmt.Sprintf("%d trials", n)
	}
	return fmt.Errorf("%s of the sweep failed thresholds (above)", trials)
}
