package nullserver

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/mongobench/mongobench/internal/golden"
)

// lsid is what drivers attach to every command; the server ignores it.
var lsid = bson.D{{Key: "id", Value: bson.Binary{Subtype: 4, Data: bytes.Repeat([]byte{7}, 16)}}}

func ycsbDoc(t testing.TB, key string) bsoncore.Document {
	d := bson.D{{Key: "_id", Value: key}}
	for i := range 3 {
		d = append(d, bson.E{Key: fmt.Sprintf("field%d", i), Value: bson.Binary{Data: bytes.Repeat([]byte{'x'}, 100)}})
	}
	return doc(t, d)
}

func TestParseMessage(t *testing.T) {
	t.Parallel()
	find := doc(t, bson.D{{Key: "find", Value: "usertable"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: "user7"}}},
		{Key: "lsid", Value: lsid}, {Key: "$db", Value: "ycsb"}})
	three := []bsoncore.Document{ycsbDoc(t, "user1"), ycsbDoc(t, "user2"), ycsbDoc(t, "user3")}
	updates := []bsoncore.Document{
		doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "user1"}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "field0", Value: "v"}}}}}}),
		doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "user2"}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "field0", Value: "v"}}}}}}),
	}
	deleteStmt := doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "user1"}}}, {Key: "limit", Value: 1}})
	isMaster := doc(t, bson.D{{Key: "isMaster", Value: 1}, {Key: "helloOk", Value: true}})
	// A valid message to mutate into broken ones.
	ping := opMsgBytes(1, 0, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "admin"}}))

	type want struct {
		name       string
		db         string
		statements int
		legacy     bool
		moreToCome bool
		notCommand bool
		hasFilter  bool
	}
	tests := []struct {
		desc    string
		msg     []byte
		want    want
		wantErr bool
	}{
		// The common read: collection, filter and the $db the driver adds.
		{desc: "find", msg: opMsgBytes(5, 0, find), want: want{name: "find", db: "ycsb", hasFilter: true}},
		// Drivers may set the checksum flag; the trailing CRC is skipped.
		{desc: "checksum", msg: opMsgBytes(5, wiremessage.ChecksumPresent, find), want: want{name: "find", db: "ycsb", hasFilter: true}},
		// Unacknowledged writes ask for no reply.
		{desc: "moreToCome", msg: opMsgBytes(5, wiremessage.MoreToCome, doc(t, bson.D{{Key: "insert", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}), docSeq{"documents", three}),
			want: want{name: "insert", db: "ycsb", statements: 3, moreToCome: true}},
		// insert's documents as a kind 1 section.
		{desc: "insert sequence", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "insert", Value: "usertable"}, {Key: "ordered", Value: true}, {Key: "$db", Value: "ycsb"}}), docSeq{"documents", three}),
			want: want{name: "insert", db: "ycsb", statements: 3}},
		// insert's documents as an array in the body.
		{desc: "insert array", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "insert", Value: "usertable"}, {Key: "documents", Value: bson.A{bson.Raw(three[0]), bson.Raw(three[1])}}, {Key: "$db", Value: "ycsb"}})),
			want: want{name: "insert", db: "ycsb", statements: 2}},
		// The body section may follow the sequence.
		{desc: "update sequence first", msg: func() []byte {
			m := opMsgBytes(5, 0, doc(t, bson.D{{Key: "update", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}), docSeq{"updates", updates})
			return moveBodyLast(m)
		}(), want: want{name: "update", db: "ycsb", statements: 2}},
		{desc: "delete sequence", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "delete", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}), docSeq{"deletes", []bsoncore.Document{deleteStmt}}),
			want: want{name: "delete", db: "ycsb", statements: 1}},
		// A sequence that does not belong to the command is not counted.
		{desc: "foreign sequence", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "delete", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}), docSeq{"documents", three}),
			want: want{name: "delete", db: "ycsb"}},
		// The first hello of most drivers.
		{desc: "legacy isMaster", msg: opQueryBytes(5, "admin.$cmd", isMaster), want: want{name: "isMaster", db: "admin", legacy: true}},
		// A command wrapped with a read preference.
		{desc: "legacy $query", msg: opQueryBytes(5, "admin.$cmd", doc(t, bson.D{{Key: "$query", Value: bson.Raw(isMaster)}, {Key: "$readPreference", Value: bson.D{{Key: "mode", Value: "primary"}}}})),
			want: want{name: "isMaster", db: "admin", legacy: true}},
		// A legacy find on a collection: parsed, answered with an error.
		{desc: "legacy find", msg: opQueryBytes(5, "ycsb.usertable", doc(t, bson.D{{Key: "_id", Value: "user1"}})),
			want: want{name: "_id", db: "ycsb", legacy: true, notCommand: true}},

		{desc: "too short", msg: ping[:10], wantErr: true},
		{desc: "length mismatch", msg: append(bytes.Clone(ping), 0), wantErr: true},
		{desc: "unknown opcode", msg: withOpcode(ping, 2012), wantErr: true},
		{desc: "no flags", msg: withLength(ping[:headerLen+2]), wantErr: true},
		{desc: "no body", msg: withLength(ping[:headerLen+4]), wantErr: true},
		{desc: "two bodies", msg: withLength(append(bytes.Clone(ping), ping[headerLen+4:]...)), wantErr: true},
		{desc: "bad section kind", msg: withLength(append(bytes.Clone(ping), 9)), wantErr: true},
		{desc: "truncated body", msg: withLength(ping[:len(ping)-3]), wantErr: true},
		{desc: "checksum flag, no checksum", msg: withLength(append(ping[:headerLen:headerLen], 1, 0, 0, 0)), wantErr: true},
		{desc: "empty command", msg: opMsgBytes(5, 0, doc(t, bson.D{})), wantErr: true},
		{desc: "$db not a string", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: 1}})), wantErr: true},
		{desc: "documents not an array", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "insert", Value: "t"}, {Key: "documents", Value: 1}, {Key: "$db", Value: "d"}})), wantErr: true},
		{desc: "bad document in sequence", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "insert", Value: "t"}, {Key: "$db", Value: "d"}}), docSeq{"documents", []bsoncore.Document{{3, 0, 0, 0}}}), wantErr: true},
		// An odd filter is ignored, not a reason to drop the connection.
		{desc: "filter not a document", msg: opMsgBytes(5, 0, doc(t, bson.D{{Key: "find", Value: "t"}, {Key: "filter", Value: "x"}, {Key: "$db", Value: "d"}})),
			want: want{name: "find", db: "d"}},
		{desc: "legacy name unterminated", msg: withLength(append(opQueryBytes(5, "", nil)[:headerLen+4], 'a', 'b')), wantErr: true},
		{desc: "legacy $query not a document", msg: opQueryBytes(5, "admin.$cmd", doc(t, bson.D{{Key: "$query", Value: 1}})), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			req, err := parseMessage(tt.msg)
			if tt.wantErr {
				if !errors.Is(err, errMalformed) {
					t.Fatalf("parseMessage error = %v, want a malformed-message error", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseMessage: %v", err)
			}
			got := want{
				name: string(req.cmd.name), db: string(req.cmd.db), statements: req.cmd.statements,
				legacy: req.legacy, moreToCome: req.moreToCome, notCommand: req.cmd.notCommand,
				hasFilter: req.cmd.filter != nil,
			}
			if got != tt.want {
				t.Errorf("parsed %+v, want %+v", got, tt.want)
			}
			if req.requestID != 5 {
				t.Errorf("requestID = %d, want 5", req.requestID)
			}
		})
	}
}

