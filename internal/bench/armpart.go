package bench

import (
	"context"

	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/results"
)

// ArmPart makes the phase of target and exec this process's part p of
// the run: the part's seed, the wait at the barrier (or for the agreed
// start) before the phase, and the release of the part's registration
// once the phase is over. say is told what the wait has to say.
//
// It lives here, not in partition, because partition is below bench:
// TPC-C's loader, which bench prepares, takes its share of warehouses
// from it.
func ArmPart(p *partition.Plan, target *Target, exec *Execution, say func(string)) {
	// release ends the barrier's hold on this part's registration, which
	// keeps another run under the same id out while this one measures.
	var release func()
	target.PhaseSeed = p.Part.Seed
	target.BeforePhase = func(ctx context.Context, pr *Prepared) (part *results.Part, err error) {
		part, release, err = p.Start(ctx, pr.Monitor.Database(pr.Database), pr.Seed, say)
		return part, err
	}
	exec.BeforeClose = func() {
		if release != nil {
			release()
		}
	}
}
