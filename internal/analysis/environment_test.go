package analysis

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// envRun is a run that recorded what it ran on, as a results file has it.
func envRun(topo *metrics.TopologyInfo, cacheBytes float64, cpus int, memBytes float64, embedded, describes bool, point map[string]string) *results.Results {
	x := &results.Extra{Topology: topo, Client: &results.Client{IncludesEmbeddedServer: embedded, HostCPUs: cpus, AllowedCPUs: float64(cpus)}}
	if cacheBytes > 0 {
		x.ServerMetrics = []results.ServerSample{{T: 1, Server: &metrics.ServerInterval{Cache: &metrics.CacheInterval{MaxBytes: metrics.Known(cacheBytes)}}}}
	}
	if memBytes > 0 {
		x.HostMetrics = []results.HostSample{{T: 1, Host: &metrics.HostInterval{DescribesServer: describes, CPU: &metrics.CPUInterval{NumCPU: cpus}, Memory: &metrics.Memory{TotalBytes: metrics.Known(memBytes)}}}}
	}
	if point != nil {
		var varied []string
		for k := range point {
			varied = append(varied, k)
		}
		x.Sweep = &results.SweepMark{ID: "s", Varied: varied, Point: point}
	}
	return &results.Results{Phase: results.PhaseRun, Config: map[string]string{"threadcount": "1"}, Extra: x}
}

func standalone(version, engine string) *metrics.TopologyInfo {
	return &metrics.TopologyInfo{Kind: metrics.KindStandalone, Version: version, StorageEngine: engine}
}

