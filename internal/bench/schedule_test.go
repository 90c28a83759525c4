package bench

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
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

// TestOneOperationWords: a phase or warm-up of one operation says so in
// the singular.
func TestOneOperationWords(t *testing.T) {
	t.Parallel()
	if got := warmupLine(&results.Warmup{Operations: 1, Seconds: 1, Throughput: 1}, &measure.Summary{}); !strings.HasPrefix(got, "warm-up: 1 operation in 1.0 s") {
		t.Errorf("warm-up line %q", got)
	}
	if got := warmupLine(&results.Warmup{Operations: 5, Seconds: 1, Throughput: 5}, &measure.Summary{}); !strings.HasPrefix(got, "warm-up: 5 operations in 1.0 s") {
		t.Errorf("warm-up line %q", got)
	}
	for _, tc := range []struct {
		failed int64
		want   string
	}{
		{1, "the one operation failed (see the Return= and Error lines)"},
		{3, "every one of the 3 operations failed (see the Return= and Error lines)"},
	} {
		s := &measure.Summary{Operations: tc.failed}
		s.Status[db.Read][db.Error] = tc.failed
		if err := (&Outcome{Summary: s}).Failure(); err == nil || err.Error() != tc.want {
			t.Errorf("%d failed: %v, want %q", tc.failed, err, tc.want)
		}
	}
	s := &measure.Summary{Operations: 1}
	s.Status[db.Read][db.NotFound] = 1
	if err := (&Outcome{Summary: s}).Failure(); err == nil || !strings.HasPrefix(err.Error(), "the one key lookup (READ) returned NOT_FOUND") {
		t.Errorf("one read NOT_FOUND: %v", err)
	}
}
