package nullserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"
)

// connect opens a Go driver client on s, disconnected when the test ends.
func connect(t testing.TB, s *Server) *mongo.Client {
	t.Helper()
	// The timeout only turns a server bug into a failure instead of a hang.
	c, err := mongo.Connect(options.Client().ApplyURI(s.URI()).SetServerSelectionTimeout(20 * time.Second))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Disconnect(context.Background()); err != nil {
			t.Errorf("Disconnect: %v", err)
		}
	})
	return c
}

// checkRecord checks a YCSB record as the server returns it: the wanted _id
// (nil: no _id) and exactly the wanted fields, each 100 bytes of binary.
func checkRecord(t *testing.T, raw bson.Raw, wantID any, wantFields []string) {
	t.Helper()
	elems, err := raw.Elements()
	if err != nil {
		t.Fatalf("record does not decode: %v", err)
	}
	var keys []string
	for _, e := range elems {
		keys = append(keys, e.Key())
		if e.Key() == "_id" {
			continue
		}
		sub, data, ok := e.Value().BinaryOK()
		if !ok || sub != 0 || len(data) != fieldLength {
			t.Errorf("%s = %v, want binary subtype 0 of %d bytes", e.Key(), e.Value(), fieldLength)
		}
	}
	wantKeys := wantFields
	if wantID != nil {
		wantKeys = append([]string{"_id"}, wantFields...)
		var got struct {
			ID any `bson:"_id"`
		}
		if err := bson.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != wantID {
			t.Errorf("_id = %#v, want %#v", got.ID, wantID)
		}
	}
	if strings.Join(keys, ",") != strings.Join(wantKeys, ",") {
		t.Errorf("record keys = %v, want %v", keys, wantKeys)
	}
}

var allFieldNames = []string{"field0", "field1", "field2", "field3", "field4", "field5", "field6", "field7", "field8", "field9"}

