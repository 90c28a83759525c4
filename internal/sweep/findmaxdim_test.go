package sweep

import (
	"fmt"
	"testing"

	"github.com/mongobench/mongobench/internal/threshold"
	"github.com/mongobench/mongobench/internal/workload"
)

// TestFindMaxDim: a search starts at -target when it is a rate, else at
// FindMaxStart.
func TestFindMaxDim(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		target string // "" is none
		want   string
		start  float64
	}{
		{"", "1000", 1000}, {"250", "250", 250}, {"0", "1000", 1000}, {"-5", "1000", 1000}, {"fast", "1000", 1000}, {"2.5", "2.5", 2.5},
	} {
		p := workload.NewProperties()
		if tc.target != "" {
			p.Set("target", tc.target, "-target")
		}
		d := FindMaxDim(p)
		if d.Name != "target" || len(d.Values) != 1 || d.Values[0] != tc.want || FindMaxStartOf(d) != tc.start {
			t.Errorf("target %q: %+v starting at %g, want target=%s starting at %g", tc.target, d, FindMaxStartOf(d), tc.want, tc.start)
		}
	}
}

func TestCheckFindMax(t *testing.T) {
	t.Parallel()
	obj := []threshold.Threshold{{Op: threshold.Overall}}
	for _, tt := range []struct {
		name      string
		objective []threshold.Threshold
		dims      []Dim
		command   string
		want      string
	}{
		{"no search", nil, []Dim{{Name: "threadcount"}}, "load", ""},
		{"a search of a run", obj, nil, "run", ""},
		{"with --vary", obj, []Dim{{Name: "threadcount"}}, "run", "sweep: --find-max searches -target itself, in one configuration: give no --vary (run one search per configuration)"},
		{"of a load", obj, nil, "load", "sweep: --find-max searches the rate of a run phase: use sweep run"},
	} {
		err := CheckFindMax(tt.objective, tt.dims, tt.command)
		if got := fmt.Sprint(err); (tt.want == "" && err != nil) || (tt.want != "" && got != tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
