package metrics

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/golden"
)

func TestSummaryLinesGolden(t *testing.T) {
	t.Parallel()

	first, last := recordedRun(t)
	end := t0.Add(10 * time.Second)

	hello := extJSON(t, []byte(`{"hosts": ["mongo-0:27017", "mongo-1:27017", "mongo-2:27017"], "setName": "rs0",
		"isWritablePrimary": true, "primary": "mongo-0:27017", "me": "mongo-0:27017", "ok": 1.0}`))
	rsTopo := &TopologyInfo{Version: "7.0.12", StorageEngine: "wiredTiger"}
	applyHello(rsTopo, hello)
	rsTopo.ReplicaSet = parseReplSetStatus(fixture(t, "replsetgetstatus.json"))

	sizes := &SizeStats{
		Database: "ycsb", Collection: "usertable",
		DB: SizeFigures{
			Documents: Known(1e7), DataSize: Known(11670000000), StorageSize: Known(4668000000),
			IndexSize: Known(389000000), AvgObjSize: Known(1167),
		}.withRatio(),
		Coll: SizeFigures{
			Documents: Known(1e7), DataSize: Known(11670000000), StorageSize: Known(4668000000),
			IndexSize: Known(389000000), AvgObjSize: Known(1167),
		}.withRatio(),
		CollectionSource: "$collStats",
	}

	mongosA := serverSample(t, "mongos.json")
	mongosB := serverSample(t, "mongos.json")
	mongosB.Info = nil
	mongosB.UptimeSec = Known(86410)
	mongosB.Opcounters.Query = Known(25050000)
	mongosB.Opcounters.Insert = Known(10020000)
	// Each shard primary's serverStatus, sampled beside the mongos's: the
	// recorded 4.2.8 primary 10 s apart on shard01 (the hot shard), the
	// hand-made mongod_a/b on shard02, and shard03 unreachable.
	mongosA.Shards = []ShardSample{
		{Name: "shard01", Server: serverSample(t, "mongod_4.2.8_recorded.json")},
		{Name: "shard02", Server: serverSample(t, "mongod_a.json")},
		{Name: "shard03", Server: &ServerSample{Error: "metrics: serverStatus: server selection error: context deadline exceeded"}},
	}
	mongosB.Shards = []ShardSample{
		{Name: "shard01", Server: serverSample(t, "mongod_4.2.8_advanced.json")},
		{Name: "shard02", Server: serverSample(t, "mongod_b.json")},
		{Name: "shard03", Server: &ServerSample{Error: "metrics: serverStatus: server selection error: context deadline exceeded"}},
	}

	sharded := true
	shardTopo := &TopologyInfo{
		Kind: KindSharded, Version: "6.0.16",
		Sharding: &ShardingStatus{
			Namespace: "ycsb.usertable", CollectionSharded: &sharded,
			Shards: mergeShardFigures(
				[]Shard{{ID: "shard01", Host: "shard01/s1a:27018", State: Known(1)}, {ID: "shard02", Host: "shard02/s2a:27018", State: Known(1)}},
				map[string]float64{"shard01": 40, "shard02": 38},
				map[string]float64{"shard01": 5100000, "shard02": 4900000}),
		},
		Absent: map[string]string{"serverStatus": "(Unauthorized) not authorized on admin"},
	}

	// FerretDB answers serverStatus with identity and uptime only.
	ferret := func(uptime float64, info bool) *ServerSample {
		s := &ServerSample{Host: "box", PID: Known(77), UptimeSec: Known(uptime)}
		if info {
			s.Info = &ServerInfo{Version: "7.0.42", Process: "mongobench.test", FerretDBVersion: "v1.24.0"}
		}

		return s
	}

	tests := []struct {
		name        string
		first, last Snapshot
		sizes       *SizeStats
		topo        *TopologyInfo
	}{
		{
			name:  "mongod_replica_set",
			first: first, last: last, sizes: sizes, topo: rsTopo,
		},
		{
			name:  "mongos_sharded",
			first: Snapshot{At: t0, Server: mongosA},
			last:  Snapshot{At: end, Server: mongosB},
			topo:  shardTopo,
			// Per-shard sizes from $collStats as a 7.0 mongos answers it.
			sizes: func() *SizeStats {
				docs := fixtureDocs(t, "sharding/collstats_7.0.json")
				coll, _ := sumStorageStats(docs)

				return &SizeStats{Database: "ycsb", Collection: "usertable", Coll: coll, CollectionSource: "$collStats",
					Shards: parseShardSizes(docs), DBError: "metrics: dbStats on ycsb: (Unauthorized) not authorized"}
			}(),
		},
		{
			name:  "ferretdb",
			first: Snapshot{At: t0, Server: ferret(1, true)},
			last:  Snapshot{At: end, Server: ferret(11, false)},
			sizes: &SizeStats{
				Database: "ycsb", Collection: "usertable",
				DB:              SizeFigures{Documents: Known(0), DataSize: Known(0), StorageSize: Known(0), IndexSize: Known(0)}.withRatio(),
				CollectionError: "metrics: sizes of ycsb.usertable: $collStats: (NamespaceNotFound) ns not found",
			},
			topo: &TopologyInfo{Kind: KindStandalone, Version: "7.0.42", FerretDBVersion: "v1.24.0"},
		},
		{
			name:  "server_unreachable",
			first: Snapshot{At: t0, Server: &ServerSample{Error: "metrics: serverStatus: server selection error: context deadline exceeded"}, Host: first.Host},
			last:  Snapshot{At: end, Server: &ServerSample{Error: "metrics: serverStatus: server selection error: context deadline exceeded"}, Host: last.Host},
		},
		{
			name:  "restarted",
			first: first,
			last:  Snapshot{At: end, Server: serverSample(t, "mongod_restarted.json")},
		},
		{
			name:  "host_only",
			first: Snapshot{At: t0, Host: first.Host},
			last: Snapshot{At: end, Host: func() *HostSample {
				h := *last.Host
				h.DescribesServer = true
				h.Errors = map[string]string{"process": "open /proc/self/stat: permission denied"}
				h.Process = nil

				return &h
			}()},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			got := strings.Join(SummaryLines(tt.first, tt.last, tt.sizes, tt.topo), "\n") + "\n"
			golden.Check(t, filepath.Join("summary", tt.name+".txt"), got)
		})
	}
}

