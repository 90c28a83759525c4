//go:build !linux

package runner

import (
	"errors"
	"time"

	"github.com/mongobench/mongobench/internal/measure"
)

// newPreciseTimer has no precise wait to offer on this platform: workers
// wait on the runtime's timers.
func newPreciseTimer(measure.Clock, time.Duration) (Timer, error) {
	return nil, errors.New("no precise timer on this platform")
}
