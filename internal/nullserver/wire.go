package nullserver

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"
)

// Opcodes of the wire protocol that the server speaks. They are declared here
// rather than taken from wiremessage because the driver marks OP_QUERY as
// deprecated, and the server must still answer it: drivers send their first
// hello as OP_QUERY.
const (
	opReply wiremessage.OpCode = 1
	opQuery wiremessage.OpCode = 2004
	opMsg   wiremessage.OpCode = 2013
)

// Limits advertised in the hello reply and enforced on what clients send.
const (
	headerLen         = 16
	maxMessageSize    = 48000000
	maxBSONObjectSize = 16 * 1024 * 1024
	maxWriteBatchSize = 100000
)

// errMalformed is wrapped by every parse error, so callers can tell a broken
// message from an I/O failure.
var errMalformed = errors.New("malformed wire message")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errMalformed}, args...)...)
}

// request is one parsed client message. Its slices alias the message buffer
// and are valid only until the buffer is reused for the next message.
type request struct {
	requestID  int32
	legacy     bool // arrived as OP_QUERY: answer with OP_REPLY
	moreToCome bool // OP_MSG moreToCome: the client expects no reply
	cmd        command
}

// command holds the parts of a command document that the replies depend on.
// Everything else a command carries (lsid, $clusterTime, txnNumber,
// writeConcern, ...) is skipped.
type command struct {
	name []byte
	// arg is the value of the command's first element: the collection name
	// for CRUD commands.
	arg bsoncore.Value
	db  []byte
	// hasDB tells a missing $db (a client bug the reply reports) from an
	// empty one.
	hasDB      bool
	filter     bsoncore.Document
	projection bsoncore.Document
	collection []byte // getMore names its collection in a separate field
	// statements counts insert's documents, update's updates or delete's
	// deletes, whether they came in the body or as a document sequence.
	statements int
	// notCommand marks an OP_QUERY on a collection other than $cmd: a legacy
	// find that servers since 5.1 refuse.
	notCommand bool
	// doc is the whole command document, for the recording and for a
	// Responder.
	doc bsoncore.Document
	// seqs are the message's document sequences (kind 1 sections), for the
	// recording: drivers send insert's documents, update's updates and
	// delete's deletes there rather than in doc. A fixed array, so that
	// parsing a message allocates nothing; a command has one at most.
	seqs  [2]rawSequence
	nseqs int
}

// rawSequence is one document sequence of a message: its identifier and
// its documents back to back.
type rawSequence struct {
	ident, data []byte
}

// parseMessage parses one whole wire message (header included). It never
// panics on malformed input; it returns an error wrapping errMalformed.
func parseMessage(msg []byte) (request, error) {
	var req request
	if len(msg) < headerLen {
		return req, malformed("message of %d bytes is shorter than a header", len(msg))
	}
	length := int32(binary.LittleEndian.Uint32(msg))
	if int(length) != len(msg) {
		return req, malformed("header length %d does not match message size %d", length, len(msg))
	}
	req.requestID = int32(binary.LittleEndian.Uint32(msg[4:]))
	op := wiremessage.OpCode(binary.LittleEndian.Uint32(msg[12:]))
	body := msg[headerLen:]
	switch op {
	case opMsg:
		return req, parseOpMsg(&req, body)
	case opQuery:
		req.legacy = true
		return req, parseOpQuery(&req, body)
	default:
		return req, malformed("unsupported opcode %d", op)
	}
}

