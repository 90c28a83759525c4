package metrics

import (
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestApplyHello(t *testing.T) {
	t.Parallel()

	yes, no := true, false

	tests := []struct {
		name string
		doc  string
		want TopologyInfo
	}{
		{
			name: "standalone",
			doc:  `{"isWritablePrimary": true, "maxBsonObjectSize": 16777216, "maxWireVersion": 21, "ok": 1.0}`,
			want: TopologyInfo{Kind: KindStandalone, IsWritablePrimary: &yes},
		},
		{
			name: "replica set secondary",
			doc: `{"topologyVersion": {"counter": {"$numberLong": "6"}}, "hosts": ["mongo-0:27017", "mongo-1:27017", "mongo-2:27017"],
				"setName": "rs0", "setVersion": 5, "isWritablePrimary": false, "secondary": true,
				"primary": "mongo-0:27017", "me": "mongo-1:27017", "ok": 1.0}`,
			want: TopologyInfo{
				Kind: KindReplicaSet, IsWritablePrimary: &no, SetName: "rs0",
				Hosts:   []string{"mongo-0:27017", "mongo-1:27017", "mongo-2:27017"},
				Primary: "mongo-0:27017", Me: "mongo-1:27017",
			},
		},
		{
			name: "mongos",
			doc:  `{"isWritablePrimary": true, "msg": "isdbgrid", "maxWireVersion": 21, "ok": 1.0}`,
			want: TopologyInfo{Kind: KindSharded, IsWritablePrimary: &yes},
		},
		{
			// isMaster of MongoDB 3.6, the version of a field report.
			name: "legacy isMaster",
			doc:  `{"ismaster": true, "maxWireVersion": 6, "ok": 1.0}`,
			want: TopologyInfo{Kind: KindStandalone, IsWritablePrimary: &yes},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			var got TopologyInfo
			applyHello(&got, extJSON(t, []byte(tt.doc)))

			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseReplSetStatus(t *testing.T) {
	t.Parallel()

	rs := parseReplSetStatus(fixture(t, "replsetgetstatus.json"))

	date := func(s string) *time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}

		return &tm
	}

	want := []Member{
		{Name: "mongo-0:27017", State: "PRIMARY", Health: Known(1), Self: true,
			OptimeDate: date("2024-06-10T08:00:10Z"), LagSec: Known(0)},
		{Name: "mongo-1:27017", State: "SECONDARY", Health: Known(1),
			OptimeDate: date("2024-06-10T08:00:07.5Z"), LagSec: Known(2.5)},
		// The unreachable member reports the epoch: no optime, no lag.
		{Name: "mongo-2:27017", State: "(not reachable/healthy)", Health: Known(0)},
		{Name: "arbiter-0:27017", State: "ARBITER", Health: Known(1)},
	}

	if !reflect.DeepEqual(rs.Members, want) {
		t.Errorf("members:\n got %+v\nwant %+v", rs.Members, want)
	}

	checkValue(t, "max lag", rs.MaxLagSec(), Known(2.5))
}

func TestParseReplSetStatusWithoutPrimary(t *testing.T) {
	t.Parallel()

	rs := parseReplSetStatus(extJSON(t, []byte(`{"members": [
		{"name": "a:1", "stateStr": "SECONDARY", "health": 1, "optimeDate": {"$date": "2024-06-10T08:00:00Z"}},
		{"name": "b:1", "stateStr": "SECONDARY", "health": 1, "optimeDate": {"$date": "2024-06-10T07:59:00Z"}}]}`)))

	for _, m := range rs.Members {
		checkValue(t, m.Name+" lag", m.LagSec, absent)
	}

	checkValue(t, "max lag", rs.MaxLagSec(), absent)
}

func TestParseListShards(t *testing.T) {
	t.Parallel()

	got := parseListShards(extJSON(t, []byte(`{"shards": [
		{"_id": "shard01", "host": "shard01/s1a:27018,s1b:27018", "state": 1, "topologyTime": {"$timestamp": {"t": 1718000000, "i": 1}}},
		{"_id": "shard02", "host": "shard02/s2a:27018,s2b:27018", "state": 1}], "ok": 1}`)))

	want := []Shard{
		{ID: "shard01", Host: "shard01/s1a:27018,s1b:27018", State: Known(1)},
		{ID: "shard02", Host: "shard02/s2a:27018,s2b:27018", State: Known(1)},
	}

	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestMergeShardFigures(t *testing.T) {
	t.Parallel()

	listed := func() []Shard { return []Shard{{ID: "shard02", Host: "h2"}, {ID: "shard01", Host: "h1"}} }

	tests := []struct {
		name          string
		shards        []Shard
		chunks, count map[string]float64
		want          []Shard
	}{
		{
			// shard02 holds no chunk of the collection: a known 0.
			name:   "sharded collection",
			shards: listed(),
			chunks: map[string]float64{"shard01": 12},
			count:  map[string]float64{"shard01": 1000, "shard02": 0},
			want: []Shard{
				{ID: "shard01", Host: "h1", Chunks: Known(12), Documents: Known(1000)},
				{ID: "shard02", Host: "h2", Chunks: Known(0), Documents: Known(0)},
			},
		},
		{
			name:   "unsharded collection: no chunk counts",
			shards: listed(),
			count:  map[string]float64{"shard02": 500},
			want: []Shard{
				{ID: "shard01", Host: "h1"},
				{ID: "shard02", Host: "h2", Documents: Known(500)},
			},
		},
		{
			// listShards refused: the shards come from the counts alone.
			name:   "no listShards",
			chunks: map[string]float64{"shard01": 3, "shard02": 4},
			want: []Shard{
				{ID: "shard01", Chunks: Known(3)},
				{ID: "shard02", Chunks: Known(4)},
			},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			got := mergeShardFigures(tt.shards, tt.chunks, tt.count)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSumStorageStats(t *testing.T) {
	t.Parallel()

	// Two shards of a sharded collection, as mongos returns $collStats.
	shards := []string{
		`{"ns": "ycsb.usertable", "shard": "shard01", "host": "s1a:27018", "localTime": {"$date": "2024-06-10T08:00:00Z"},
		  "storageStats": {"size": {"$numberLong": "600000000"}, "count": 500000, "avgObjSize": 1200,
		  "storageSize": {"$numberLong": "200000000"}, "freeStorageSize": 4096, "capped": false, "nindexes": 1,
		  "totalIndexSize": 20000000, "totalSize": {"$numberLong": "220000000"}, "indexSizes": {"_id_": 20000000}}}`,
		`{"ns": "ycsb.usertable", "shard": "shard02", "host": "s2a:27018", "localTime": {"$date": "2024-06-10T08:00:00Z"},
		  "storageStats": {"size": {"$numberLong": "400000000"}, "count": 300000, "avgObjSize": 1333,
		  "storageSize": {"$numberLong": "200000000"}, "freeStorageSize": 4096, "capped": false, "nindexes": 1,
		  "totalIndexSize": 12000000, "totalSize": {"$numberLong": "212000000"}, "indexSizes": {"_id_": 12000000}}}`,
	}

	one, ok := sumStorageStats(rawDocs(t, shards[:1]))
	if !ok {
		t.Fatal("one shard: no storageStats found")
	}

	checkValue(t, "one: avgObjSize as reported", one.AvgObjSize, Known(1200))
	checkValue(t, "one: compression", one.CompressionRatio, Known(3))

	both, ok := sumStorageStats(rawDocs(t, shards))
	if !ok {
		t.Fatal("two shards: no storageStats found")
	}

	want := SizeFigures{
		Documents:        Known(800000),
		DataSize:         Known(1e9),
		StorageSize:      Known(4e8),
		IndexSize:        Known(32e6),
		AvgObjSize:       Known(1e9 / 800000),
		CompressionRatio: Known(2.5),
	}
	if both != want {
		t.Errorf("two shards = %+v, want %+v", both, want)
	}

	if _, ok := sumStorageStats(rawDocs(t, []string{`{"ns": "ycsb.usertable", "count": 3}`})); ok {
		t.Error("documents without storageStats were taken for sizes")
	}
}

func TestParseSizeCommands(t *testing.T) {
	t.Parallel()

	// db.stats() of the field report's 10M-record load, and
	// db.usertable.stats() of the same.
	db := parseDBStats(extJSON(t, []byte(`{"db": "ycsb", "collections": {"$numberLong": "1"}, "views": 0,
		"objects": {"$numberLong": "10000000"}, "avgObjSize": 1167.0, "dataSize": 11670000000.0,
		"storageSize": 4668000000.0, "indexes": {"$numberLong": "1"}, "indexSize": 389000000.0,
		"totalSize": 5057000000.0, "scaleFactor": {"$numberLong": "1"}, "fsUsedSize": 20000000000.0,
		"fsTotalSize": 42000000000.0, "ok": 1.0}`)))

	checkValue(t, "db documents", db.Documents, Known(1e7))
	checkValue(t, "db compression", db.CompressionRatio, Known(2.5))
	checkValue(t, "db index", db.IndexSize, Known(389e6))

	coll := parseCollStats(extJSON(t, []byte(`{"ns": "ycsb.usertable", "size": 0, "count": 0,
		"storageSize": 4096, "totalIndexSize": 4096, "nindexes": 1, "ok": 1.0}`)))

	checkValue(t, "empty coll documents", coll.Documents, Known(0))
	checkValue(t, "empty coll compression", coll.CompressionRatio, Known(0))
	checkValue(t, "empty coll avgObjSize (not reported)", coll.AvgObjSize, absent)

	noStorage := SizeFigures{DataSize: Known(10), StorageSize: Known(0)}.withRatio()
	checkValue(t, "compression over 0 storage", noStorage.CompressionRatio, absent)
}

func rawDocs(t *testing.T, docs []string) []bson.Raw {
	t.Helper()

	out := make([]bson.Raw, len(docs))
	for i, d := range docs {
		out[i] = extJSON(t, []byte(d))
	}

	return out
}
