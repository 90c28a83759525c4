package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// runWarmup runs the workload for warmuptime with the same threads, target
// and workload state (inserts continue where it stops), records it on its
// own collector, and says what it did in one line.
func runWarmup(ctx context.Context, env Env, pc phaseConfig) (*results.Warmup, error) {
	spec := *pc.spec
	spec.MaxExecutionTime = pc.spec.WarmupTime
	spec.HdrFileOutput = false
	wpc := pc
	wpc.spec = &spec
	wpc.operations = 0
	wpc.quiet = true
	wpc.journal = ""
	wpc.maxErrors = 0
	wpc.maxErrorRate = 0
	out, err := runPhase(ctx, env, wpc)
	if err != nil {
		return nil, err
	}
	s := out.Summary
	w := &results.Warmup{Seconds: s.Runtime().Seconds(), Operations: s.Operations, P99us: map[string]int64{}, Abandoned: out.Result.Abandoned}
	if w.Seconds > 0 {
		w.Throughput = float64(s.Operations) / w.Seconds
	}
	var parts []string
	for _, m := range s.Measurements {
		h := m.Service
		if h == nil {
			h = m.Intended
		}
		if m.Failed || h == nil || h.TotalCount() == 0 {
			continue
		}
		p99 := measure.Percentiles(h, []float64{99})[0]
		w.P99us[m.Name] = p99
		parts = append(parts, fmt.Sprintf("%s p99 %d us", m.Name, p99))
	}
	fmt.Fprintf(env.Stderr, "mongobench: warm-up: %d operations in %.1f s (%.0f ops/s; %s), left out of the summary\n",
		w.Operations, w.Seconds, w.Throughput, strings.Join(parts, ", "))
	return w, nil
}
