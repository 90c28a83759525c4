package nullserver

import (
	"bytes"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// TestRespond checks the hook a fake server plugs into: the Responder
// sees each command's parts, its reply is sent as given, ok false leaves
// the command to the server, and Default is the server's own reply.
func TestRespond(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []Request
	var defaults [][]byte
	fixed := doc(t, bson.D{{Key: "answered", Value: "by the responder"}, {Key: "ok", Value: 1.0}})
	s, err := StartWith("127.0.0.1:0", Options{Respond: func(r Request) ([]byte, bool) {
		mu.Lock()
		defer mu.Unlock()
		// Doc aliases the connection's buffer: kept only as a copy.
		r.Doc = bytes.Clone(r.Doc)
		seen = append(seen, r)
		defaults = append(defaults, r.Default())
		return fixed, r.Name == "insert"
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	rc := dialRaw(t, s)

	insert := doc(t, bson.D{{Key: "insert", Value: "usertable"}, {Key: "$db", Value: "ycsb"}})
	three := docSeq{"documents", []bsoncore.Document{ycsbDoc(t, "user1"), ycsbDoc(t, "user2"), ycsbDoc(t, "user3")}}
	got := rc.roundTrip(opMsgBytes(1, 0, insert, three))
	if !bytes.Equal(got.doc, fixed) {
		t.Errorf("insert answered %v, want the responder's %v", got.doc, bsoncore.Document(fixed))
	}
	count := doc(t, bson.D{{Key: "count", Value: "usertable"}, {Key: "$db", Value: "ycsb"}})
	got = rc.roundTrip(opMsgBytes(2, 0, count))
	plain := rc.roundTrip(opMsgBytes(3, 0, count))
	if n := lookup(t, got.doc, "n").Int32(); n != 0 {
		t.Errorf("count left to the server answered n=%d, want the server's 0", n)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 {
		t.Fatalf("the responder saw %d commands, want 3", len(seen))
	}
	ins := seen[0]
	if ins.DB != "ycsb" || ins.Name != "insert" || ins.Collection != "usertable" || ins.Statements != 3 {
		t.Errorf("insert seen as db %q name %q collection %q statements %d, want ycsb insert usertable 3", ins.DB, ins.Name, ins.Collection, ins.Statements)
	}
	if v, _ := ins.Doc.Lookup("insert").StringValueOK(); v != "usertable" {
		t.Errorf("insert's Doc holds insert=%q, want the command document", v)
	}
	if n := bsoncore.Document(defaults[0]).Lookup("n").Int32(); n != 3 {
		t.Errorf("Default of the insert says n=%d, want the server's 3", n)
	}
	if !bytes.Equal(defaults[2], plain.doc) {
		t.Errorf("Default of count = %v, want the reply the server sent %v", bsoncore.Document(defaults[2]), plain.doc)
	}
}
