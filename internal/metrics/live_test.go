package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// These tests run against the embedded server (FerretDB, SQLite backend),
// a server without WiredTiger: its figures must come out absent, not 0.

func TestSampleEmbeddedServer(t *testing.T) {
	t.Parallel()

	client := testClient(t)
	ctx := testContext(t)

	s := NewSampler(SamplerOptions{Client: client, Interval: 10 * time.Second})

	first := s.Sample(ctx, time.Now())
	if first.Server == nil || first.Server.Error != "" {
		t.Fatalf("server sample = %+v", first.Server)
	}

	info := first.Server.Info
	if info == nil || info.Version == "" || info.FerretDBVersion == "" {
		t.Fatalf("first sample's info = %+v, want version and FerretDB version", info)
	}

	if info.StorageEngine != "" {
		t.Errorf("storage engine = %q, want none", info.StorageEngine)
	}

	if got := s.ServerInfo(); got == nil || *got != *info {
		t.Errorf("ServerInfo() = %+v, want %+v", got, info)
	}

	srv := first.Server
	if srv.Cache != nil {
		t.Errorf("WiredTiger cache = %+v, want nil", srv.Cache)
	}

	if srv.Opcounters != (Opcounters{}) || srv.Network != (NetworkCounters{}) {
		t.Errorf("counters FerretDB does not have: %+v %+v", srv.Opcounters, srv.Network)
	}

	if !srv.UptimeSec.OK || !srv.PID.OK {
		t.Errorf("uptime %v, pid %v: want both", srv.UptimeSec, srv.PID)
	}

	last := s.Sample(ctx, time.Now())
	if last.Server.Error != "" {
		t.Fatalf("second sample: %s", last.Server.Error)
	}

	if last.Server.Info != nil {
		t.Errorf("second sample repeats the unchanged info: %+v", last.Server.Info)
	}

	d := Delta(first, last)
	if d.Server == nil || d.Server.Restarted || d.Server.Cache != nil {
		t.Errorf("interval = %+v", d.Server)
	}

	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}

	for _, key := range []string{`"wiredtiger_cache"`, `"hit_ratio"`, `"insert"`} {
		if strings.Contains(string(b), key) {
			t.Errorf("%s in the interval of a server without it: %s", key, b)
		}
	}

	lines := strings.Join(SummaryLines(first, last, nil, nil), "\n")
	if !strings.Contains(lines, "[SERVER], WiredTigerCache, "+NotReported) {
		t.Errorf("summary does not say the cache is not reported:\n%s", lines)
	}
}

func TestSizesGrowAfterInserts(t *testing.T) {
	t.Parallel()

	client := testClient(t)
	ctx := testContext(t)

	const db = "metrics_sizes"

	coll := client.Database(db).Collection("usertable")

	insert := func(from, n int) {
		t.Helper()

		docs := make([]any, n)
		for i := range docs {
			docs[i] = bson.D{
				{Key: "_id", Value: fmt.Sprintf("user%d", from+i)},
				{Key: "field0", Value: bson.Binary{Data: make([]byte, 1000)}},
			}
		}

		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}

	before, err := Sizes(ctx, client, db, "usertable")
	if err != nil {
		t.Fatalf("sizes of a database without the collection: %v", err)
	}

	if before.Coll.Documents.OK && before.Coll.Documents.V != 0 {
		t.Errorf("documents before any insert = %v", before.Coll.Documents)
	}

	insert(0, 200)

	mid, err := Sizes(ctx, client, db, "usertable")
	if err != nil {
		t.Fatal(err)
	}

	if mid.CollectionError != "" || mid.DBError != "" {
		t.Fatalf("sizes = %+v", mid)
	}

	t.Logf("collection figures from %s: %+v", mid.CollectionSource, mid.Coll)

	insert(200, 800)

	after, err := Sizes(ctx, client, db, "usertable")
	if err != nil {
		t.Fatal(err)
	}

	grew := func(name string, a, b Value) {
		t.Helper()

		if !a.OK || !b.OK || b.V <= a.V {
			t.Errorf("%s: %v, then %v after 800 more documents", name, a, b)
		}
	}

	grew("collection documents", mid.Coll.Documents, after.Coll.Documents)
	grew("collection data size", mid.Coll.DataSize, after.Coll.DataSize)
	grew("database documents", mid.DB.Documents, after.DB.Documents)
	grew("database data size", mid.DB.DataSize, after.DB.DataSize)

	if after.Database != db || after.Collection != "usertable" {
		t.Errorf("names = %q.%q", after.Database, after.Collection)
	}
}

func TestTopologyEmbedded(t *testing.T) {
	t.Parallel()

	client := testClient(t)
	topo := Topology(testContext(t), client, "ycsb", "usertable")

	if topo.Kind != KindStandalone {
		t.Errorf("kind = %q, want %q", topo.Kind, KindStandalone)
	}

	if topo.Version == "" || topo.FerretDBVersion == "" {
		t.Errorf("version %q, FerretDB version %q: want both", topo.Version, topo.FerretDBVersion)
	}

	if topo.IsWritablePrimary == nil || !*topo.IsWritablePrimary {
		t.Errorf("isWritablePrimary = %v", topo.IsWritablePrimary)
	}

	if topo.ReplicaSet != nil || topo.Sharding != nil {
		t.Errorf("replica set %+v, sharding %+v on a standalone", topo.ReplicaSet, topo.Sharding)
	}

	for _, part := range []string{"hello", "buildInfo", "serverStatus"} {
		if reason, ok := topo.Absent[part]; ok {
			t.Errorf("%s absent: %s", part, reason)
		}
	}
}

func TestSampleUnreachableServer(t *testing.T) {
	t.Parallel()

	// A port nobody listens on: taken, then released.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}

	addr := l.Addr().String()
	_ = l.Close()

	client, err := mongo.Connect(options.Client().ApplyURI("mongodb://" + addr + "/").SetServerSelectionTimeout(testTimeout))
	if err != nil {
		t.Fatal(err)
	}

	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })

	s := NewSampler(SamplerOptions{Client: client, NoHost: true, Timeout: 100 * time.Millisecond})
	snap := s.Sample(context.Background(), time.Now())

	if snap.Host != nil {
		t.Errorf("host sample with NoHost: %+v", snap.Host)
	}

	if snap.Server == nil || snap.Server.Error == "" {
		t.Fatalf("sample of an unreachable server = %+v, want an error", snap.Server)
	}

	if s.ServerInfo() != nil {
		t.Errorf("server info without an answer: %+v", s.ServerInfo())
	}

	if topo := Topology(ctxWithTimeout(t, 100*time.Millisecond), client, "ycsb", "usertable"); topo.Kind != KindUnknown || topo.Absent["hello"] == "" {
		t.Errorf("topology of an unreachable server = %+v", topo)
	}
}

func ctxWithTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)

	return ctx
}

func TestSampleTimeout(t *testing.T) {
	t.Parallel()

	tests := []struct {
		interval, timeout, want time.Duration
	}{
		{0, 0, DefaultTimeout},
		{10 * time.Second, 0, DefaultTimeout},
		{time.Second, 0, 500 * time.Millisecond},
		{time.Second, 3 * time.Second, 3 * time.Second},
	}

	for _, tt := range tests {
		if got := sampleTimeout(tt.interval, tt.timeout); got != tt.want {
			t.Errorf("sampleTimeout(%v, %v) = %v, want %v", tt.interval, tt.timeout, got, tt.want)
		}
	}
}
