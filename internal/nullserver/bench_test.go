package nullserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// driverFind is a find as the Go driver sends it for FindOne by _id.
func driverFind(b testing.TB, projection bool) []byte {
	d := bson.D{
		{Key: "find", Value: "usertable"},
		{Key: "filter", Value: bson.D{{Key: "_id", Value: "user6284781860667377211"}}},
		{Key: "limit", Value: int64(1)},
		{Key: "singleBatch", Value: true},
	}
	if projection {
		d = append(d, bson.E{Key: "projection", Value: bson.D{{Key: "field3", Value: 1}, {Key: "field7", Value: 1}}})
	}
	d = append(d, bson.E{Key: "lsid", Value: lsid}, bson.E{Key: "$db", Value: "ycsb"})
	return opMsgBytes(1, 0, doc(b, d))
}

// BenchmarkHandle measures the server's own CPU cost per request, parse and
// reply, without the network.
func BenchmarkHandle(b *testing.B) {
	records := make([]bsoncore.Document, 100)
	for i := range records {
		records[i] = ycsbDoc(b, fmt.Sprint("user", i))
	}
	cases := []struct {
		name string
		msg  []byte
	}{
		{"find", driverFind(b, false)},
		{"find-projection", driverFind(b, true)},
		{"insert-100", opMsgBytes(1, 0, doc(b, bson.D{{Key: "insert", Value: "usertable"}, {Key: "$db", Value: "ycsb"}}), docSeq{"documents", records})},
		{"hello", opMsgBytes(1, 0, doc(b, bson.D{{Key: "hello", Value: 1}, {Key: "$db", Value: "admin"}}))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			h := handler{now: time.Now, started: time.Now()}
			var out []byte
			b.SetBytes(int64(len(c.msg)))
			b.ReportAllocs()
			for b.Loop() {
				req, err := parseMessage(c.msg)
				if err != nil {
					b.Fatal(err)
				}
				out = h.appendReply(out[:0], &req)
			}
		})
	}
}

// BenchmarkRawFind measures one find round trip from a client that costs
// next to nothing, so the figure is the server plus the loopback network.
func BenchmarkRawFind(b *testing.B) {
	s := startServer(b)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	msg := driverFind(b, false)
	r := bufio.NewReader(c)
	var in []byte
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Write(msg); err != nil {
			b.Fatal(err)
		}
		if in, err = readMessage(r, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDriverFindOne measures a YCSB read through the Go driver against
// the null server: the client's cost per operation, which is what
// calibration reports.
func BenchmarkDriverFindOne(b *testing.B) {
	s := startServer(b)
	coll := connect(b, s).Database("ycsb").Collection("usertable")
	ctx := context.Background()
	filter := bson.D{{Key: "_id", Value: "user6284781860667377211"}}
	b.ReportAllocs()
	for b.Loop() {
		raw, err := coll.FindOne(ctx, filter).Raw()
		if err != nil {
			b.Fatal(err)
		}
		if len(raw) == 0 {
			b.Fatal("empty record")
		}
	}
}
