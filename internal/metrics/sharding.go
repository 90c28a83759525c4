package metrics

import (
	"context"
	"fmt"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// ShardSize is one shard's part of the benchmark collection, from the
// storageStats of the document $collStats returns for that shard.
type ShardSize struct {
	Shard       string `json:"shard"`
	Documents   Value  `json:"documents,omitzero"`
	DataSize    Value  `json:"data_size,omitzero"`
	StorageSize Value  `json:"storage_size,omitzero"`
	// Orphans is storageStats.numOrphanDocs, which newer servers (7.0)
	// report: documents a shard still holds after their chunk moved away,
	// until the range deleter removes them.
	Orphans Value `json:"orphans,omitzero"`
}

// parseShardSizes reads the per-shard documents of $collStats through a
// mongos; nil when no document names a shard (a replica set or a
// standalone answers one document without "shard").
func parseShardSizes(docs []bson.Raw) []ShardSize {
	byShard := map[string]*ShardSize{}
	var out []ShardSize
	for _, d := range docs {
		id := str(d, "shard")
		if id == "" || !has(d, "storageStats") {
			continue
		}
		s, ok := byShard[id]
		if !ok {
			out = append(out, ShardSize{Shard: id})
			s = &out[len(out)-1]
			byShard[id] = s
		}
		s.Documents = add(s.Documents, num(d, "storageStats", "count"))
		s.DataSize = add(s.DataSize, num(d, "storageStats", "size"))
		s.StorageSize = add(s.StorageSize, num(d, "storageStats", "storageSize"))
		s.Orphans = add(s.Orphans, num(d, "storageStats", "numOrphanDocs"))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Shard < out[j].Shard })
	return out
}

// ShardingRun is what happened to a sharded collection's distribution
// during a phase: the balancer's state after it, and the chunk migrations
// that committed while it ran. Migrations distort latency (the donor and
// recipient shards copy, then the collection's routing table changes), so
// the summary says how many there were, when, and in which intervals.
type ShardingRun struct {
	Namespace string          `json:"namespace"`
	Balancer  *BalancerStatus `json:"balancer,omitempty"`
	// BalancerError says why the balancer's state is missing.
	BalancerError string `json:"balancer_error,omitempty"`
	// Migrations committed during the phase, in time order.
	Migrations []ChunkMigration `json:"migrations,omitempty"`
	// MigrationsFailed counts the moveChunk.error entries of the phase.
	MigrationsFailed int `json:"migrations_failed,omitempty"`
	// MigrationsError says why config.changelog could not be read: then
	// the migrations are unknown, not none.
	MigrationsError string `json:"migrations_error,omitempty"`
}

// BalancerStatus is the reply of balancerStatus.
type BalancerStatus struct {
	// Mode is "full" (the balancer runs) or "off".
	Mode    string `json:"mode"`
	InRound *bool  `json:"in_round,omitempty"`
	Rounds  Value  `json:"rounds,omitzero"`
}

// ChunkMigration is one chunk migration, from config.changelog.
type ChunkMigration struct {
	// Commit is when the migration committed.
	Commit time.Time `json:"commit"`
	// T is Commit in seconds from the phase's start, and Interval the
	// index of the status interval it fell in.
	T        float64 `json:"t"`
	Interval int     `json:"interval"`
	// DurationMs runs from moveChunk.start to moveChunk.commit; absent
	// when the start is not in the changelog (it began before the phase).
	DurationMs Value  `json:"duration_ms,omitzero"`
	From       string `json:"from"`
	To         string `json:"to"`
	// Documents and Bytes are what the migration cloned (details.counts,
	// which servers since 4.0 write).
	Documents Value `json:"documents,omitzero"`
	Bytes     Value `json:"bytes,omitzero"`
}

func parseBalancerStatus(raw bson.Raw) *BalancerStatus {
	b := &BalancerStatus{Mode: str(raw, "mode"), Rounds: num(raw, "numBalancerRounds")}
	if rv, err := raw.LookupErr("inBalancerRound"); err == nil {
		if v, ok := rv.BooleanOK(); ok {
			b.InRound = &v
		}
	}
	return b
}

