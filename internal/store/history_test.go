package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
)

// TestPage: a listing cut at its limit says there is more; one that
// holds every match, or has no limit, does not.
func TestPage(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	for i := range 3 {
		save(t, s, runResults(t, "a", results.PhaseRun, t0.Add(time.Duration(i)*time.Hour), 10), SaveOptions{})
	}
	for _, tc := range []struct {
		limit, runs int
		more        bool
	}{{0, 3, false}, {2, 2, true}, {3, 3, false}, {4, 3, false}} {
		runs, more, err := s.Page(t.Context(), Filter{Limit: tc.limit})
		if err != nil || len(runs) != tc.runs || more != tc.more {
			t.Errorf("limit %d: %d runs, more %v, err %v; want %d runs, more %v", tc.limit, len(runs), more, err, tc.runs, tc.more)
		}
		if len(runs) > 0 && runs[0].ID != 3 {
			t.Errorf("limit %d: first run %d, want the newest, 3", tc.limit, runs[0].ID)
		}
	}
}

// TestCheckFilter: a label or sweep no run has is a mistake named with
// the close names; names that exist, even in a combination nothing
// matches, are not.
func TestCheckFilter(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	save(t, s, runResults(t, "baseline", results.PhaseRun, t0, 10), SaveOptions{SweepID: "s1"})
	for _, tc := range []struct {
		f    Filter
		want string
	}{
		{Filter{}, ""},
		{Filter{Label: "baseline", SweepID: "s1", Phase: results.PhaseLoad}, ""},
		{Filter{Label: "baselin"}, "baseline"},
		{Filter{SweepID: "s2"}, "s1"},
	} {
		err := s.CheckFilter(t.Context(), tc.f)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v, want none", tc.f, err)
			}
			continue
		}
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want ErrNotFound naming %q", tc.f, err, tc.want)
		}
	}
}
