package report

import (
	"reflect"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

func TestShardingNotes(t *testing.T) {
	t.Parallel()
	commit := time.Date(2024, 6, 10, 8, 0, 23, 125e6, time.UTC)
	tests := []struct {
		name  string
		extra *results.Extra
		want  []string
	}{
		{name: "not sharded", extra: &results.Extra{Sizes: &results.Sizes{End: &metrics.SizeStats{}}}},
		{
			name: "spread and one migration",
			extra: &results.Extra{
				Sizes: &results.Sizes{End: &metrics.SizeStats{Shards: []metrics.ShardSize{
					{Shard: "shard01", Documents: metrics.Known(333120), DataSize: metrics.Known(389120000)},
					{Shard: "shard02", Documents: metrics.Known(344178)},
				}}},
				Sharding: &metrics.ShardingRun{
					Migrations: []metrics.ChunkMigration{{Commit: commit, T: 23.125, Interval: 2, DurationMs: metrics.Known(2125),
						From: "shard01", To: "shard02", Documents: metrics.Known(9876)}},
					MigrationsFailed: 1,
				},
			},
			want: []string{
				"Per shard after the phase: shard01 333,120 documents (371 MiB); shard02 344,178 documents.",
				"1 chunk migration committed during the run, which may have raised the latencies of their intervals: at 23.1 s (interval 3), shard01 → shard02, 2,125 ms, 9,876 documents.",
				"1 chunk migration failed during the run.",
			},
		},
		{
			name:  "changelog unreadable",
			extra: &results.Extra{Sharding: &metrics.ShardingRun{MigrationsError: "metrics: config.changelog: (Unauthorized)"}},
			want:  []string{"Chunk migrations during the run: not known (metrics: config.changelog: (Unauthorized))."},
		},
		{
			name:  "none",
			extra: &results.Extra{Sharding: &metrics.ShardingRun{}},
			want:  []string{"No chunk migration committed during the run."},
		},
	}
	for _, tt := range tests {
		got := shardingNotes(&results.Results{Extra: tt.extra})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
