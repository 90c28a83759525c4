package threshold

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestJudgeStudy: compare's gates print a line per check and count the
// failed ones; the baseline's runs are not judged by the thresholds.
func TestJudgeStudy(t *testing.T) {
	t.Parallel()
	base, lat := []float64{1000, 1010, 990}, []int64{1000, 1010, 990}
	slower := []float64{900, 905, 895}
	mustT := func(s string) []Threshold {
		th, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return []Threshold{th}
	}
	mustC := func(s string) []Change {
		cs, err := ParseChanges(s)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	tests := []struct {
		name       string
		thresholds []Threshold
		changes    []Change
		a, b       []float64
		failed     int
		says       []string
	}{
		{"a significant drop beyond the limit", nil, mustC("throughput<-5%"), base, slower, 1,
			[]string{"fail-on OVERALL:throughput<-5%: fail: B: throughput -10.0% (significant, adjusted p="}},
		{"a drop within the limit", nil, mustC("throughput<-20%"), base, slower, 0,
			[]string{"fail-on OVERALL:throughput<-20%: pass: no significant change beyond it"}},
		{"a change no figure answers", nil, mustC("checkout:p(99)>+10%"), base, base, 1,
			[]string{"fail-on checkout:p(99)>+10%: fail: no figure of the comparison answers it"}},
		{"one run a side", nil, mustC("throughput<-5%"), []float64{1000}, []float64{500}, 0,
			[]string{"note: 1 figure without a verdict (one run a side) could not fail --fail-on"}},
		{"a threshold missed by one run of B", mustT("throughput>=900"), nil, base, slower, 1,
			[]string{"threshold B: OVERALL:throughput>=900: fail in 1 of 3 runs: r: ", "was 895 ops/s, not >=900"}},
		{"the baseline is not judged", mustT("throughput>=950"), nil, slower, base, 0,
			[]string{"threshold B: OVERALL:throughput>=950: pass in 3 runs\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			latA, latB := lat[:len(tc.a)], lat[:len(tc.b)]
			var out bytes.Buffer
			if got := JudgeStudy(&out, tc.thresholds, tc.changes, study(t, tc.a, tc.b, latA, latB)); got != tc.failed {
				t.Errorf("%d failed, want %d:\n%s", got, tc.failed, out.String())
			}
			for _, s := range tc.says {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
			// The gates as compare's flags give them say the same, and
			// fail with the count.
			g := &Gates{Thresholds: tc.thresholds, Changes: tc.changes}
			var again bytes.Buffer
			err := g.Failure(&again, study(t, tc.a, tc.b, latA, latB))
			if again.String() != out.String() || (err != nil) != (tc.failed > 0) ||
				(err != nil && err.Error() != fmt.Sprintf("the comparison failed %d check (above)", tc.failed)) || !g.Set() {
				t.Errorf("Gates.Failure: %v, set %v:\n%s", err, g.Set(), again.String())
			}
		})
	}
}
