package mongo

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/nullserver/nullservertest"
)

func TestParseShardKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    string // canonical form; "" when an error is expected
		hashed  bool
		wantErr string
	}{
		// The field report's key: sh.shardCollection("testdb.test1", {_id: "hashed"}).
		{in: "_id:hashed", want: "_id:hashed", hashed: true},
		// Spelling is forgiving about case and spaces.
		{in: " _id : HASHED ", want: "_id:hashed", hashed: true},
		// A compound ranged key.
		{in: "field0:1,_id:1", want: "field0:1,_id:1"},
		// A compound key with one hashed field (MongoDB 4.4 and later).
		{in: "field0:1,_id:hashed", want: "field0:1,_id:hashed", hashed: true},
		{in: "a.b:1", want: "a.b:1"},
		{in: "", wantErr: "expected fields"},
		{in: "_id", wantErr: "not name:1 or name:hashed"},
		{in: ":1", wantErr: "not name:1 or name:hashed"},
		// MongoDB shard keys are 1 or "hashed"; -1 is an index direction, not a key.
		{in: "_id:-1", wantErr: `expected 1 (ranged) or hashed`},
		{in: "_id:1,_id:1", wantErr: "named twice"},
		{in: "a:hashed,b:hashed", wantErr: "one hashed field"},
		{in: "$a:1", wantErr: "starts with $"},
		{in: "a..b:1", wantErr: "empty part"},
	}
	for _, tt := range tests {
		k, err := ParseShardKey(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseShardKey(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseShardKey(%q): %v", tt.in, err)
			continue
		}
		if k.String() != tt.want || k.Hashed() != tt.hashed {
			t.Errorf("ParseShardKey(%q) = %s (hashed %t), want %s (hashed %t)", tt.in, k, k.Hashed(), tt.want, tt.hashed)
		}
		// What shardCollection is sent must read back as the same key.
		raw, err := bson.Marshal(k.Doc())
		if err != nil {
			t.Fatal(err)
		}
		back, err := ShardKeyFromDoc(raw)
		if err != nil || !back.Equal(k) {
			t.Errorf("key %s read back from %s as %s, %v", k, bson.Raw(raw), back, err)
		}
	}
}

func FuzzParseShardKey(f *testing.F) {
	for _, s := range []string{"_id:hashed", "field0:1,_id:1", "a:hashed,b:1", "", ":", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseShardKey(s)
		if err != nil {
			return
		}
		// A key that parses prints as a spelling that parses to itself.
		again, err := ParseShardKey(k.String())
		if err != nil || !again.Equal(k) {
			t.Fatalf("%q parsed as %s, which parses as %s, %v", s, k, again, err)
		}
	})
}

func TestShardKeyFromConfigDocuments(t *testing.T) {
	t.Parallel()
	// config.collections keeps the key as shardCollection got it; the
	// shell sends 1 as a double, drivers as an int32 or int64.
	tests := []struct {
		doc  string
		want string
	}{
		{`{"_id": "hashed"}`, "_id:hashed"},
		{`{"field0": 1.0, "_id": {"$numberInt": "1"}}`, "field0:1,_id:1"},
		{`{"a": {"$numberLong": "1"}}`, "a:1"},
	}
	for _, tt := range tests {
		var raw bson.Raw
		if err := bson.UnmarshalExtJSON([]byte(tt.doc), false, &raw); err != nil {
			t.Fatal(err)
		}
		k, err := ShardKeyFromDoc(raw)
		if err != nil || k.String() != tt.want {
			t.Errorf("ShardKeyFromDoc(%s) = %s, %v; want %s", tt.doc, k, err, tt.want)
		}
	}
	var raw bson.Raw
	_ = bson.UnmarshalExtJSON([]byte(`{"_id": -1}`), false, &raw)
	if _, err := ShardKeyFromDoc(raw); err == nil {
		t.Error("a key of -1 was accepted")
	}
}