func TestDriver(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	client := connect(t, s)
	coll := client.Database("ycsb").Collection("usertable")
	ctx := context.Background()
	ycsb := func(key string) bson.D {
		d := bson.D{{Key: "_id", Value: key}}
		for _, f := range allFieldNames {
			d = append(d, bson.E{Key: f, Value: bson.Binary{Data: make([]byte, 100)}})
		}
		return d
	}
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "field1", Value: bson.Binary{Data: []byte("v")}}}}}

	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"Ping", func(t *testing.T) {
			if err := client.Ping(ctx, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"FindOne by _id", func(t *testing.T) {
			raw, err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "user42"}}).Raw()
			if err != nil {
				t.Fatal(err)
			}
			checkRecord(t, raw, "user42", allFieldNames)
		}},
		// The _id is echoed with its BSON type, not just as a string.
		{"FindOne by int64 _id", func(t *testing.T) {
			raw, err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: int64(42)}}).Raw()
			if err != nil {
				t.Fatal(err)
			}
			checkRecord(t, raw, int64(42), allFieldNames)
		}},
		{"FindOne with projection", func(t *testing.T) {
			proj := bson.D{{Key: "field1", Value: 1}, {Key: "field3", Value: 1}}
			raw, err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "user7"}}, options.FindOne().SetProjection(proj)).Raw()
			if err != nil {
				t.Fatal(err)
			}
			checkRecord(t, raw, "user7", []string{"field1", "field3"})
		}},
		{"FindOne excluding _id and a field", func(t *testing.T) {
			proj := bson.D{{Key: "_id", Value: 0}, {Key: "field0", Value: 0}}
			raw, err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "user7"}}, options.FindOne().SetProjection(proj)).Raw()
			if err != nil {
				t.Fatal(err)
			}
			checkRecord(t, raw, nil, allFieldNames[1:])
		}},
		{"Find cursor to the end", func(t *testing.T) {
			filter := bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: "user5"}}}}
			cur, err := coll.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(10))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for cur.Next(ctx) {
				checkRecord(t, cur.Current, defaultID, allFieldNames)
				n++
			}
			if err := cur.Err(); err != nil {
				t.Fatal(err)
			}
			if err := cur.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Errorf("cursor returned %d documents, want 1", n)
			}
		}},
		{"InsertOne", func(t *testing.T) {
			res, err := coll.InsertOne(ctx, ycsb("user1"))
			if err != nil {
				t.Fatal(err)
			}
			if res.InsertedID != "user1" {
				t.Errorf("InsertedID = %v, want user1", res.InsertedID)
			}
		}},
		{"InsertMany", func(t *testing.T) {
			docs := []any{ycsb("user1"), ycsb("user2"), ycsb("user3"), ycsb("user4"), ycsb("user5")}
			res, err := coll.InsertMany(ctx, docs)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.InsertedIDs) != len(docs) {
				t.Errorf("InsertedIDs = %v, want %d ids", res.InsertedIDs, len(docs))
			}
		}},
		// BulkWrite reports the server's n, so it checks the count of a
		// batch sent as a document sequence.
		{"BulkWrite inserts", func(t *testing.T) {
			var models []mongo.WriteModel
			for i := range 7 {
				models = append(models, mongo.NewInsertOneModel().SetDocument(ycsb(fmt.Sprint("user", i))))
			}
			res, err := coll.BulkWrite(ctx, models)
			if err != nil {
				t.Fatal(err)
			}
			if res.InsertedCount != 7 {
				t.Errorf("InsertedCount = %d, want 7", res.InsertedCount)
			}
		}},
		{"UpdateOne", func(t *testing.T) {
			res, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: "user3"}}, set)
			if err != nil {
				t.Fatal(err)
			}
			if res.MatchedCount != 1 || res.ModifiedCount != 1 {
				t.Errorf("matched %d modified %d, want 1 and 1", res.MatchedCount, res.ModifiedCount)
			}
		}},
		{"BulkWrite updates", func(t *testing.T) {
			var models []mongo.WriteModel
			for i := range 3 {
				models = append(models, mongo.NewUpdateOneModel().SetFilter(bson.D{{Key: "_id", Value: fmt.Sprint("user", i)}}).SetUpdate(set))
			}
			res, err := coll.BulkWrite(ctx, models)
			if err != nil {
				t.Fatal(err)
			}
			if res.MatchedCount != 3 || res.ModifiedCount != 3 {
				t.Errorf("matched %d modified %d, want 3 and 3", res.MatchedCount, res.ModifiedCount)
			}
		}},
		{"DeleteOne", func(t *testing.T) {
			res, err := coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: "user3"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.DeletedCount != 1 {
				t.Errorf("DeletedCount = %d, want 1", res.DeletedCount)
			}
		}},
		{"BulkWrite deletes", func(t *testing.T) {
			var models []mongo.WriteModel
			for i := range 4 {
				models = append(models, mongo.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: fmt.Sprint("user", i)}}))
			}
			res, err := coll.BulkWrite(ctx, models)
			if err != nil {
				t.Fatal(err)
			}
			if res.DeletedCount != 4 {
				t.Errorf("DeletedCount = %d, want 4", res.DeletedCount)
			}
		}},
		{"Aggregate is empty", func(t *testing.T) {
			cur, err := coll.Aggregate(ctx, mongo.Pipeline{})
			if err != nil {
				t.Fatal(err)
			}
			var all []bson.Raw
			if err := cur.All(ctx, &all); err != nil {
				t.Fatal(err)
			}
			if len(all) != 0 {
				t.Errorf("aggregate returned %d documents, want 0", len(all))
			}
		}},
		{"CountDocuments", func(t *testing.T) {
			n, err := coll.CountDocuments(ctx, bson.D{})
			if err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("CountDocuments = %d, want 0", n)
			}
		}},
		{"FindOneAndUpdate finds nothing", func(t *testing.T) {
			err := coll.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: "user1"}}, set).Err()
			if !errors.Is(err, mongo.ErrNoDocuments) {
				t.Errorf("FindOneAndUpdate error = %v, want ErrNoDocuments", err)
			}
		}},
		{"RunCommand unknown", func(t *testing.T) {
			var res struct {
				OK float64 `bson:"ok"`
			}
			if err := client.Database("ycsb").RunCommand(ctx, bson.D{{Key: "frobnicate", Value: 1}}).Decode(&res); err != nil {
				t.Fatal(err)
			}
			if res.OK != 1 {
				t.Errorf("ok = %v, want 1", res.OK)
			}
		}},
		{"buildInfo", func(t *testing.T) {
			var res struct {
				Version      string  `bson:"version"`
				VersionArray []int32 `bson:"versionArray"`
			}
			if err := client.Database("admin").RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&res); err != nil {
				t.Fatal(err)
			}
			if res.Version != serverVersion || len(res.VersionArray) != 4 || res.VersionArray[0] != 7 {
				t.Errorf("buildInfo = %+v, want version %s", res, serverVersion)
			}
		}},
		{"ListDatabaseNames", func(t *testing.T) {
			names, err := client.ListDatabaseNames(ctx, bson.D{})
			if err != nil {
				t.Fatal(err)
			}
			if len(names) != 0 {
				t.Errorf("databases = %v, want none", names)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t)
		})
	}
}