// TestSummaryLinesShape checks that every line keeps YCSB's
// `[NAME], measurement, value` form, which the scripts parsing YCSB's
// summary split on.
func TestSummaryLinesShape(t *testing.T) {
	t.Parallel()

	first, last := recordedRun(t)

	lines := SummaryLines(first, last, nil, nil)
	if len(lines) == 0 {
		t.Fatal("no lines")
	}

	for _, l := range lines {
		parts := strings.SplitN(l, ", ", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[0], "[") || !strings.HasSuffix(parts[0], "]") ||
			parts[1] == "" || parts[2] == "" || strings.Contains(parts[1], ",") {
			t.Errorf("line %q is not [NAME], measurement, value", l)
		}
	}

	want := map[string]bool{
		"[SERVER], CacheHitRatio, 0.9700": false,
		"[HOST], CPUUser(%), 41.0":        false,
	}

	for _, l := range lines {
		if _, ok := want[l]; ok {
			want[l] = true
		}
	}

	for l, seen := range want {
		if !seen {
			t.Errorf("missing line %q in\n%s", l, strings.Join(lines, "\n"))
		}
	}
}

// TestShardingLinesGolden renders the migrations of recorded changelogs:
// 4.4's (one migration, one failure) and 7.0's (one begun before the
// phase, one in its third interval), and what is said when the changelog
// cannot be read.
func TestShardingLinesGolden(t *testing.T) {
	t.Parallel()

	start := time.Date(2024, 6, 10, 8, 0, 0, 0, time.UTC)
	no, yes := false, true
	tests := []struct {
		name string
		run  *ShardingRun
	}{
		{"changelog_4.4", func() *ShardingRun {
			m, failed := parseMigrations(fixtureDocs(t, "sharding/changelog_4.4.json"), start, 10*time.Second)

			return &ShardingRun{Namespace: "ycsb.usertable", Balancer: parseBalancerStatus(fixture(t, "sharding/balancerstatus.json")), Migrations: m, MigrationsFailed: failed}
		}()},
		{"changelog_7.0", func() *ShardingRun {
			m, _ := parseMigrations(fixtureDocs(t, "sharding/changelog_7.0.json"), start, 10*time.Second)

			return &ShardingRun{Namespace: "ycsb.usertable", Balancer: &BalancerStatus{Mode: "full", InRound: &yes}, Migrations: m}
		}()},
		{"changelog_unreadable", &ShardingRun{
			Namespace: "ycsb.usertable", Balancer: &BalancerStatus{Mode: "off", InRound: &no},
			MigrationsError: "metrics: config.changelog: (Unauthorized) not authorized on config to execute command { find: \"changelog\" }",
		}},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			golden.Check(t, filepath.Join("summary", "sharding_"+tt.name+".txt"), strings.Join(ShardingLines(tt.run), "\n")+"\n")
		})
	}
}

// TestReplicationLinesGolden samples a 4.4 replica set (the 004 report's
// primary, secondary and arbiter) over 120 intervals: the secondary falls
// behind by 0.5 s more each interval up to 59.5 s, goes RECOVERING for one
// interval, and comes back. The max is 59.5 s; the p99 of 120 samples is
// the 119th smallest.
func TestReplicationLinesGolden(t *testing.T) {
	t.Parallel()

	base := parseReplSetStatus(fixture(t, "replsetgetstatus_4.4.json"))
	checkValue(t, "recorded lag", base.MaxLagSec(), Known(6))

	var intervals []IntervalMetrics

	for i := range 120 {
		rs := &ReplicaSetStatus{Members: append([]Member(nil), base.Members...)}
		rs.Members[1].LagSec = Known(float64(i%120) / 2)

		if i == 60 {
			rs.Members[1].State = "RECOVERING"
		}

		prev := Snapshot{At: t0.Add(time.Duration(i) * 10 * time.Second), Server: &ServerSample{Host: "node2:27002"}}
		cur := Snapshot{At: prev.At.Add(10 * time.Second), Server: &ServerSample{Host: "node2:27002", Replication: rs}}
		intervals = append(intervals, Delta(prev, cur))
	}

	// An interval whose serverStatus failed has no lag, and is not counted.
	intervals = append(intervals, Delta(Snapshot{At: t0}, Snapshot{At: t0, Server: &ServerSample{Error: "timeout"}}))

	got := strings.Join(ReplicationLines(intervals), "\n") + "\n"
	golden.Check(t, filepath.Join("summary", "replication.txt"), got)

	if ReplicationLines(intervals[120:]) != nil {
		t.Error("lines without any replication sample")
	}
}
