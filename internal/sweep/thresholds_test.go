package sweep

import (
	"bytes"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

func TestThresholdsFailure(t *testing.T) {
	t.Parallel()
	var w bytes.Buffer
	if err := (&Sweep{}).ThresholdsFailure(&w); err != nil || w.Len() != 0 {
		t.Errorf("no failures: %v, %q", err, w.String())
	}
	s := &Sweep{ThresholdFailures: []ThresholdFailure{
		{Point: map[string]string{"threadcount": "8", "target": "100"}, Trial: 2, File: "d/p2-t2.json", Failed: []results.Threshold{{Threshold: "READ:p(99)<5ms", Reason: "p(99) was 7ms"}}},
		{Point: map[string]string{"threadcount": "16"}, Trial: 1, File: "d/p3\x1b-t1.json", Failed: []results.Threshold{{Threshold: "errors<1%", Reason: "2% failed"}}},
	}}
	err := s.ThresholdsFailure(&w)
	if err == nil || err.Error() != "2 trials of the sweep failed thresholds (above)" {
		t.Errorf("error %v", err)
	}
	want := "mongobench: target=100 threadcount=8 trial 2 (d/p2-t2.json): threshold READ:p(99)<5ms failed: p(99) was 7ms\n" +
		"mongobench: threadcount=16 trial 1 (d/p3\\x1b-t1.json): threshold errors<1% failed: 2% failed\n"
	if w.String() != want {
		t.Errorf("said\n%q\nwant\n%q", w.String(), want)
	}
}