// moveBodyLast reorders an OP_MSG built by opMsgBytes (body, then one
// sequence) so that the sequence comes first.
func moveBodyLast(m []byte) []byte {
	sections := m[headerLen+4:]
	bodyLen := int(binary.LittleEndian.Uint32(sections[1:]))
	body, seq := sections[:1+bodyLen], sections[1+bodyLen:]
	out := bytes.Clone(m[:headerLen+4])
	out = append(out, seq...)
	return append(out, body...)
}

func withOpcode(m []byte, op int32) []byte {
	m = bytes.Clone(m)
	binary.LittleEndian.PutUint32(m[12:], uint32(op))
	return m
}

// withLength fixes the header length of a cut or extended message, so that
// the parser has to find what else is wrong with it.
func withLength(m []byte) []byte {
	m = bytes.Clone(m)
	binary.LittleEndian.PutUint32(m, uint32(len(m)))
	return m
}

// goldenCases are requests whose replies are pinned in testdata/replies.golden.
func goldenCases(t testing.TB) []struct {
	name string
	msg  []byte
} {
	cmd := func(d ...bson.E) []byte {
		return opMsgBytes(1, 0, doc(t, append(bson.D(d), bson.E{Key: "lsid", Value: lsid}, bson.E{Key: "$db", Value: "ycsb"})))
	}
	e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
	byID := bson.D{e("_id", "user42")}
	return []struct {
		name string
		msg  []byte
	}{
		{"hello", cmd(e("hello", 1))},
		{"legacy isMaster", opQueryBytes(1, "admin.$cmd", doc(t, bson.D{e("isMaster", 1), e("helloOk", true)}))},
		{"legacy find refused", opQueryBytes(1, "ycsb.usertable", doc(t, byID))},
		{"missing $db", opMsgBytes(1, 0, doc(t, bson.D{e("ping", 1)}))},
		{"ping", cmd(e("ping", 1))},
		{"unknown command", cmd(e("frobnicate", 1))},
		{"buildInfo", cmd(e("buildInfo", 1))},
		{"serverStatus", cmd(e("serverStatus", 1))},
		{"find by _id", cmd(e("find", "usertable"), e("filter", byID), e("limit", 1), e("singleBatch", true))},
		{"find by int64 _id", cmd(e("find", "usertable"), e("filter", bson.D{e("_id", int64(42))}))},
		{"find with projection", cmd(e("find", "usertable"), e("filter", byID), e("projection", bson.D{e("field1", 1), e("field3", true)}))},
		{"find with exclusion", cmd(e("find", "usertable"), e("filter", byID), e("projection", bson.D{e("_id", 0), e("field0", 0), e("field9", false)}))},
		{"find only _id", cmd(e("find", "usertable"), e("filter", byID), e("projection", bson.D{e("_id", 1)}))},
		{"scan", cmd(e("find", "usertable"), e("filter", bson.D{e("_id", bson.D{e("$gte", "user5")})}), e("sort", bson.D{e("_id", 1)}), e("limit", 10))},
		{"find two conditions", cmd(e("find", "usertable"), e("filter", bson.D{e("_id", "user5"), e("field0", "x")}))},
		{"aggregate", cmd(e("aggregate", "usertable"), e("pipeline", bson.A{}), e("cursor", bson.D{}))},
		{"aggregate database", cmd(e("aggregate", 1), e("pipeline", bson.A{}), e("cursor", bson.D{}))},
		{"getMore", cmd(e("getMore", int64(7)), e("collection", "usertable"))},
		{"insert", opMsgBytes(1, 0, doc(t, bson.D{e("insert", "usertable"), e("$db", "ycsb")}), docSeq{"documents", []bsoncore.Document{ycsbDoc(t, "user1"), ycsbDoc(t, "user2")}})},
		{"update", cmd(e("update", "usertable"), e("updates", bson.A{bson.D{e("q", byID)}, bson.D{e("q", byID)}, bson.D{e("q", byID)}}))},
		{"delete", cmd(e("delete", "usertable"), e("deletes", bson.A{bson.D{e("q", byID), e("limit", 1)}}))},
		{"findAndModify", cmd(e("findAndModify", "usertable"), e("query", byID), e("update", bson.D{}))},
		{"count", cmd(e("count", "usertable"))},
		{"listDatabases", cmd(e("listDatabases", 1))},
	}
}

