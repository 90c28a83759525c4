package bench

import (
	"testing"

	"github.com/mongobench/mongobench/internal/runner"
)

// TestScheduleNote: the counts agree with their nouns and verbs; it said
// "1 were cut short".
func TestScheduleNote(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		target    float64
		late, cut int64
		want      string
	}{
		{100, 1, 1, "1 operation started over 1 ms behind schedule; 1 was cut short by the end of the phase and not counted"},
		{100, 574, 2, "574 operations started over 1 ms behind schedule; 2 were cut short by the end of the phase and not counted"},
		{100, 3, 0, "3 operations started over 1 ms behind schedule; 0 were cut short by the end of the phase and not counted"},
		{0, 0, 1, "1 operation was cut short by the end of the phase and not counted"},
		{0, 0, 5, "5 operations were cut short by the end of the phase and not counted"},
		{0, 7, 0, ""},
		{100, 0, 0, ""},
	} {
		o := &Outcome{Result: runner.Result{LateStarts: tc.late, Abandoned: tc.cut}}
		if got := o.ScheduleNote(tc.target); got != tc.want {
			t.Errorf("target %g, %d late, %d cut: %q, want %q", tc.target, tc.late, tc.cut, got, tc.want)
		}
	}
}
