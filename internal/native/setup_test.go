package native

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	dbmongo "github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/nullserver/nullservertest"
)

// shardedOrders is a collection with a validator, an index and a hashed
// shard key.
const shardedOrders = `
collections:
  orders:
    shardKey: {customer: hashed}
    validator: {$jsonSchema: {required: [customer]}}
    indexes: [{keys: {customer: 1}}]
    document:
      _id: {^number: {}}
      customer: {^int64: {min: 1, max: 5}}
operations:
  - {name: add, kind: insertOne, collection: orders}
phases:
  load: {count: 10}
`

// fakeMongos starts the null server as a mongos of version in front of a
// fake cluster, create answering NamespaceExists when exists is set, and
// connects to it. The shard set-up runs against this fake because no
// mongos can run in tests (the embedded server has no sharding, nor
// validators); the fake records what the set-up sends, which is what a
// real mongos would be asked.
func fakeMongos(t *testing.T, version string, exists bool, before func(*nullservertest.Cluster)) (*nullserver.Server, *nullservertest.Cluster, *dbmongo.Client) {
	t.Helper()
	cl, err := nullservertest.NewCluster(version, "shard01", "shard02")
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before(cl)
	}
	srv, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true, Respond: func(r nullserver.Request) ([]byte, bool) {
		if exists && r.Name == "create" {
			b, _ := bson.Marshal(bson.D{{Key: "ok", Value: 0.0}, {Key: "errmsg", Value: "Collection ycsb.orders already exists."},
				{Key: "code", Value: int32(namespaceExists)}, {Key: "codeName", Value: "NamespaceExists"}})
			return b, true
		}
		return cl.Respond(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	url := "mongodb://" + srv.Addr() + "/ycsb?directConnection=true"
	c, err := dbmongo.Open(t.Context(), dbmongo.Config{URL: url, Database: "ycsb", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return srv, cl, c
}

// setupCommands are the recorded commands that shape the collections.
func setupCommands(srv *nullserver.Server) []string {
	var out []string
	for _, c := range srv.Commands() {
		switch c.Name {
		case "drop", "create", "collMod", "createIndexes", "enableSharding", "shardCollection":
			s := c.String()
			// createIndexes names its index by the driver's rule; the
			// keys are what matter.
			if c.Name == "createIndexes" {
				s = "ycsb.createIndexes " + c.Doc.Lookup("indexes", "0", "key").String()
			}
			out = append(out, s)
		}
	}
	return out
}

// TestSetupAppliesValidatorAndShardKey: a load creates each collection
// with its validator (collMod when it exists), its indexes, then shards
// it on its shardKey through the mongos, enabling sharding first where
// the version needs it.
func TestSetupAppliesValidatorAndShardKey(t *testing.T) {
	t.Parallel()
	f, err := Parse("orders.yaml", []byte(shardedOrders), nil)
	if err != nil {
		t.Fatal(err)
	}
	validator := `{"$jsonSchema":{"required":["customer"]}}`
	for _, tc := range []struct {
		name    string
		version string
		exists  bool
		want    []string
		said    string
	}{
		{"new collection, 7.0", "7.0.12", false, []string{
			`ycsb.drop {"drop":"orders"}`,
			`ycsb.create {"create":"orders","validator":` + validator + `}`,
			`ycsb.createIndexes {"customer": {"$numberInt":"1"}}`,
			`admin.shardCollection {"shardCollection":"ycsb.orders","key":{"customer":"hashed"}}`,
		}, "sharded ycsb.orders (MongoDB 7.0.12) on customer:hashed"},
		{"existing collection, 4.4", "4.4.29", true, []string{
			`ycsb.drop {"drop":"orders"}`,
			`ycsb.create {"create":"orders","validator":` + validator + `}`,
			`ycsb.collMod {"collMod":"orders","validator":` + validator + `}`,
			`ycsb.createIndexes {"customer": {"$numberInt":"1"}}`,
			`admin.enableSharding {"enableSharding":"ycsb"}`,
			`admin.shardCollection {"shardCollection":"ycsb.orders","key":{"customer":"hashed"}}`,
		}, "enabled sharding of ycsb and sharded ycsb.orders (MongoDB 4.4.29) on customer:hashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, cl, c := fakeMongos(t, tc.version, tc.exists, nil)
			if err := Setup(t.Context(), f, c.Driver(), "ycsb", true); err != nil {
				t.Fatal(err)
			}
			var said []string
			if err := SetUpShardKeys(t.Context(), f, c, true, func(s string) { said = append(said, s) }); err != nil {
				t.Fatal(err)
			}
			if got := setupCommands(srv); !slices.Equal(got, tc.want) {
				t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if !slices.Equal(said, []string{tc.said}) {
				t.Errorf("said %q, want %q", said, tc.said)
			}
			if got := cl.ShardKey("ycsb.orders"); got != `{"customer": "hashed"}` {
				t.Errorf("the cluster holds ycsb.orders sharded on %s", got)
			}
			// Before a run, the key in place is checked, not set up again.
			n := len(srv.Commands())
			if err := SetUpShardKeys(t.Context(), f, c, false, nil); err != nil {
				t.Errorf("check after the set-up: %v", err)
			}
			if got := setupCommands(srv); len(got) != len(tc.want) {
				t.Errorf("the check changed the cluster: %v", srv.Commands()[n:])
			}
		})
	}
}

// TestShardKeyRefusals: a shardKey the cluster contradicts, or a server
// that is no mongos, is one line naming the collection and its shardKey.
func TestShardKeyRefusals(t *testing.T) {
	t.Parallel()
	f, err := Parse("orders.yaml", []byte(shardedOrders), nil)
	if err != nil {
		t.Fatal(err)
	}
	ranged := func(cl *nullservertest.Cluster) {
		_ = cl.Shard("ycsb.orders", bson.D{{Key: "_id", Value: 1}}, 0)
	}
	for _, load := range []bool{true, false} {
		_, _, c := fakeMongos(t, "7.0.12", false, ranged)
		err := SetUpShardKeys(t.Context(), f, c, load, nil)
		var mismatch *dbmongo.ShardKeyMismatchError
		want := "collection orders: shardKey customer:hashed, but ycsb.orders is already sharded on _id:1: load it again with --drop to re-shard it, or give shardKey as _id:1"
		if !errors.As(err, &mismatch) || err.Error() != want {
			t.Errorf("load %t: error %v, want %q", load, err, want)
		}
	}
	standalone, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer standalone.Close()
	c, err := dbmongo.Open(t.Context(), dbmongo.Config{URL: standalone.URI(), Database: "ycsb", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	err = SetUpShardKeys(t.Context(), f, c, true, nil)
	var notMongos *dbmongo.NotMongosError
	if !errors.As(err, &notMongos) || !strings.HasPrefix(err.Error(), "collection orders: shardKey customer:hashed needs a mongos; this is a ") {
		t.Errorf("against a standalone: %v", err)
	}
}

// TestUnsupportedCollections: FerretDB takes no validator, which is said
// before anything is created.
func TestUnsupportedCollections(t *testing.T) {
	t.Parallel()
	f, err := Parse("orders.yaml", []byte(shardedOrders), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"collection orders: FerretDB v1.24.0 has no validators; accepted: MongoDB, or the collection without validator"}
	if got := f.UnsupportedCollections(Server{Topology: Standalone, FerretDB: "v1.24.0"}); !slices.Equal(got, want) {
		t.Errorf("FerretDB: %q, want %q", got, want)
	}
	if got := f.UnsupportedCollections(Server{Topology: Sharded, Version: "7.0.12"}); got != nil {
		t.Errorf("MongoDB: %q, want nothing", got)
	}
}