// TestDriverConcurrent runs many goroutines through one client, which opens
// a pool of connections that the server serves at once.
func TestDriverConcurrent(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	coll := connect(t, s).Database("ycsb").Collection("usertable")
	const workers, ops = 32, 200
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ops {
				key := fmt.Sprintf("user%d", w*ops+i)
				var err error
				if i%4 == 3 {
					_, err = coll.UpdateOne(context.Background(), bson.D{{Key: "_id", Value: key}},
						bson.D{{Key: "$set", Value: bson.D{{Key: "field0", Value: "x"}}}})
				} else {
					var got struct {
						ID string `bson:"_id"`
					}
					err = coll.FindOne(context.Background(), bson.D{{Key: "_id", Value: key}}).Decode(&got)
					if err == nil && got.ID != key {
						err = fmt.Errorf("read %s, got _id %s", key, got.ID)
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := s.Requests(); got < workers*ops {
		t.Errorf("Requests() = %d, want at least %d", got, workers*ops)
	}
}

func TestRawProtocol(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	isMaster := doc(t, bson.D{{Key: "isMaster", Value: 1}, {Key: "helloOk", Value: true}})
	pingMsg := func(id int32) []byte {
		return opMsgBytes(id, 0, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "admin"}}))
	}
	insert := doc(t, bson.D{{Key: "insert", Value: "usertable"}, {Key: "$db", Value: "ycsb"}})
	threeDocs := docSeq{"documents", []bsoncore.Document{ycsbDoc(t, "user1"), ycsbDoc(t, "user2"), ycsbDoc(t, "user3")}}

	tests := []struct {
		name string
		// send is written as one block; the last request's reply is checked.
		send      [][]byte
		wantTo    int32
		wantOp    wiremessage.OpCode
		wantFlags int32
		check     func(t *testing.T, d bsoncore.Document)
	}{
		{
			name: "legacy isMaster gets OP_REPLY", send: [][]byte{opQueryBytes(11, "admin.$cmd", isMaster)},
			wantTo: 11, wantOp: opReply,
			check: func(t *testing.T, d bsoncore.Document) {
				if !lookup(t, d, "ismaster").Boolean() {
					t.Error("ismaster is not true")
				}
				if v := lookup(t, d, "maxWireVersion").Int32(); v != maxWireVersion {
					t.Errorf("maxWireVersion = %d, want %d", v, maxWireVersion)
				}
				if v := lookup(t, d, "maxBsonObjectSize").Int32(); v != 16777216 {
					t.Errorf("maxBsonObjectSize = %d", v)
				}
				if lookup(t, d, "ok").Double() != 1 {
					t.Error("ok is not 1")
				}
			},
		},
		{
			name: "legacy find is refused", send: [][]byte{opQueryBytes(12, "ycsb.usertable", doc(t, bson.D{{Key: "_id", Value: "user1"}}))},
			wantTo: 12, wantOp: opReply, wantFlags: int32(wiremessage.QueryFailure),
			check: func(t *testing.T, d bsoncore.Document) {
				if lookup(t, d, "ok").Double() != 0 {
					t.Error("ok is not 0")
				}
			},
		},
		{
			// The unacknowledged insert gets no reply, so the next reply
			// read must answer the ping.
			name:   "moreToCome is not answered",
			send:   [][]byte{opMsgBytes(20, wiremessage.MoreToCome, insert, threeDocs), pingMsg(21)},
			wantTo: 21, wantOp: opMsg,
		},
		{
			name: "checksum is skipped", send: [][]byte{opMsgBytes(30, wiremessage.ChecksumPresent, insert, threeDocs)},
			wantTo: 30, wantOp: opMsg,
			check: func(t *testing.T, d bsoncore.Document) {
				if n := lookup(t, d, "n").Int32(); n != 3 {
					t.Errorf("n = %d, want 3", n)
				}
			},
		},
		{
			name: "update sequence", send: [][]byte{opMsgBytes(40, 0, doc(t, bson.D{{Key: "update", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}),
				docSeq{"updates", []bsoncore.Document{doc(t, bson.D{{Key: "q", Value: bson.D{}}}), doc(t, bson.D{{Key: "q", Value: bson.D{}}})}})},
			wantTo: 40, wantOp: opMsg,
			check: func(t *testing.T, d bsoncore.Document) {
				if n, m := lookup(t, d, "n").Int32(), lookup(t, d, "nModified").Int32(); n != 2 || m != 2 {
					t.Errorf("n = %d, nModified = %d, want 2 and 2", n, m)
				}
			},
		},
		{
			name: "getMore", send: [][]byte{opMsgBytes(50, 0, doc(t, bson.D{{Key: "getMore", Value: int64(5)}, {Key: "collection", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}))},
			wantTo: 50, wantOp: opMsg,
			check: func(t *testing.T, d bsoncore.Document) {
				if ns := lookup(t, d, "cursor", "ns").StringValue(); ns != "ycsb.usertable" {
					t.Errorf("ns = %q", ns)
				}
				if id := lookup(t, d, "cursor", "id").Int64(); id != 0 {
					t.Errorf("cursor id = %d, want 0", id)
				}
				if vals, err := lookup(t, d, "cursor", "nextBatch").Array().Values(); err != nil || len(vals) != 0 {
					t.Errorf("nextBatch = %v, %v; want empty", vals, err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rc := dialRaw(t, s)
			var all []byte
			for _, m := range tt.send {
				all = append(all, m...)
			}
			r := rc.roundTrip(all)
			if r.responseTo != tt.wantTo || r.opCode != tt.wantOp || r.flags != tt.wantFlags {
				t.Fatalf("reply to %d as %s flags %d, want to %d as %s flags %d",
					r.responseTo, r.opCode, r.flags, tt.wantTo, tt.wantOp, tt.wantFlags)
			}
			if r.opCode == opReply && r.numReturn != 1 {
				t.Errorf("numberReturned = %d, want 1", r.numReturn)
			}
			if tt.check != nil {
				tt.check(t, r.doc)
			}
		})
	}
}

// TestMalformedClosesConnection checks that the server drops a client whose
// stream it cannot parse, and keeps serving others.
func TestMalformedClosesConnection(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	bad := dialRaw(t, s)
	bad.send(withOpcode(opMsgBytes(1, 0, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "a"}})), 2012))
	buf := make([]byte, 1)
	if n, err := bad.c.Read(buf); err == nil {
		t.Errorf("read %d bytes from a connection that sent garbage, want it closed", n)
	}
	good := dialRaw(t, s)
	r := good.roundTrip(opMsgBytes(2, 0, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "a"}})))
	if r.responseTo != 2 {
		t.Errorf("responseTo = %d, want 2", r.responseTo)
	}
}