// The set-up's command sequences are tested against the null server acting
// as a mongos because no mongos can run here: the embedded server
// (FerretDB) has no sharding, and a real cluster needs a config server
// replica set and shards. What is checked is what mongobench sends and
// how it reads the answers, which the fake gives in the shapes the MongoDB
// manual documents; whether a real mongos then balances the chunks is the
// README's checklist's to verify.
func openShardTest(t *testing.T, s *nullserver.Server) *Client {
	t.Helper()
	url := "mongodb://" + s.Addr() + "/ycsb?directConnection=true"
	c, err := Open(context.Background(), Config{URL: url, Database: "ycsb", Threads: 1, ConnectTimeout: 5 * time.Second, OpTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

func startMongos(t *testing.T, cl *nullservertest.Cluster) *nullserver.Server {
	t.Helper()
	s, err := nullservertest.Start(cl)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func newCluster(t *testing.T, version string) *nullservertest.Cluster {
	t.Helper()
	cl, err := nullservertest.NewCluster(version, "shard01", "shard02", "shard03")
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// names lists the recorded commands as "db.name", and the full text of
// the ones that change the cluster.
func names(cmds []nullserver.Command) (seq []string, changes []string) {
	for _, c := range cmds {
		seq = append(seq, c.DB+"."+c.Name)
		switch c.Name {
		case "enableSharding", "shardCollection", "drop":
			changes = append(changes, c.String())
		}
	}
	return seq, changes
}

func TestEnsureShardedSequences(t *testing.T) {
	t.Parallel()
	hashed, _ := ParseShardKey("_id:hashed")
	ranged, _ := ParseShardKey("field0:1,_id:1")
	tests := []struct {
		name    string
		version string
		// before sets the cluster up as an earlier run left it.
		before  func(*nullservertest.Cluster)
		drop    bool
		opts    ShardOptions
		wantSeq []string
		// wantChanges are the commands that changed the cluster, in order.
		wantChanges []string
		wantKey     string
		wantSetup   ShardSetup
	}{
		{
			// From 6.0 shardCollection enables sharding of the database itself.
			name: "empty, 7.0", version: "7.0.12",
			opts:        ShardOptions{Key: hashed},
			wantSeq:     []string{"config.find", "ycsb.count", "admin.buildInfo", "admin.shardCollection"},
			wantChanges: []string{`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"}}`},
			wantKey:     `{"_id": "hashed"}`,
			wantSetup:   ShardSetup{Namespace: "ycsb.usertable", Version: "7.0.12"},
		},
		{
			// 4.4 needs enableSharding first; numInitialChunks pre-splits a hashed key.
			name: "empty, 4.4, pre-split", version: "4.4.29",
			opts:    ShardOptions{Key: hashed, InitialChunks: 12},
			wantSeq: []string{"config.find", "ycsb.count", "admin.buildInfo", "admin.enableSharding", "admin.shardCollection"},
			wantChanges: []string{
				`admin.enableSharding {"enableSharding":"ycsb"}`,
				`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"},"numInitialChunks":12}`,
			},
			wantKey:   `{"_id": "hashed"}`,
			wantSetup: ShardSetup{Namespace: "ycsb.usertable", Version: "4.4.29", EnabledSharding: true},
		},
		{
			// numInitialChunks applies to hashed keys only: a ranged key starts as one chunk.
			name: "ranged compound key, 8.0", version: "8.0.4",
			opts:        ShardOptions{Key: ranged, InitialChunks: 12},
			wantSeq:     []string{"config.find", "ycsb.count", "admin.buildInfo", "admin.shardCollection"},
			wantChanges: []string{`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"field0":1,"_id":1}}`},
			wantKey:     `{"field0": {"$numberInt":"1"},"_id": {"$numberInt":"1"}}`,
			wantSetup:   ShardSetup{Namespace: "ycsb.usertable", Version: "8.0.4"},
		},
		{
			// --drop: the drop discards the key, the set-up puts it back.
			name: "drop and re-shard, 7.0", version: "7.0.12",
			before: func(cl *nullservertest.Cluster) {
				_ = cl.Shard("ycsb.usertable", bson.D{{Key: "_id", Value: "hashed"}}, 1000)
			},
			drop: true, opts: ShardOptions{Key: hashed},
			wantSeq: []string{"ycsb.drop", "config.find", "ycsb.count", "admin.buildInfo", "admin.shardCollection"},
			wantChanges: []string{
				`ycsb.drop {"drop":"usertable"}`,
				`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"}}`,
			},
			wantKey:   `{"_id": "hashed"}`,
			wantSetup: ShardSetup{Namespace: "ycsb.usertable", Version: "7.0.12"},
		},
		{
			// Before 5.0 config.collections keeps the dropped entry, marked dropped.
			name: "drop and re-shard, 4.4", version: "4.4.29",
			before: func(cl *nullservertest.Cluster) {
				_ = cl.Shard("ycsb.usertable", bson.D{{Key: "_id", Value: "hashed"}}, 1000)
			},
			drop: true, opts: ShardOptions{Key: hashed},
			wantSeq: []string{"ycsb.drop", "config.find", "ycsb.count", "admin.buildInfo", "admin.enableSharding", "admin.shardCollection"},
			wantChanges: []string{
				`ycsb.drop {"drop":"usertable"}`,
				`admin.enableSharding {"enableSharding":"ycsb"}`,
				`admin.shardCollection {"shardCollection":"ycsb.usertable","key":{"_id":"hashed"}}`,
			},
			wantKey:   `{"_id": "hashed"}`,
			wantSetup: ShardSetup{Namespace: "ycsb.usertable", Version: "4.4.29", EnabledSharding: true},
		},
		{
			// A second load without --drop finds the key in place and changes nothing.
			name: "already sharded on the key", version: "7.0.12",
			before: func(cl *nullservertest.Cluster) {
				_ = cl.Shard("ycsb.usertable", bson.D{{Key: "_id", Value: "hashed"}}, 1000)
			},
			opts:      ShardOptions{Key: hashed},
			wantSeq:   []string{"config.find"},
			wantKey:   `{"_id": "hashed"}`,
			wantSetup: ShardSetup{Namespace: "ycsb.usertable", AlreadySharded: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cl := newCluster(t, tt.version)
			if tt.before != nil {
				tt.before(cl)
			}
			s := startMongos(t, cl)
			c := openShardTest(t, s)
			ctx := context.Background()
			if tt.drop {
				if err := c.Drop(ctx, "usertable"); err != nil {
					t.Fatal(err)
				}
			}
			setup, err := c.EnsureSharded(ctx, "usertable", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if setup != tt.wantSetup {
				t.Errorf("setup = %+v, want %+v", setup, tt.wantSetup)
			}
			seq, changes := names(s.Commands())
			if strings.Join(seq, " ") != strings.Join(tt.wantSeq, " ") {
				t.Errorf("commands:\n got %v\nwant %v", seq, tt.wantSeq)
			}
			if strings.Join(changes, "\n") != strings.Join(tt.wantChanges, "\n") {
				t.Errorf("changes:\n got %q\nwant %q", changes, tt.wantChanges)
			}
			if got := compactJSON(cl.ShardKey("ycsb.usertable")); got != compactJSON(tt.wantKey) {
				t.Errorf("the cluster's key = %s, want %s", got, tt.wantKey)
			}
		})
	}
}

func compactJSON(s string) string { return strings.Join(strings.Fields(s), "") }

func TestEnsureShardedRefuses(t *testing.T) {
	t.Parallel()
	hashed, _ := ParseShardKey("_id:hashed")
	tests := []struct {
		name    string
		before  func(*nullservertest.Cluster)
		wantErr string
		// wantHave is the key the error names as the one in place.
		wantHave string
	}{
		{
			name: "sharded on another key",
			before: func(cl *nullservertest.Cluster) {
				_ = cl.Shard("ycsb.usertable", bson.D{{Key: "field0", Value: 1}, {Key: "_id", Value: 1}}, 1000)
			},
			wantErr:  "mongodb.shardkey=_id:hashed, but ycsb.usertable is already sharded on field0:1,_id:1",
			wantHave: "field0:1,_id:1",
		},
		{
			name:     "unsharded with documents",
			before:   func(cl *nullservertest.Cluster) { cl.SetDocuments("ycsb.usertable", 1000) },
			wantErr:  "mongodb.shardkey=_id:hashed, but ycsb.usertable already holds documents and is not sharded",
			wantHave: "none (not sharded)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cl := newCluster(t, "7.0.12")
			tt.before(cl)
			s := startMongos(t, cl)
			c := openShardTest(t, s)
			_, err := c.EnsureSharded(context.Background(), "usertable", ShardOptions{Key: hashed})
			var mismatch *ShardKeyMismatchError
			if !errors.As(err, &mismatch) {
				t.Fatalf("error = %v, want a *ShardKeyMismatchError", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) || mismatch.Have.String() != tt.wantHave {
				t.Errorf("error = %q (have %s), want it to contain %q (have %s)", err, mismatch.Have, tt.wantErr, tt.wantHave)
			}
			for _, cmd := range s.Commands() {
				if cmd.Name == "shardCollection" || cmd.Name == "enableSharding" || cmd.Name == "drop" {
					t.Errorf("refused, yet sent %s", cmd)
				}
			}
			// The run phase's check refuses the same way.
			if err := c.CheckSharded(context.Background(), "usertable", hashed); !errors.As(err, &mismatch) {
				t.Errorf("CheckSharded = %v, want a *ShardKeyMismatchError", err)
			}
		})
	}
}

func TestEnsureShardedNeedsMongos(t *testing.T) {
	t.Parallel()
	// The plain null server answers hello as a standalone mongod does.
	s, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c := openShardTest(t, s)
	hashed, _ := ParseShardKey("_id:hashed")
	_, err = c.EnsureSharded(context.Background(), "usertable", ShardOptions{Key: hashed})
	var notMongos *NotMongosError
	if !errors.As(err, &notMongos) || err.Error() != "mongodb.shardkey needs a mongos; this is a standalone" {
		t.Fatalf("error = %v, want the standalone refusal", err)
	}
	if cmds := s.Commands(); len(cmds) != 0 {
		t.Errorf("sent %v to a standalone after hello", cmds)
	}
}

func TestNeedsEnableSharding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version string
		parts   []int32
		want    bool
	}{
		{"4.4.29", []int32{4, 4, 29, 0}, true},
		{"5.0.26", []int32{5, 0, 26, 0}, true},
		{"6.0.0", []int32{6, 0, 0, 0}, false},
		{"8.0.4", nil, false},
		{"3.6.23", nil, true},
		{"", nil, true},
	}
	for _, tt := range tests {
		if got := needsEnableSharding(tt.version, tt.parts); got != tt.want {
			t.Errorf("needsEnableSharding(%q, %v) = %t, want %t", tt.version, tt.parts, got, tt.want)
		}
	}
}

func TestShardURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, uri, host, want, wantErr string
	}{
		{
			// The field report's URL: three mongos, credentials, authSource.
			name: "replica set shard", host: "shard2/node2:27002,node3:27002",
			uri:  "mongodb://admin:p%40ss@node1:20000,node2:20000,node3:20000/testdb?authSource=admin",
			want: "mongodb://admin:p%40ss@node2:27002,node3:27002/testdb?authSource=admin&replicaSet=shard2&readPreference=primary",
		},
		{
			// What names the mongos deployment or how to read it goes.
			name: "mongos options dropped", host: "rs1/a:27018",
			uri:  "mongodb://m1:27017,m2:27017/?readPreference=secondary&w=majority&directConnection=false&tls=true&loadBalanced=false",
			want: "mongodb://a:27018/?w=majority&tls=true&replicaSet=rs1&readPreference=primary",
		},
		{
			name: "shard without a replica set", host: "s1:27018",
			uri:  "mongodb://m1:27017/ycsb",
			want: "mongodb://s1:27018/ycsb?directConnection=true",
		},
		{
			// SRV implies TLS; the shard's hosts are listShards's, not DNS's.
			name: "srv", host: "atlas-shard-0/h0:27017,h1:27017",
			uri:  "mongodb+srv://u:pw@cluster0.example.net/ycsb?retryWrites=true",
			want: "mongodb://u:pw@h0:27017,h1:27017/ycsb?retryWrites=true&tls=true&replicaSet=atlas-shard-0&readPreference=primary",
		},
		{name: "no hosts", host: "rs1/", uri: "mongodb://m1/", wantErr: "names no server"},
		{name: "not a URL", host: "rs1/a:1", uri: "http://x", wantErr: "is not a mongodb:// URL"},
	}
	for _, tt := range tests {
		got, err := ShardURL(tt.uri, tt.host)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s:\n got %s, %v\nwant %s", tt.name, got, err, tt.want)
		}
		if err := ValidateURL(got); err != nil {
			t.Errorf("%s: %s is refused: %v", tt.name, got, err)
		}
	}
}
