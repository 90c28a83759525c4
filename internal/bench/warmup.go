package bench

import (
	"context"
	"time"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// Warmup runs cfg's workload for cfg.Spec.WarmupTime with the same
// threads, target and workload state (inserts continue where it stops),
// on a collector of its own, with no outputs, nothing observed and no
// limit on failures: only its figures are kept, apart from the phase's.
// The summary is returned too, for the order of its operations.
func Warmup(ctx context.Context, cfg Config) (*results.Warmup, *measure.Summary, error) {
	return warmup(ctx, cfg, cfg.Spec.WarmupTime, 0)
}

// warmup runs cfg's workload as a warm-up that length or operations ends
// (whichever is set), its figures kept apart from the phase's.
func warmup(ctx context.Context, cfg Config, length time.Duration, operations int64) (*results.Warmup, *measure.Summary, error) {
	spec := *cfg.Spec
	spec.MaxExecutionTime = length
	spec.HdrFileOutput = false
	cfg.Spec = &spec
	cfg.Operations = operations
	cfg.Observe = false
	cfg.MaxErrors = 0
	cfg.MaxErrorRate = 0
	out, err := Run(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	s := out.Summary
	w := &results.Warmup{Seconds: s.Runtime().Seconds(), Operations: s.Operations, P99us: map[string]int64{}, Abandoned: out.Result.Abandoned}
	if w.Seconds > 0 {
		w.Throughput = float64(s.Operations) / w.Seconds
	}
	for _, m := range s.Measurements {
		h := m.Service
		if h == nil {
			h = m.Intended
		}
		if m.Failed || h == nil || h.TotalCount() == 0 {
			continue
		}
		w.P99us[m.Name] = measure.Percentiles(h, []float64{99})[0]
	}
	return w, s, nil
}