// TestClose checks that Close ends open connections and is idempotent.
func TestClose(t *testing.T) {
	t.Parallel()
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rc := dialRaw(t, s)
	rc.roundTrip(opMsgBytes(1, 0, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "a"}})))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	buf := make([]byte, 1)
	if _, err := rc.c.Read(buf); err == nil {
		t.Error("connection still open after Close")
	}
	if s.Requests() != 1 {
		t.Errorf("Requests() = %d, want 1", s.Requests())
	}
}

func TestURI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr string
		want string // prefix; the port is chosen by the system
	}{
		{"127.0.0.1:0", "mongodb://127.0.0.1:"},
		// A wildcard listen address is replaced by one a client can dial.
		{"0.0.0.0:0", "mongodb://127.0.0.1:"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			t.Parallel()
			s, err := Start(tt.addr)
			if err != nil {
				t.Fatalf("Start(%s): %v", tt.addr, err)
			}
			t.Cleanup(func() { _ = s.Close() })
			uri := s.URI()
			if !strings.HasPrefix(uri, tt.want) || !strings.HasSuffix(uri, "/?directConnection=true") {
				t.Errorf("URI() = %q, want %s<port>/?directConnection=true", uri, tt.want)
			}
		})
	}
}

func TestStartError(t *testing.T) {
	t.Parallel()
	if s, err := Start("256.0.0.1:0"); err == nil {
		_ = s.Close()
		t.Fatal("Start on an invalid address succeeded")
	}
}
