package measure

import (
	"slices"
	"time"

	"github.com/mongobench/mongobench/internal/db"
)

// ErrorWindow is a stretch of the run in which operations failed: an
// outage, a failover, a stall. Failures less than errorGap apart belong to
// one window.
type ErrorWindow struct {
	StartNs, EndNs int64 // on the Clock, to errorSlot precision
	Errors         int64 // failed operations in the window
}

const (
	// errorSlot is the resolution at which failures are placed in time.
	errorSlot = 100 * time.Millisecond
	// errorGap separates two windows: a second without failures.
	errorGap = time.Second
)

// isFailure reports a status that means the server did not do the work:
// not OK, and not NOT_FOUND, which is a valid answer.
func isFailure(st db.Status) bool { return !st.IsOK() && st != db.NotFound }

// errorWindows merges per-slot failure counts into windows.
func errorWindows(slots map[int64]int64) []ErrorWindow {
	if len(slots) == 0 {
		return nil
	}
	keys := make([]int64, 0, len(slots))
	for k := range slots {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	gapSlots := int64(errorGap / errorSlot)
	var out []ErrorWindow
	for _, k := range keys {
		start, end := k*int64(errorSlot), (k+1)*int64(errorSlot)
		if n := len(out); n > 0 && k*int64(errorSlot)-out[n-1].EndNs < gapSlots*int64(errorSlot) {
			out[n-1].EndNs = end
			out[n-1].Errors += slots[k]
			continue
		}
		out = append(out, ErrorWindow{StartNs: start, EndNs: end, Errors: slots[k]})
	}
	return out
}
