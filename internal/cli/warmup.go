package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/results"
)

// runWarmup runs the warm-up of the phase pc and says what it did in one
// line.
func runWarmup(ctx context.Context, env Env, pc phaseConfig) (*results.Warmup, error) {
	w, s, err := bench.Warmup(ctx, pc.config(env))
	if err != nil {
		return nil, err
	}
	var parts []string
	for _, m := range s.Measurements {
		if p99, ok := w.P99us[m.Name]; ok && !m.Failed {
			parts = append(parts, fmt.Sprintf("%s p99 %d us", m.Name, p99))
		}
	}
	fmt.Fprintf(env.Stderr, "mongobench: warm-up: %d operations in %.1f s (%.0f ops/s; %s), left out of the summary\n",
		w.Operations, w.Seconds, w.Throughput, strings.Join(parts, ", "))
	return w, nil
}
