package bench

import (
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// TestAfterTheEnd: no status line for an interval closed after the phase
// ended with nothing in it; the figures were final at the line before.
func TestAfterTheEnd(t *testing.T) {
	t.Parallel()
	empty := &measure.Interval{StartNs: 12e9, EndNs: 12e9 + 3e6}
	withOps := &measure.Interval{StartNs: 12e9, EndNs: 12e9 + 3e6, Operations: 2,
		Measurements: []measure.Measurement{{Name: "READ", Op: db.Read, Service: measure.NewHistogram()}}}
	cleanupOnly := &measure.Interval{StartNs: 12e9, EndNs: 12e9 + 3e6}
	cleanupOnly.Status[db.Cleanup][db.OK] = 1
	tests := []struct {
		name      string
		iv        *measure.Interval
		phaseOver bool
		want      bool
	}{
		{"empty, after the end", empty, true, true},
		{"empty, while running: a stall is news", empty, false, false},
		{"operations ended after the boundary", withOps, true, false},
		{"only a status count", cleanupOnly, true, false},
	}
	for _, tt := range tests {
		if got := afterTheEnd(tt.iv, tt.phaseOver); got != tt.want {
			t.Errorf("%s: afterTheEnd = %v, want %v", tt.name, got, tt.want)
		}
	}
}
