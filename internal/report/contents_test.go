package report

import (
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

func TestContents(t *testing.T) {
	t.Parallel()
	runs := []*results.Results{{}, {}, {}}
	tests := []struct {
		in   Input
		want string
	}{
		{Input{Runs: runs[:1]}, "1 run"},
		{Input{Runs: make([]*results.Results, 1200)}, "1200 runs"},
		{Input{Runs: runs, Comparison: &Comparison{}}, "3 runs, b.json compared against a.json"},
		{Input{Runs: runs, Sweep: &Sweep{Points: make([]SweepPoint, 2)}}, "3 runs, 2 sweep points"},
	}
	for _, tc := range tests {
		if got := tc.in.Contents([]string{"a.json", "b.json"}); got != tc.want {
			t.Errorf("Contents = %q, want %q", got, tc.want)
		}
	}
}
