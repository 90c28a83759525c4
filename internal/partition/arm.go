package partition

import (
	"context"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/results"
)

// Arm makes the phase of target and exec this process's part of the run:
// the part's seed, the wait at the barrier (or for the agreed start)
// before the phase, and the release of the part's registration once the
// phase is over. say is told what the wait has to say.
func (p *Plan) Arm(target *bench.Target, exec *bench.Execution, say func(string)) {
	// release ends the barrier's hold on this part's registration, which
	// keeps another run under the same id out while this one measures.
	var release func()
	target.PhaseSeed = p.Part.Seed
	target.BeforePhase = func(ctx context.Context, pr *bench.Prepared) (part *results.Part, err error) {
		part, release, err = p.Start(ctx, pr.Monitor.Database(pr.Database), pr.Seed, say)
		return part, err
	}
	exec.BeforeClose = func() {
		if release != nil {
			release()
		}
	}
}