// parseOpMsg parses the flags and sections of an OP_MSG body.
func parseOpMsg(req *request, body []byte) error {
	if len(body) < 4 {
		return malformed("OP_MSG without flags")
	}
	flags := wiremessage.MsgFlag(binary.LittleEndian.Uint32(body))
	rest := body[4:]
	if flags&wiremessage.ChecksumPresent != 0 {
		// The CRC-32C trails the sections. TCP already guards the bytes, so
		// the checksum is dropped unchecked rather than costing a pass over
		// every message.
		if len(rest) < 4 {
			return malformed("OP_MSG checksum flag without a checksum")
		}
		rest = rest[:len(rest)-4]
	}
	req.moreToCome = flags&wiremessage.MoreToCome != 0

	var doc bsoncore.Document
	var seqDocs, seqUpdates, seqDeletes int
	for len(rest) > 0 {
		kind := wiremessage.SectionType(rest[0])
		rest = rest[1:]
		switch kind {
		case wiremessage.SingleDocument:
			if doc != nil {
				return malformed("OP_MSG with two body sections")
			}
			d, r, ok := bsoncore.ReadDocument(rest)
			if !ok {
				return malformed("OP_MSG body section is not a document")
			}
			doc, rest = d, r
		case wiremessage.DocumentSequence:
			ident, data, r, err := readSequence(rest)
			if err != nil {
				return err
			}
			n, err := countDocuments(data)
			if err != nil {
				return err
			}
			switch string(ident) {
			case "documents":
				seqDocs += n
			case "updates":
				seqUpdates += n
			case "deletes":
				seqDeletes += n
			}
			if req.cmd.nseqs < len(req.cmd.seqs) {
				req.cmd.seqs[req.cmd.nseqs] = rawSequence{ident: ident, data: data}
				req.cmd.nseqs++
			}
			rest = r
		default:
			return malformed("OP_MSG section kind %d", kind)
		}
	}
	if doc == nil {
		return malformed("OP_MSG without a body section")
	}
	if err := parseCommand(&req.cmd, doc); err != nil {
		return err
	}
	switch string(req.cmd.name) {
	case "insert":
		req.cmd.statements += seqDocs
	case "update":
		req.cmd.statements += seqUpdates
	case "delete":
		req.cmd.statements += seqDeletes
	}
	return nil
}

// parseOpQuery parses a legacy OP_QUERY. Only commands (a query on the
// "<db>.$cmd" collection) are answered; drivers use it for their first hello.
func parseOpQuery(req *request, body []byte) error {
	if len(body) < 4 {
		return malformed("OP_QUERY without flags")
	}
	rest := body[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return malformed("OP_QUERY collection name is not terminated")
	}
	ns := rest[:i]
	rest = rest[i+1:]
	if len(rest) < 8 { // numberToSkip, numberToReturn
		return malformed("OP_QUERY is truncated")
	}
	query, _, ok := bsoncore.ReadDocument(rest[8:])
	if !ok {
		return malformed("OP_QUERY query is not a document")
	}
	db, coll, _ := bytes.Cut(ns, []byte{'.'})
	if err := parseCommand(&req.cmd, query); err != nil {
		return err
	}
	// Drivers wrap a command that carries a read preference as
	// {$query: {...}, $readPreference: ...}.
	if name := string(req.cmd.name); name == "$query" || name == "query" {
		inner, ok := req.cmd.arg.DocumentOK()
		if !ok {
			return malformed("OP_QUERY %s is not a document", name)
		}
		req.cmd = command{}
		if err := parseCommand(&req.cmd, inner); err != nil {
			return err
		}
	}
	req.cmd.db, req.cmd.hasDB = db, true
	req.cmd.notCommand = string(coll) != "$cmd"
	return nil
}

// parseCommand reads the command name and the fields the replies use. It
// walks the top level of doc only; nested documents are checked just enough
// to be read safely.
func parseCommand(c *command, doc bsoncore.Document) error {
	it, err := newIter(doc)
	if err != nil {
		return err
	}
	key, val, ok, err := it.next()
	if err != nil {
		return err
	}
	if !ok {
		return malformed("empty command document")
	}
	c.name, c.arg, c.doc = key, val, doc
	var statementsKey string
	switch string(key) {
	case "insert":
		statementsKey = "documents"
	case "update":
		statementsKey = "updates"
	case "delete":
		statementsKey = "deletes"
	}
	for {
		key, val, ok, err = it.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		switch string(key) {
		case "$db":
			if c.db, ok = stringValue(val); !ok {
				return malformed("$db is not a string")
			}
			c.hasDB = true
		// A filter or projection that is not a document is left out rather
		// than refused: the reply then is the one for no filter, and an odd
		// command still gets an answer instead of a dropped connection.
		case "filter":
			c.filter = documentValue(val)
		case "projection":
			c.projection = documentValue(val)
		case "collection":
			c.collection, _ = stringValue(val)
		default:
			if statementsKey == "" || string(key) != statementsKey {
				continue
			}
			if val.Type != bsoncore.TypeArray {
				return malformed("%s is not an array", key)
			}
			n, err := countElements(val.Data)
			if err != nil {
				return err
			}
			c.statements += n
		}
	}
}

