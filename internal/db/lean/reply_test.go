package lean

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
	//lint:ignore SA1019 the clock the topology and the lean path share
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/mongobench/mongobench/internal/db"
)

// opMsg wraps a reply document in an OP_MSG, as a server sends it.
func opMsg(t *testing.T, d bson.D) []byte {
	t.Helper()
	body, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	wm := make([]byte, 16, 21+len(body))
	binary.LittleEndian.PutUint32(wm[12:], uint32(wiremessage.OpMsg))
	wm = binary.LittleEndian.AppendUint32(wm, 0)
	wm = append(wm, byte(wiremessage.SingleDocument))
	wm = append(wm, body...)
	binary.LittleEndian.PutUint32(wm, uint32(len(wm)))
	return wm
}

// TestReplies: what the lean path makes of each kind of reply a server
// sends, as the driver's path would classify it.
func TestReplies(t *testing.T) {
	dup := bson.D{{Key: "index", Value: int32(1)}, {Key: "code", Value: int32(11000)}, {Key: "errmsg", Value: "E11000 duplicate key"}}
	tests := []struct {
		name  string
		reply bson.D
		op    writeOp
		// ok: the command succeeded; then err is writeError's.
		ok        bool
		n         int64
		found     bool
		err       error // errors.Is target; nil: no error
		failed    []int // a batch's failed records
		retryRead bool
		retryW    bool
		notPrim   bool
	}{
		{name: "find with a record", ok: true, found: true, reply: bson.D{
			{Key: "cursor", Value: bson.D{{Key: "firstBatch", Value: bson.A{bson.D{{Key: "_id", Value: "user1"}}}}, {Key: "id", Value: int64(0)}}},
			{Key: "ok", Value: 1.0}}},
		{name: "find without", ok: true, reply: bson.D{
			{Key: "cursor", Value: bson.D{{Key: "firstBatch", Value: bson.A{}}, {Key: "id", Value: int64(0)}}},
			{Key: "ok", Value: 1.0}}},
		{name: "update matched", op: opUpdate, ok: true, n: 1, reply: bson.D{{Key: "n", Value: int32(1)}, {Key: "nModified", Value: int32(1)}, {Key: "ok", Value: 1.0}}},
		{name: "ok as int", op: opDelete, ok: true, reply: bson.D{{Key: "n", Value: int32(0)}, {Key: "ok", Value: int32(1)}}},
		{name: "duplicate insert", op: opInsert, ok: true, err: db.ErrDuplicateKey,
			reply: bson.D{{Key: "n", Value: int32(0)}, {Key: "writeErrors", Value: bson.A{dup}}, {Key: "ok", Value: 1.0}}},
		{name: "batch with duplicates", op: opInsertMany, ok: true, n: 2, err: db.ErrDuplicateKey, failed: []int{1, 3},
			reply: bson.D{{Key: "n", Value: int32(2)}, {Key: "writeErrors", Value: bson.A{
				bson.D{{Key: "index", Value: int32(3)}, {Key: "code", Value: int32(11000)}, {Key: "errmsg", Value: "dup"}}, dup}}, {Key: "ok", Value: 1.0}}},
		{name: "write concern timeout", op: opUpdate, ok: true, n: 1, err: db.ErrTimeout,
			reply: bson.D{{Key: "n", Value: int32(1)}, {Key: "writeConcernError", Value: bson.D{{Key: "code", Value: int32(64)}, {Key: "errmsg", Value: "waiting for replication timed out"}}}, {Key: "ok", Value: 1.0}}},
		{name: "not primary", op: opUpdate, notPrim: true, retryRead: true, retryW: true,
			reply: bson.D{{Key: "ok", Value: 0.0}, {Key: "code", Value: int32(10107)}, {Key: "codeName", Value: "NotWritablePrimary"}, {Key: "errmsg", Value: "not primary"},
				{Key: "errorLabels", Value: bson.A{"RetryableWriteError"}}}},
		{name: "maxTimeMS expired", err: db.ErrTimeout,
			reply: bson.D{{Key: "ok", Value: 0.0}, {Key: "code", Value: int32(50)}, {Key: "codeName", Value: "MaxTimeMSExpired"}, {Key: "errmsg", Value: "operation exceeded time limit"}}},
		{name: "unauthorized",
			reply: bson.D{{Key: "ok", Value: 0.0}, {Key: "code", Value: int32(13)}, {Key: "codeName", Value: "Unauthorized"}, {Key: "errmsg", Value: "not authorized"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r reply
			if err := r.parse(opMsg(t, tc.reply)); err != nil {
				t.Fatal(err)
			}
			if r.ok != tc.ok || r.n != tc.n {
				t.Errorf("ok %v n %d, want %v %d", r.ok, r.n, tc.ok, tc.n)
			}
			if _, found := r.first(); found != tc.found {
				t.Errorf("first document found %v, want %v", found, tc.found)
			}
			var err error
			if r.ok {
				err = r.writeError(tc.op)
			} else {
				cerr := r.commandError()
				var de driver.Error
				if !errors.As(cerr, &de) || de.Code != r.code || de.NotPrimary() != tc.notPrim {
					t.Errorf("command error %#v: not the driver's, or not primary %v, want %v", cerr, de.NotPrimary(), tc.notPrim)
				}
				err = classifyCommand(cerr, &r)
				if r.retryable(false) != tc.retryRead || r.retryable(true) != tc.retryW {
					t.Errorf("retryable read %v write %v, want %v %v", r.retryable(false), r.retryable(true), tc.retryRead, tc.retryW)
				}
				if err == nil {
					t.Fatal("a failed command gave no error")
				}
			}
			if tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
			if tc.err == nil && r.ok && err != nil {
				t.Errorf("error %v, want none", err)
			}
			var be *db.BatchError
			if errors.As(err, &be) != (tc.failed != nil) || (be != nil && !slices.Equal(be.Failed, tc.failed)) {
				t.Errorf("batch error %v, want failed records %v", be, tc.failed)
			}
		})
	}
}

// TestMalformedReplies: a reply that is not an OP_MSG with a document is
// an error, never a success.
func TestMalformedReplies(t *testing.T) {
	good := opMsg(t, bson.D{{Key: "ok", Value: 1.0}})
	legacy := slices.Clone(good)
	binary.LittleEndian.PutUint32(legacy[12:], uint32(wiremessage.OpReply))
	for name, wm := range map[string][]byte{
		"short":          good[:18],
		"OP_REPLY":       legacy,
		"truncated body": good[:len(good)-3],
	} {
		var r reply
		if err := r.parse(wm); !errors.Is(err, errMalformed) {
			t.Errorf("%s: %v, want a malformed reply", name, err)
		}
	}
}

// TestMaxTimeMS: the time left less the minimum round trip, rounded up.
func TestMaxTimeMS(t *testing.T) {
	now := time.Unix(1000, 0)
	tests := []struct {
		deadline time.Time
		rtt      time.Duration
		want     int64
	}{
		{time.Time{}, 0, 0},
		{now.Add(30 * time.Second), 0, 30000},
		{now.Add(30 * time.Second), 300 * time.Microsecond, 30000},
		{now.Add(400 * time.Microsecond), 0, 1},
		{now.Add(-time.Second), 0, 0},
		{now.Add(30 * 24 * time.Hour), 0, 0},
	}
	for _, tc := range tests {
		if got := maxTimeMS(tc.deadline, now, tc.rtt); got != tc.want {
			t.Errorf("maxTimeMS(%v after, rtt %v) = %d, want %d", tc.deadline.Sub(now), tc.rtt, got, tc.want)
		}
	}
}

// TestClusterTimeGossip: a reply's $clusterTime advances the shared clock
// and the next command carries it after the session fields, where the
// driver puts it; an older one does not move the clock back.
func TestClusterTimeGossip(t *testing.T) {
	//lint:ignore SA1019 the clock the topology and the lean path share
	clock := new(session.ClusterClock)
	c := &Client{cfg: Config{Clock: clock, Database: "ycsb"}}
	w := &worker{c: c, lsid: c.newSession()}
	w.h.desc = description.Server{Kind: description.ServerKindMongos, WireVersion: &description.VersionRange{Max: 21}, SessionTimeoutMinutes: ptr(int64(30))}
	ct := func(sec uint32) bson.D {
		return bson.D{{Key: "clusterTime", Value: bson.Timestamp{T: sec, I: 1}}, {Key: "signature", Value: bson.D{{Key: "keyId", Value: int64(7)}}}}
	}
	for _, sec := range []uint32{100, 50} {
		var r reply
		if err := r.parse(opMsg(t, bson.D{{Key: "n", Value: int32(1)}, {Key: "ok", Value: 1.0}, {Key: "$clusterTime", Value: ct(sec)}})); err != nil {
			t.Fatal(err)
		}
		w.gossip(r.clusterTime)
	}
	w.txn = 3
	if err := w.encode(write, "usertable", "user1", nil, nil, nil, opDelete, true, 0); err != nil {
		t.Fatal(err)
	}
	body, _, ok := bsoncore.ReadDocument(w.out[21:])
	if !ok {
		t.Fatal("no body")
	}
	var keys []string
	elems, _ := bson.Raw(body).Elements()
	for _, e := range elems {
		keys = append(keys, e.Key())
	}
	if want := []string{"delete", "ordered", "lsid", "txnNumber", "$clusterTime", "$db"}; !slices.Equal(keys, want) {
		t.Errorf("fields %v, want %v", keys, want)
	}
	got := bson.Raw(body).Lookup("$clusterTime", "clusterTime")
	if sec, _ := got.Timestamp(); sec != 100 {
		t.Errorf("$clusterTime %v, want the later one (100)", got)
	}
}

func ptr[T any](v T) *T { return &v }
