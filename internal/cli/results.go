package cli

import (
	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

func resultsMeta(cfg *benchConfig, command string, seed uint64, url, database string) results.Meta {
	return results.Meta{
		Tool:    results.Tool{Name: "mongobench", Version: Version},
		Command: append([]string{"mongobench", command}, redact.Args(cfg.args.raw)...),
		Label:   cfg.Spec.Label,
		RunID:   cfg.metricsRunID,
		Phase:   command,
		Config:  bench.ResolvedConfig(cfg.Settings, seed, url, database),
	}
}

// writeResults writes a results file atomically (results.WriteFile).
var writeResults = results.WriteFile