func TestEnvironmentOf(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	tests := []struct {
		name string
		r    *results.Results
		want Environment
	}{
		{"the embedded server, as recorded here",
			envRun(&metrics.TopologyInfo{Kind: metrics.KindStandalone, Version: "7.0.42", FerretDBVersion: "unknown"}, 0, 2, 25276502016, true, true, nil),
			Environment{EnvServer: "FerretDB (as MongoDB 7.0.42)", EnvTopology: "standalone", EnvWhere: "embedded, in mongobench's process",
				EnvHostCPUs: "2", EnvHostMem: "23.5 GiB", EnvClient: "2"}},
		{"a replica set on another host",
			envRun(&metrics.TopologyInfo{Kind: metrics.KindReplicaSet, Version: "7.0.14", StorageEngine: "wiredTiger", SetName: "rs0", Hosts: []string{"a", "b"},
				ReplicaSet: &metrics.ReplicaSetStatus{Members: []metrics.Member{{Name: "a"}, {Name: "b"}, {Name: "c"}}}}, 8<<30, 16, 64<<30, false, false, nil),
			Environment{EnvServer: "MongoDB 7.0.14", EnvEngine: "wiredTiger", EnvTopology: "replica set rs0, 3 members", EnvCache: "8 GiB",
				EnvWhere: "on another host", EnvHostCPUs: "16", EnvHostMem: "64 GiB", EnvClient: "16"}},
		{"a sharded collection through a mongos on this host",
			envRun(&metrics.TopologyInfo{Kind: metrics.KindSharded, Version: "6.0.5", Sharding: &metrics.ShardingStatus{CollectionSharded: &yes, Shards: []metrics.Shard{{ID: "s0"}, {ID: "s1"}}}}, 0, 4, 8<<30, false, true, nil),
			Environment{EnvServer: "MongoDB 6.0.5", EnvTopology: "sharded cluster, 2 shards, collection sharded", EnvWhere: "on mongobench's host",
				EnvHostCPUs: "4", EnvHostMem: "8 GiB", EnvClient: "4"}},
		{"an unsharded collection",
			&results.Results{Extra: &results.Extra{Topology: &metrics.TopologyInfo{Kind: metrics.KindSharded, Sharding: &metrics.ShardingStatus{CollectionSharded: &no}}}},
			Environment{EnvTopology: "sharded cluster, collection not sharded"}},
		{"nothing recorded", &results.Results{}, Environment{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EnvironmentOf(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestRanOn checks the table of what each configuration ran on and its
// warnings: configurations that differ in one thing (what the study
// compares) draw none, in two things at once one, and a configuration
// whose runs ran on different servers one of its own.
func TestRanOn(t *testing.T) {
	t.Parallel()
	run := func(version, engine string, tc string) *results.Results {
		return envRun(standalone(version, engine), 1<<30, 2, 8<<30, false, false, map[string]string{"threadcount": tc})
	}
	tests := []struct {
		name     string
		groups   [][]*results.Results
		allowed  []Difference
		differ   []string
		varied   string
		warnings []string
	}{
		{"engine against engine", [][]*results.Results{
			{run("7.0.42", "wiredTiger", "1"), run("7.0.42", "wiredTiger", "2")},
			{run("7.0.42", "inMemory", "1"), run("7.0.42", "inMemory", "2")}},
			nil, []string{"storage engine: wiredTiger | inMemory"}, "threadcount: 1, 2 | 1, 2", nil},
		{"version and engine at once", [][]*results.Results{
			{run("7.0.42", "wiredTiger", "1")},
			{run("6.0.5", "inMemory", "1")}},
			nil, []string{"server: MongoDB 7.0.42 | MongoDB 6.0.5", "storage engine: wiredTiger | inMemory"}, "threadcount: 1 | 1",
			[]string{"the configurations differ in 2 things at once: server (A MongoDB 7.0.42, B MongoDB 6.0.5), storage engine (A wiredTiger, B inMemory); whichever the study meant to compare, the others are mixed into every difference it shows"}},
		{"an allowed property and a version", [][]*results.Results{
			{run("7.0.42", "wiredTiger", "1")},
			{run("6.0.5", "wiredTiger", "1")}},
			[]Difference{{"fieldcount", "10", "1"}}, []string{"server: MongoDB 7.0.42 | MongoDB 6.0.5"}, "threadcount: 1 | 1",
			[]string{"the configurations differ in 2 things at once: server (A MongoDB 7.0.42, B MongoDB 6.0.5), fieldcount (10 vs 1); whichever the study meant to compare, the others are mixed into every difference it shows"}},
		{"versions within a group", [][]*results.Results{
			{run("7.0.42", "wiredTiger", "1"), run("7.0.42", "wiredTiger", "2"), run("6.0.5", "wiredTiger", "4")},
			{run("7.0.42", "wiredTiger", "1")}},
			nil, []string{"server: MongoDB 7.0.42 (2 runs), MongoDB 6.0.5 (1 run) | MongoDB 7.0.42"}, "threadcount: 1, 2, 4 | 1",
			[]string{"A's runs did not all run on the same system: server MongoDB 7.0.42 (2 runs), MongoDB 6.0.5 (1 run); its figures mix them"}},
		{"a sweep over servers", [][]*results.Results{
			{envRun(standalone("7.0.42", "wiredTiger"), 1<<30, 2, 8<<30, false, false, map[string]string{"mongodb.url": "url1"}),
				envRun(standalone("6.0.5", "wiredTiger"), 1<<30, 2, 8<<30, false, false, map[string]string{"mongodb.url": "url2"})},
			{envRun(standalone("7.0.42", "wiredTiger"), 1<<30, 2, 8<<30, false, false, map[string]string{"mongodb.url": "url1"}),
				envRun(standalone("6.0.5", "wiredTiger"), 1<<30, 2, 8<<30, false, false, map[string]string{"mongodb.url": "url2"})}},
			nil, nil, "mongodb.url: url1, url2 | url1, url2", nil},
		{"the same everywhere", [][]*results.Results{
			{run("7.0.42", "wiredTiger", "1")},
			{run("7.0.42", "wiredTiger", "1")}},
			nil, nil, "threadcount: 1 | 1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ro := RanOnOf([]string{"A", "B"}, tt.groups, tt.allowed)
			var differ []string
			for _, r := range ro.Differing() {
				var vs []string
				for _, v := range r.Values {
					vs = append(vs, v.Text())
				}
				differ = append(differ, r.Property+": "+strings.Join(vs, " | "))
			}
			if !reflect.DeepEqual(differ, tt.differ) {
				t.Errorf("differing rows %q, want %q", differ, tt.differ)
			}
			if len(ro.Varied) == 0 {
				t.Fatalf("no varied row")
			}
			v := ro.Varied[0]
			if got := v.Property + ": " + v.Values[0].Text() + " | " + v.Values[1].Text(); got != tt.varied {
				t.Errorf("varied %q, want %q", got, tt.varied)
			}
			if !reflect.DeepEqual(ro.Warnings, tt.warnings) {
				t.Errorf("warnings\n got %q\nwant %q", ro.Warnings, tt.warnings)
			}
			if len(ro.Rows) != len(EnvProperties) {
				t.Errorf("%d rows, want every property, all recorded", len(ro.Rows))
			}
		})
	}
}

func TestBytesText(t *testing.T) {
	t.Parallel()
	for b, want := range map[float64]string{
		976 * 1024: "976 KiB", 1.9 * 1024 * 1024: "1.9 MiB", 8 << 30: "8 GiB", 25276502016: "23.5 GiB", 5545984: "5.29 MiB", 512: "512 B", 1536: "1.5 KiB",
	} {
		if got := BytesText(b); got != want {
			t.Errorf("BytesText(%v) = %q, want %q", b, got, want)
		}
	}
}