// migrationEvents are the changelog entries a migration leaves: the donor
// writes moveChunk.start when it begins, moveChunk.commit when the
// config server has recorded the chunk's new shard, and moveChunk.error
// when it gives up.
var migrationEvents = bson.A{"moveChunk.start", "moveChunk.commit", "moveChunk.error"}

// parseMigrations pairs the start and commit entries of each migration,
// given in time order, by the chunk's lower bound and its two shards.
// start is the phase's start and interval the status interval, for T and
// Interval.
func parseMigrations(docs []bson.Raw, start time.Time, interval time.Duration) (out []ChunkMigration, failed int) {
	started := map[string]time.Time{}
	for _, d := range docs {
		at, ok := d.Lookup("time").TimeOK()
		if !ok {
			continue
		}
		from, to := str(d, "details", "from"), str(d, "details", "to")
		key := from + "\x00" + to + "\x00"
		if rv, err := d.LookupErr("details", "min"); err == nil {
			key += rv.String()
		}
		switch str(d, "what") {
		case "moveChunk.start":
			started[key] = at
		case "moveChunk.error":
			failed++
			delete(started, key)
		case "moveChunk.commit":
			m := ChunkMigration{
				Commit: at.UTC(), From: from, To: to,
				Documents: num(d, "details", "counts", "cloned"),
				Bytes:     num(d, "details", "counts", "clonedBytes"),
			}
			if s, ok := started[key]; ok {
				m.DurationMs = Known(float64(at.Sub(s).Milliseconds()))
				delete(started, key)
			}
			m.T = at.Sub(start).Seconds()
			if interval > 0 && m.T >= 0 {
				m.Interval = int(at.Sub(start) / interval)
			}
			out = append(out, m)
		}
	}
	return out, failed
}

// Sharding reads what happened to ns's distribution between from and to:
// the balancer's state now, and the migrations config.changelog recorded
// in that time. It never fails: a part that cannot be read says why.
func Sharding(ctx context.Context, client *mongo.Client, ns string, from, to time.Time, interval time.Duration) *ShardingRun {
	run := &ShardingRun{Namespace: ns}
	if raw, err := runCommand(ctx, client.Database("admin"), bson.D{{Key: "balancerStatus", Value: 1}}); err != nil {
		run.BalancerError = fmt.Sprintf("metrics: balancerStatus: %v", err)
	} else {
		run.Balancer = parseBalancerStatus(raw)
	}
	filter := bson.D{
		{Key: "ns", Value: ns},
		{Key: "what", Value: bson.D{{Key: "$in", Value: migrationEvents}}},
		// A migration that started up to an hour before the phase and
		// committed during it counts, with its whole duration.
		{Key: "time", Value: bson.D{{Key: "$gte", Value: from.Add(-time.Hour)}, {Key: "$lte", Value: to}}},
	}
	cur, err := client.Database("config").Collection("changelog").Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "time", Value: 1}}))
	if err != nil {
		run.MigrationsError = fmt.Sprintf("metrics: config.changelog: %v", err)
		return run
	}
	defer func() { _ = cur.Close(ctx) }()
	var docs []bson.Raw
	for cur.Next(ctx) {
		if validate(cur.Current) == nil {
			docs = append(docs, append(bson.Raw(nil), cur.Current...))
		}
	}
	if err := cur.Err(); err != nil {
		run.MigrationsError = fmt.Sprintf("metrics: config.changelog: %v", err)
		return run
	}
	all, _ := parseMigrations(docs, from, interval)
	// Only what committed (or failed) during the phase is the phase's.
	for _, m := range all {
		if !m.Commit.Before(from) {
			run.Migrations = append(run.Migrations, m)
		}
	}
	_, run.MigrationsFailed = parseMigrations(inPhase(docs, from), from, interval)
	return run
}

// inPhase keeps the changelog entries at or after from.
func inPhase(docs []bson.Raw, from time.Time) []bson.Raw {
	var out []bson.Raw
	for _, d := range docs {
		if at, ok := d.Lookup("time").TimeOK(); ok && !at.Before(from) {
			out = append(out, d)
		}
	}
	return out
}
