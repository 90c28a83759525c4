package sweep

import (
	"testing"

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