// iter walks the elements of one BSON document without allocating.
type iter struct{ rest []byte }

func newIter(doc []byte) (iter, error) {
	if len(doc) < 5 || int(int32(binary.LittleEndian.Uint32(doc))) != len(doc) || doc[len(doc)-1] != 0 {
		return iter{}, malformed("invalid BSON document")
	}
	return iter{rest: doc[4 : len(doc)-1]}, nil
}

// next returns the next element's key and value; ok is false at the end.
func (it *iter) next() (key []byte, val bsoncore.Value, ok bool, err error) {
	if len(it.rest) == 0 {
		return nil, val, false, nil
	}
	t := bsoncore.Type(it.rest[0])
	i := bytes.IndexByte(it.rest[1:], 0)
	if i < 0 {
		return nil, val, false, malformed("BSON key is not terminated")
	}
	key = it.rest[1 : 1+i]
	val, rest, ok := bsoncore.ReadValue(it.rest[2+i:], t)
	if !ok {
		return nil, val, false, malformed("BSON value of %q is invalid or truncated", key)
	}
	it.rest = rest
	return key, val, true, nil
}

// stringValue returns the bytes of a BSON string value, without its NUL.
func stringValue(v bsoncore.Value) ([]byte, bool) {
	if v.Type != bsoncore.TypeString || len(v.Data) < 5 {
		return nil, false
	}
	n := int(int32(binary.LittleEndian.Uint32(v.Data)))
	if n < 1 || 4+n != len(v.Data) || v.Data[len(v.Data)-1] != 0 {
		return nil, false
	}
	return v.Data[4 : len(v.Data)-1], true
}

// documentValue returns v if it is an embedded document that newIter
// accepts, else nil.
func documentValue(v bsoncore.Value) bsoncore.Document {
	if v.Type != bsoncore.TypeEmbeddedDocument {
		return nil
	}
	if _, err := newIter(v.Data); err != nil {
		return nil
	}
	return v.Data
}

// countElements counts the elements of a BSON array (or document).
func countElements(arr []byte) (int, error) {
	it, err := newIter(arr)
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		_, _, ok, err := it.next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return n, nil
		}
		n++
	}
}

// readSequence splits a kind 1 section into its identifier and documents.
// wiremessage.ReadMsgSectionRawDocumentSequence does the same but returns
// the identifier as a string, an allocation per write request.
func readSequence(src []byte) (ident, data, rest []byte, err error) {
	if len(src) < 4 {
		return nil, nil, nil, malformed("OP_MSG document sequence is truncated")
	}
	n := int(int32(binary.LittleEndian.Uint32(src)))
	if n < 5 || n > len(src) {
		return nil, nil, nil, malformed("OP_MSG document sequence size %d out of range", n)
	}
	body := src[4:n]
	i := bytes.IndexByte(body, 0)
	if i < 0 {
		return nil, nil, nil, malformed("OP_MSG document sequence identifier is not terminated")
	}
	return body[:i], body[i+1:], src[n:], nil
}

// countDocuments counts the documents of an OP_MSG document sequence.
func countDocuments(data []byte) (int, error) {
	n := 0
	for len(data) > 0 {
		doc, rest, ok := bsoncore.ReadDocument(data)
		if !ok || len(doc) < 5 {
			return 0, malformed("document sequence holds an invalid document")
		}
		data = rest
		n++
	}
	return n, nil
}
