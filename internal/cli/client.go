package cli

import (
	"sync/atomic"

	"github.com/mongobench/mongobench/internal/bench"
)

// saidOnce holds what one command has said already, however many phases
// it runs (a sweep runs many): it belongs to the command, not the process,
// so that commands run one after another in one process each say it.
type saidOnce struct {
	embeddedSaturation atomic.Bool
}

// clientWarning is the client's warning to print after a phase, or "". A
// saturated embedded server is the machine's limit, the same at every
// point of a sweep: said once per command, not per phase.
func (s *saidOnce) clientWarning(c bench.ClientReport) string {
	w := c.Warning()
	if w == "" || (c.SharesProcess && s.embeddedSaturation.Swap(true)) {
		return ""
	}
	return w
}
