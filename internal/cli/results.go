package cli

import (
	"io"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/outfile"
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

// writeResults writes a results file atomically: an interruption or a
// failure leaves the old file or the new one, never half of one.
func writeResults(path string, res *results.Results) error {
	return outfile.Write(path, func(w io.Writer) error { return results.WriteJSON(w, res) })
}
