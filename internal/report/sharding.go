package report

import (
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// shardingNotes say, for a run on a sharded collection, how its documents
// ended up spread over the shards and which chunk migrations happened
// during it, with the status intervals they fell in: a latency spike in
// one of those intervals may be the migration's, not the workload's.
func shardingNotes(r *results.Results) []string {
	if r.Extra == nil {
		return nil
	}
	var notes []string
	if sz := r.Extra.Sizes; sz != nil && sz.End != nil && len(sz.End.Shards) > 0 {
		parts := make([]string, 0, len(sz.End.Shards))
		for _, s := range sz.End.Shards {
			p := s.Shard + " " + valueText(s.Documents, func(v float64) string { return formatInt(int64(v)) }) + " documents"
			if v, ok := s.DataSize.Get(); ok {
				p += " (" + formatBytes(v) + ")"
			}
			parts = append(parts, p)
		}
		notes = append(notes, "Per shard after the phase: "+strings.Join(parts, "; ")+".")
	}
	sh := r.Extra.Sharding
	if sh == nil {
		return notes
	}
	if sh.MigrationsError != "" {
		return append(notes, "Chunk migrations during the run: not known ("+sh.MigrationsError+").")
	}
	if len(sh.Migrations) == 0 {
		notes = append(notes, "No chunk migration committed during the run.")
	} else {
		parts := make([]string, 0, len(sh.Migrations))
		for _, m := range sh.Migrations {
			parts = append(parts, fmt.Sprintf("at %.1f s (interval %d), %s → %s, %s, %s documents",
				m.T, m.Interval+1, m.From, m.To,
				valueText(m.DurationMs, func(v float64) string { return formatNum(v) + " ms" }),
				valueText(m.Documents, func(v float64) string { return formatInt(int64(v)) })))
		}
		notes = append(notes, fmt.Sprintf("%s committed during the run, which may have raised the latencies of their intervals: %s.",
			plural(len(sh.Migrations), "chunk migration"), strings.Join(parts, "; ")))
	}
	if sh.MigrationsFailed > 0 {
		notes = append(notes, plural(sh.MigrationsFailed, "chunk migration")+" failed during the run.")
	}
	return notes
}

// valueText formats v, or says it is unknown.
func valueText(v metrics.Value, format func(float64) string) string {
	if f, ok := v.Get(); ok {
		return format(f)
	}
	return "unknown"
}
