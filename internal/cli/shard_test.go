package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/nullserver/nullservertest"
)

// The shard-key set-up is driven through the command line against the
// null server acting as a mongos, because no mongos can run here (the
// embedded server has no sharding). The fake records what mongobench
// sends; the recorded sequence is what a real mongos would be asked.
func startFakeMongos(t *testing.T, version string, before func(*nullservertest.Cluster)) (*nullserver.Server, *nullservertest.Cluster, string) {
	t.Helper()
	cl, err := nullservertest.NewCluster(version, "shard01", "shard02", "shard03")
	if err != nil {
		t.Fatal(err)
	}
	// Each shard's primary is a plain null server, reached directly.
	for _, id := range []string{"shard01", "shard02", "shard03"} {
		primary, err := nullserver.Start("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = primary.Close() })
		cl.SetShardHost(id, primary.Addr())
	}
	if before != nil {
		before(cl)
	}
	s, err := nullservertest.Start(cl)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, cl, "mongodb://" + s.Addr() + "/ycsb?directConnection=true"
}

// changes are the recorded commands that change the cluster, in order.
func changes(s *nullserver.Server) []string {
	var out []string
	for _, c := range s.Commands() {
		switch c.Name {
		case "drop", "enableSharding", "shardCollection":
			out = append(out, c.String())
		case "insert":
			// One line for the load's inserts, however they were batched.
			if len(out) == 0 || !strings.HasPrefix(out[len(out)-1], "ycsb.insert") {
				out = append(out, "ycsb.insert usertable ...")
			}
		}
	}
	return out
}

func TestShardKeyCommandLine(t *testing.T) {
	t.Parallel()
	hashedBefore := func(cl *nullservertest.Cluster) {
		_ = cl.Shard("ycsb.usertable", bson.D{{Key: "_id", Value: "hashed"}}, 1000)
	}
	rangedBefore := func(cl *nullservertest.Cluster) {
		_ = cl.Shard("ycsb.usertable", bson.D{{Key: "field0", Value: 1}}, 1000)
	}
	tests := []struct {
		name        string
		version     string
		before      func(*nullservertest.Cluster)
		args        []string
		wantCode    int
		wantStderr  string
		wantChanges []string
		wantKey     string
	}{
		{
			name: "load --drop re-shards, 4.4", version: "4.4.29", before: hashedBefore,
			args:     []string{"load", "--drop", "-p", "mongodb.shardkey=_id:hashed", "-p", "mongodb.shardkey.chunks=6"},
			wantCode: 0, wantStderr: "mongobench: enabled sharding of ycsb and sharded ycsb.usertable (MongoDB 4.4.29) on _id:hashed",
			wantChanges: []string{
				`ycsb.drop {"drop":"usertable"}`,
				`admin.enableSharding {"enableSharding":"ycsb"}`,
				`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"},"numInitialChunks":6}`,
				"ycsb.insert usertable ...",
			},
			wantKey: `{"_id": "hashed"}`,
		},
		{
			name: "load --drop re-shards, 8.0", version: "8.0.4", before: hashedBefore,
			args:     []string{"load", "--drop", "-p", "mongodb.shardkey=_id:hashed"},
			wantCode: 0, wantStderr: "mongobench: sharded ycsb.usertable (MongoDB 8.0.4) on _id:hashed",
			wantChanges: []string{
				`ycsb.drop {"drop":"usertable"}`,
				`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"}}`,
				"ycsb.insert usertable ...",
			},
			wantKey: `{"_id": "hashed"}`,
		},
		{
			// A second load without --drop finds the key in place.
			name: "load onto the same key", version: "7.0.12", before: hashedBefore,
			args:     []string{"load", "-p", "mongodb.shardkey=_id:hashed"},
			wantCode: 0, wantStderr: "mongobench: ycsb.usertable is already sharded on _id:hashed",
			wantChanges: []string{"ycsb.insert usertable ..."},
			wantKey:     `{"_id": "hashed"}`,
		},
		{
			name: "another key refused before anything runs", version: "7.0.12", before: rangedBefore,
			args:     []string{"load", "-p", "mongodb.shardkey=_id:hashed"},
			wantCode: ExitBadInput, wantStderr: "mongodb.shardkey=_id:hashed, but ycsb.usertable is already sharded on field0:1",
			wantKey: `{"field0": {"$numberInt":"1"}}`,
		},
		{
			name: "run checks the key", version: "7.0.12", before: rangedBefore,
			args:     []string{"run", "-p", "mongodb.shardkey=_id:hashed"},
			wantCode: ExitBadInput, wantStderr: "already sharded on field0:1",
			wantKey: `{"field0": {"$numberInt":"1"}}`,
		},
		{
			name: "chunks with a ranged key", version: "7.0.12",
			args:     []string{"load", "-p", "mongodb.shardkey=_id:1", "-p", "mongodb.shardkey.chunks=6"},
			wantCode: ExitBadInput, wantStderr: "mongodb.shardkey.chunks=6 needs a hashed mongodb.shardkey",
		},
		{
			name: "bad key", version: "7.0.12",
			args:     []string{"load", "-p", "mongodb.shardkey=_id:-1"},
			wantCode: ExitBadInput, wantStderr: `mongodb.shardkey="_id:-1" is invalid: field "_id" has "-1": expected 1 (ranged) or hashed`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, cl, url := startFakeMongos(t, tt.version, tt.before)
			args := append([]string{tt.args[0], "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "recordcount=10", "-p", "operationcount=10", "--no-store"}, tt.args[1:]...)
			r := mongobench(t, args...)
			for _, c := range s.Commands() {
				t.Log(c)
			}
			if r.code != tt.wantCode || !strings.Contains(r.stderr, tt.wantStderr) {
				t.Fatalf("exit %d, want %d; stderr:\n%s\nwant it to contain %q", r.code, tt.wantCode, r.stderr, tt.wantStderr)
			}
			if got := changes(s); strings.Join(got, "\n") != strings.Join(tt.wantChanges, "\n") {
				t.Errorf("commands that changed the cluster:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.wantChanges, "\n"))
			}
			if got := strings.Join(strings.Fields(cl.ShardKey("ycsb.usertable")), ""); got != strings.Join(strings.Fields(tt.wantKey), "") {
				t.Errorf("the cluster's key is %s, want %s", got, tt.wantKey)
			}
		})
	}
}

func TestShardKeyNeedsMongos(t *testing.T) {
	t.Parallel()
	// The embedded server, like any mongod, is no mongos.
	r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+freshURL(t), "-p", "recordcount=10", "-p", "mongodb.shardkey=_id:hashed")
	if r.code != ExitBadInput || !strings.Contains(r.stderr, "mongodb.shardkey needs a mongos; this is a standalone") {
		t.Errorf("exit %d, want %d naming the standalone; stderr:\n%s", r.code, ExitBadInput, r.stderr)
	}
	if strings.Contains(r.stdout, "[OVERALL]") {
		t.Errorf("a load ran after the refusal:\n%s", r.stdout)
	}
}

// TestShardedLoadSummary loads 100 records into a freshly sharded
// collection while the fake cluster migrates a chunk, and reads the
// per-shard figures and the migration back from the summary and the
// results file.
func TestShardedLoadSummary(t *testing.T) {
	t.Parallel()
	s, _, url := startFakeMongos(t, "7.0.12", func(cl *nullservertest.Cluster) {
		cl.MigrateAfter("ycsb.usertable", 50, "shard01", "shard02")
	})
	out := filepath.Join(t.TempDir(), "load.json")
	r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "mongodb.shardkey=_id:hashed", "-p", "mongodb.shardkey.chunks=6", "--drop", "--no-store", "--out", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	t.Logf("stdout:\n%s", r.stdout)
	for _, c := range changes(s) {
		t.Log(c)
	}
	want := []string{
		"[SERVER], CollectionSharded, true",
		// Six chunks round-robin over three shards, taken before the load.
		"[SERVER], Shard(shard01).Chunks, 2\n[SERVER], Shard(shard01).Documents, 0\n",
		// After the load: 100 documents spread by the hashed key.
		"[SERVER], ShardSize(shard01).Documents, 34\n",
		"[SERVER], ShardSize(shard02).Documents, 33\n",
		"[SERVER], ShardSize(shard03).Documents, 33\n",
		// Each shard's primary sampled beside the mongos (the null
		// server reports no opcounters, and the summary says so).
		"[SERVER], ShardOpcounters(shard03), not reported by this server",
		"[SHARDING], Balancer, full",
		"[SHARDING], ChunkMigrations, 1",
		"[SHARDING], ChunkMigrationTime(ms), 250",
		"[SHARDING], ChunkMigration(1).Duration(ms), 250\n[SHARDING], ChunkMigration(1).From, shard01\n[SHARDING], ChunkMigration(1).To, shard02\n",
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("the summary has no %q", w)
		}
	}
	checkThreeFields(t, r.stdout)
	res := readResults(t, out)
	sh := res.Extra.Sharding
	if sh == nil || len(sh.Migrations) != 1 || sh.Migrations[0].From != "shard01" || sh.Migrations[0].To != "shard02" || sh.Balancer == nil || sh.Balancer.Mode != "full" {
		t.Fatalf("results' sharding section: %+v", sh)
	}
	if sm := res.Extra.ServerMetrics; len(sm) == 0 || len(sm[0].Server.Shards) != 3 || sm[0].Server.Shards[2].Name != "shard03" {
		t.Errorf("results' server metrics have no per-shard intervals: %+v", sm)
	}
	if end := res.Extra.Sizes.End; end == nil || len(end.Shards) != 3 || end.Shards[1].Documents.V != 33 {
		t.Errorf("results' sizes after the load: %+v", res.Extra.Sizes.End)
	}
}

// TestShardKeySurvivesSweepReload is the complaint: a sweep that
// reloads drops the collection before every trial, which discards the
// shard key, and every later trial measured an unsharded collection. With
// mongodb.shardkey each reload shards it again before loading.
func TestShardKeySurvivesSweepReload(t *testing.T) {
	t.Parallel()
	s, cl, url := startFakeMongos(t, "7.0.12", nil)
	r := mongobench(t, "sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=20", "-p", "operationcount=20",
		"-p", "mongodb.shardkey=_id:hashed", "--vary", "threadcount=1,2", "--reload", "--no-store", "--out-dir", t.TempDir())
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got []string
	for _, c := range changes(s) {
		if !strings.HasPrefix(c, "ycsb.insert") {
			got = append(got, c)
		}
	}
	reshard := []string{`ycsb.drop {"drop":"usertable"}`, `admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"}}`}
	want := append(append([]string(nil), reshard...), reshard...)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the sweep's drops and shardings:\n%s\nwant, for each of its two trials:\n%s", strings.Join(got, "\n"), strings.Join(reshard, "\n"))
	}
	if key := cl.ShardKey("ycsb.usertable"); !strings.Contains(key, "hashed") {
		t.Errorf("after the sweep the collection's key is %q", key)
	}
}
