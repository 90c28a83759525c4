package report

import (
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/threshold"
)

// thresholdRow is one --threshold of a run and how the run met it.
type thresholdRow struct {
	Threshold, Latency, Observed, Reason string
	Pass                                 bool
}

// thresholdRows are the run's thresholds, in the order they were given.
func thresholdRows(r *results.Results) []thresholdRow {
	if r.Extra == nil {
		return nil
	}
	var rows []thresholdRow
	for _, t := range r.Extra.Thresholds {
		rows = append(rows, thresholdRow{Threshold: t.Threshold, Latency: t.Latency, Observed: threshold.RecordText(t), Reason: t.Reason, Pass: t.Pass})
	}
	return rows
}

// thresholdBanner says which thresholds a run failed; "" when it failed
// none.
func thresholdBanner(r *results.Results, name string) string {
	if r.Extra == nil {
		return ""
	}
	var failed []string
	for _, t := range r.Extra.Thresholds {
		if !t.Pass {
			failed = append(failed, t.Threshold)
		}
	}
	if len(failed) == 0 {
		return ""
	}
	return fmt.Sprintf("%s failed %d of its %d thresholds: %s.", capitalize(name), len(failed), len(r.Extra.Thresholds), strings.Join(failed, ", "))
}

// abortedByThreshold says a threshold with abortOnFail ended the run,
// rather than a signal.
func abortedByThreshold(r *results.Results) (float64, bool) {
	if r.Extra == nil {
		return 0, false
	}
	for _, t := range r.Extra.Thresholds {
		if t.AbortedAtS > 0 {
			return t.AbortedAtS, true
		}
	}
	return 0, false
}