// TestReplyGolden pins every reply document; run with -update after an
// intended change and review the diff.
func TestReplyGolden(t *testing.T) {
	t.Parallel()
	started := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	h := handler{connID: 3, host: "127.0.0.1:27017", pid: 4242, started: started,
		now: func() time.Time { return started.Add(90 * time.Second) }}
	var got strings.Builder
	for _, c := range goldenCases(t) {
		req, err := parseMessage(c.msg)
		if err != nil {
			t.Fatalf("%s: parseMessage: %v", c.name, err)
		}
		r := decodeReply(t, h.appendReply(nil, &req))
		if r.responseTo != 1 {
			t.Errorf("%s: responseTo = %d, want 1", c.name, r.responseTo)
		}
		var asD bson.D
		if err := bson.Unmarshal(r.doc, &asD); err != nil {
			t.Fatalf("%s: reply does not decode: %v", c.name, err)
		}
		js, err := bson.MarshalExtJSON(asD, true, false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// The record's field values are long and all alike; the golden
		// file shows where they are, the driver tests check their shape.
		js = bytes.ReplaceAll(js, []byte(base64.StdEncoding.EncodeToString(fieldElems[0][len("\x05field0\x00")+5:])), []byte("<100 bytes>"))
		fmt.Fprintf(&got, "# %s (%s, flags %d)\n%s\n", c.name, r.opCode, r.flags, js)
	}
	golden.Check(t, "replies.golden", got.String())
}

// TestMoreToComeNoReply checks that a request the client wants no answer to
// produces no bytes at all.
func TestMoreToComeNoReply(t *testing.T) {
	t.Parallel()
	req, err := parseMessage(opMsgBytes(1, wiremessage.MoreToCome, doc(t, bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "a"}})))
	if err != nil {
		t.Fatal(err)
	}
	h := handler{now: time.Now}
	if out := h.appendReply(nil, &req); len(out) != 0 {
		t.Errorf("reply of %d bytes to a moreToCome request, want none", len(out))
	}
}

// FuzzParseMessage feeds arbitrary bytes to the parser: it must return an
// error or a request whose reply is a well-framed message, and never panic.
func FuzzParseMessage(f *testing.F) {
	for _, c := range goldenCases(f) {
		f.Add(c.msg)
	}
	f.Add(opMsgBytes(9, wiremessage.ChecksumPresent|wiremessage.MoreToCome, doc(f, bson.D{{Key: "ping", Value: 1}})))
	f.Add([]byte{})
	f.Add(make([]byte, headerLen))
	h := handler{host: "h", now: time.Now, started: time.Now()}
	f.Fuzz(func(t *testing.T, msg []byte) {
		req, err := parseMessage(msg)
		if err != nil {
			if !errors.Is(err, errMalformed) {
				t.Fatalf("error %v does not wrap errMalformed", err)
			}
			return
		}
		out := h.appendReply(nil, &req)
		if req.moreToCome {
			if len(out) != 0 {
				t.Fatalf("reply to a moreToCome request")
			}
			return
		}
		if _, err := parseReply(out); err != nil {
			t.Fatalf("reply to %x is malformed: %v", msg, err)
		}
	})
}
