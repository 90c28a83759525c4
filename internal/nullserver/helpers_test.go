package nullserver

import (
	"bufio"
	"encoding/binary"
	"net"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"
)

// docSeq is an OP_MSG kind 1 section: an identifier and its documents.
type docSeq struct {
	ident string
	docs  []bsoncore.Document
}

// doc marshals a bson.D into raw bytes for building test messages.
func doc(t testing.TB, d bson.D) bsoncore.Document {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatalf("marshal %v: %v", d, err)
	}
	return b
}

// opMsgBytes builds an OP_MSG with one body section and any document
// sequences; with ChecksumPresent set it appends a (dummy) checksum.
func opMsgBytes(reqID int32, flags wiremessage.MsgFlag, body bsoncore.Document, seqs ...docSeq) []byte {
	idx, dst := wiremessage.AppendHeaderStart(nil, reqID, 0, opMsg)
	dst = wiremessage.AppendMsgFlags(dst, flags)
	dst = wiremessage.AppendMsgSectionType(dst, wiremessage.SingleDocument)
	dst = append(dst, body...)
	for _, s := range seqs {
		dst = wiremessage.AppendMsgSectionType(dst, wiremessage.DocumentSequence)
		start := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = append(dst, s.ident...)
		dst = append(dst, 0)
		for _, d := range s.docs {
			dst = append(dst, d...)
		}
		binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	}
	if flags&wiremessage.ChecksumPresent != 0 {
		dst = append(dst, 0xde, 0xad, 0xbe, 0xef)
	}
	return bsoncore.UpdateLength(dst, idx, int32(len(dst)-int(idx)))
}

// opQueryBytes builds a legacy OP_QUERY on the namespace ns.
func opQueryBytes(reqID int32, ns string, query bsoncore.Document) []byte {
	idx, dst := wiremessage.AppendHeaderStart(nil, reqID, 0, opQuery)
	dst = binary.LittleEndian.AppendUint32(dst, 0) // flags
	dst = append(dst, ns...)
	dst = append(dst, 0)
	dst = binary.LittleEndian.AppendUint32(dst, 0)          // numberToSkip
	dst = binary.LittleEndian.AppendUint32(dst, 0xffffffff) // numberToReturn -1
	dst = append(dst, query...)
	return bsoncore.UpdateLength(dst, idx, int32(len(dst)-int(idx)))
}

// reply is a decoded server reply.
type reply struct {
	opCode     wiremessage.OpCode
	responseTo int32
	flags      int32 // OP_MSG flag bits or OP_REPLY response flags
	numReturn  int32 // OP_REPLY only
	doc        bsoncore.Document
}

// decodeReply checks the framing of a whole reply message and returns its
// document; it fails the test on anything a driver would reject.
func decodeReply(t testing.TB, msg []byte) reply {
	t.Helper()
	r, err := parseReply(msg)
	if err != nil {
		t.Fatalf("bad reply: %v", err)
	}
	return r
}

type replyError string

func (e replyError) Error() string { return string(e) }

func parseReply(msg []byte) (reply, error) {
	var r reply
	length, _, respTo, op, rest, ok := wiremessage.ReadHeader(msg)
	if !ok || int(length) != len(msg) {
		return r, replyError("header length does not match the message")
	}
	r.opCode, r.responseTo = op, respTo
	switch op {
	case opMsg:
		if len(rest) < 5 {
			return r, replyError("OP_MSG too short")
		}
		r.flags = int32(binary.LittleEndian.Uint32(rest))
		if rest[4] != byte(wiremessage.SingleDocument) {
			return r, replyError("OP_MSG reply section is not kind 0")
		}
		rest = rest[5:]
	case opReply:
		if len(rest) < 20 {
			return r, replyError("OP_REPLY too short")
		}
		r.flags = int32(binary.LittleEndian.Uint32(rest))
		if binary.LittleEndian.Uint64(rest[4:]) != 0 {
			return r, replyError("OP_REPLY cursor id is not 0")
		}
		r.numReturn = int32(binary.LittleEndian.Uint32(rest[16:]))
		rest = rest[20:]
	default:
		return r, replyError("unexpected reply opcode")
	}
	d, tail, ok := bsoncore.ReadDocument(rest)
	if !ok || len(tail) != 0 {
		return r, replyError("reply body is not exactly one document")
	}
	if err := d.Validate(); err != nil {
		return r, err
	}
	r.doc = d
	return r, nil
}

// rawConn is a minimal wire-protocol client for tests that drivers cannot
// express (legacy OP_QUERY, moreToCome, checksums).
type rawConn struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
}

func dialRaw(t testing.TB, s *Server) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	// A generous bound so that a server bug fails the test instead of
	// hanging it; nothing is asserted about time.
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	return &rawConn{t: t, c: c, r: bufio.NewReader(c)}
}

func (rc *rawConn) send(msg []byte) {
	rc.t.Helper()
	if _, err := rc.c.Write(msg); err != nil {
		rc.t.Fatalf("write: %v", err)
	}
}

func (rc *rawConn) receive() reply {
	rc.t.Helper()
	msg, err := readMessage(rc.r, nil)
	if err != nil {
		rc.t.Fatalf("read reply: %v", err)
	}
	return decodeReply(rc.t, msg)
}

func (rc *rawConn) roundTrip(msg []byte) reply {
	rc.t.Helper()
	rc.send(msg)
	return rc.receive()
}

func startServer(t testing.TB) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// lookup returns a field of a reply document, failing the test if absent.
func lookup(t testing.TB, d bsoncore.Document, path ...string) bsoncore.Value {
	t.Helper()
	v, err := d.LookupErr(path...)
	if err != nil {
		t.Fatalf("reply %v has no %v: %v", d, path, err)
	}
	return v
}
