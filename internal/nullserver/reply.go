package nullserver

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"
)

// What the server claims to be. Wire version 21 is MongoDB 7.0; the Go
// driver v2 needs at least 9 (MongoDB 4.4).
const (
	serverVersion  = "7.0.0"
	minWireVersion = 0
	maxWireVersion = 21
	sessionMinutes = 30
)

// The shape of the document every find returns: YCSB's default record of
// fieldcount=10 fields of fieldlength=100 bytes, stored as BSON binary by
// YCSB's mongodb binding.
const (
	fieldCount  = 10
	fieldLength = 100
	defaultID   = "user1"
)

// Reply pieces that never change, built once so that a reply is mostly
// copies of ready bytes.
var (
	fieldElems    = buildFieldElems()
	allFields     = bytes.Join(fieldElems[:], nil)
	defaultIDElem = bsoncore.AppendStringElement(nil, "_id", defaultID)
	okDoc         = buildOKDoc()
	buildInfoDoc  = buildBuildInfoDoc()
)

func buildFieldElems() [fieldCount][]byte {
	var elems [fieldCount][]byte
	value := make([]byte, fieldLength)
	for i := range value {
		// Printable bytes, like the random ASCII YCSB writes.
		value[i] = 'a' + byte(i%26)
	}
	for i := range elems {
		elems[i] = bsoncore.AppendBinaryElement(nil, "field"+strconv.Itoa(i), 0, value)
	}
	return elems
}

func buildOKDoc() []byte {
	idx, dst := bsoncore.AppendDocumentStart(nil)
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

func buildBuildInfoDoc() []byte {
	idx, dst := bsoncore.AppendDocumentStart(nil)
	dst = bsoncore.AppendStringElement(dst, "version", serverVersion)
	dst = bsoncore.AppendStringElement(dst, "gitVersion", "")
	arr, dst := bsoncore.AppendArrayElementStart(dst, "versionArray")
	for i, v := range []int32{7, 0, 0, 0} {
		dst = bsoncore.AppendInt32Element(dst, strconv.Itoa(i), v)
	}
	dst = endDoc(dst, arr)
	dst = bsoncore.AppendInt32Element(dst, "bits", 64)
	dst = bsoncore.AppendBooleanElement(dst, "debug", false)
	dst = bsoncore.AppendInt32Element(dst, "maxBsonObjectSize", maxBSONObjectSize)
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

// endDoc closes a document or array opened at idx. Unlike
// bsoncore.AppendDocumentEnd it has no error to return: idx always comes from
// a start call on the same buffer.
func endDoc(dst []byte, idx int32) []byte {
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[idx:], uint32(len(dst)-int(idx)))
	return dst
}

// handler answers the requests of one connection. It is owned by that
// connection's goroutine.
type handler struct {
	srv     *Server
	connID  int32
	replyID int32
	host    string
	pid     int64
	started time.Time
	now     func() time.Time
}

// appendReply appends the whole reply message for req to dst; it appends
// nothing when the client asked for no reply (moreToCome).
func (h *handler) appendReply(dst []byte, req *request) []byte {
	if req.moreToCome {
		return dst
	}
	h.replyID++
	if req.legacy {
		idx, dst := wiremessage.AppendHeaderStart(dst, h.replyID, req.requestID, opReply)
		var flags wiremessage.ReplyFlag
		if req.cmd.notCommand {
			flags = wiremessage.QueryFailure
		}
		dst = wiremessage.AppendReplyFlags(dst, flags)
		dst = wiremessage.AppendReplyCursorID(dst, 0)
		dst = wiremessage.AppendReplyStartingFrom(dst, 0)
		dst = wiremessage.AppendReplyNumberReturned(dst, 1)
		dst = h.appendCommandReply(dst, &req.cmd)
		return bsoncore.UpdateLength(dst, idx, int32(len(dst)-int(idx)))
	}
	idx, dst := wiremessage.AppendHeaderStart(dst, h.replyID, req.requestID, opMsg)
	dst = wiremessage.AppendMsgFlags(dst, 0)
	dst = wiremessage.AppendMsgSectionType(dst, wiremessage.SingleDocument)
	dst = h.appendCommandReply(dst, &req.cmd)
	return bsoncore.UpdateLength(dst, idx, int32(len(dst)-int(idx)))
}

// appendCommandReply appends the reply document for one command.
func (h *handler) appendCommandReply(dst []byte, c *command) []byte {
	if c.notCommand {
		return appendError(dst, 352, "UnsupportedOpQueryCommand",
			"OP_QUERY is only supported for commands on the $cmd collection")
	}
	if !c.hasDB {
		return appendError(dst, 40571, "Location40571", "OP_MSG requests require a $db argument")
	}
	if h.srv != nil {
		h.srv.keep(c)
		if h.srv.reply != nil {
			if r, ok := h.srv.reply(Command{DB: string(c.db), Name: string(c.name), Doc: bson.Raw(c.doc)}); ok {
				return append(dst, r...)
			}
		}
		if cl := h.srv.mongos; cl != nil {
			if out, ok := cl.reply(dst, c, h); ok {
				return out
			}
		}
	}
	switch string(c.name) {
	case "hello":
		return h.appendHello(dst, "isWritablePrimary")
	case "isMaster", "ismaster":
		return h.appendHello(dst, "ismaster")
	case "buildInfo", "buildinfo":
		return append(dst, buildInfoDoc...)
	case "serverStatus":
		return h.appendServerStatus(dst)
	case "find":
		return appendFind(dst, c)
	case "aggregate", "listCollections", "listIndexes":
		return appendEmptyCursor(dst, c, "firstBatch")
	case "getMore":
		return appendEmptyCursor(dst, c, "nextBatch")
	case "insert", "delete":
		return appendCounts(dst, c.statements, false)
	case "update":
		return appendCounts(dst, c.statements, true)
	case "count":
		return appendCounts(dst, 0, false)
	case "findAndModify", "findandmodify":
		idx, dst := bsoncore.AppendDocumentStart(dst)
		dst = bsoncore.AppendNullElement(dst, "value")
		dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
		return endDoc(dst, idx)
	case "listDatabases":
		idx, dst := bsoncore.AppendDocumentStart(dst)
		arr, dst := bsoncore.AppendArrayElementStart(dst, "databases")
		dst = endDoc(dst, arr)
		dst = bsoncore.AppendInt64Element(dst, "totalSize", 0)
		dst = bsoncore.AppendInt64Element(dst, "totalSizeMb", 0)
		dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
		return endDoc(dst, idx)
	default:
		// ping, endSessions, killCursors, getParameter and anything
		// unknown: success without content.
		return append(dst, okDoc...)
	}
}

// appendHello answers hello and its legacy spelling. It leaves out
// topologyVersion on purpose: without it drivers poll with plain hellos
// instead of holding a streaming (awaitable) hello open on a connection of
// their own.
func (h *handler) appendHello(dst []byte, primaryKey string) []byte {
	idx, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendBooleanElement(dst, "helloOk", true)
	dst = bsoncore.AppendBooleanElement(dst, primaryKey, true)
	dst = bsoncore.AppendInt32Element(dst, "maxBsonObjectSize", maxBSONObjectSize)
	dst = bsoncore.AppendInt32Element(dst, "maxMessageSizeBytes", maxMessageSize)
	dst = bsoncore.AppendInt32Element(dst, "maxWriteBatchSize", maxWriteBatchSize)
	dst = bsoncore.AppendDateTimeElement(dst, "localTime", h.now().UnixMilli())
	dst = bsoncore.AppendInt32Element(dst, "logicalSessionTimeoutMinutes", sessionMinutes)
	dst = bsoncore.AppendInt32Element(dst, "connectionId", h.connID)
	dst = bsoncore.AppendInt32Element(dst, "minWireVersion", minWireVersion)
	dst = bsoncore.AppendInt32Element(dst, "maxWireVersion", maxWireVersion)
	dst = bsoncore.AppendBooleanElement(dst, "readOnly", false)
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

// appendServerStatus answers serverStatus with the few fields tools print.
func (h *handler) appendServerStatus(dst []byte) []byte {
	now := h.now()
	up := now.Sub(h.started)
	idx, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendStringElement(dst, "host", h.host)
	dst = bsoncore.AppendStringElement(dst, "version", serverVersion)
	dst = bsoncore.AppendStringElement(dst, "process", "mongod")
	dst = bsoncore.AppendInt64Element(dst, "pid", h.pid)
	dst = bsoncore.AppendDoubleElement(dst, "uptime", up.Seconds())
	dst = bsoncore.AppendInt64Element(dst, "uptimeMillis", up.Milliseconds())
	dst = bsoncore.AppendDateTimeElement(dst, "localTime", now.UnixMilli())
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

// appendFind answers find with a cursor that is already exhausted (id 0)
// and holds one YCSB record.
func appendFind(dst []byte, c *command) []byte {
	coll, _ := stringValue(c.arg)
	idx, dst := bsoncore.AppendDocumentStart(dst)
	cur, dst := bsoncore.AppendDocumentElementStart(dst, "cursor")
	arr, dst := bsoncore.AppendArrayElementStart(dst, "firstBatch")
	doc, dst := bsoncore.AppendDocumentElementStart(dst, "0")
	dst = appendRecord(dst, c.filter, c.projection)
	dst = endDoc(dst, doc)
	dst = endDoc(dst, arr)
	dst = bsoncore.AppendInt64Element(dst, "id", 0)
	dst = appendNS(dst, c.db, coll)
	dst = endDoc(dst, cur)
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

// appendEmptyCursor answers cursor commands that return no documents.
func appendEmptyCursor(dst []byte, c *command, batch string) []byte {
	coll, ok := stringValue(c.arg)
	if string(c.name) == "getMore" {
		coll, ok = c.collection, true
	}
	idx, dst := bsoncore.AppendDocumentStart(dst)
	cur, dst := bsoncore.AppendDocumentElementStart(dst, "cursor")
	arr, dst := bsoncore.AppendArrayElementStart(dst, batch)
	dst = endDoc(dst, arr)
	dst = bsoncore.AppendInt64Element(dst, "id", 0)
	if ok {
		dst = appendNS(dst, c.db, coll)
	} else {
		// A database-level cursor ({aggregate: 1}, listCollections) lives
		// in the "<db>.$cmd.<command>" namespace.
		dst = appendNS(dst, c.db, append([]byte("$cmd."), c.name...))
	}
	dst = endDoc(dst, cur)
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

// appendCounts answers a write command that touched n records.
func appendCounts(dst []byte, n int, modified bool) []byte {
	idx, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendInt32Element(dst, "n", int32(n))
	if modified {
		dst = bsoncore.AppendInt32Element(dst, "nModified", int32(n))
	}
	dst = bsoncore.AppendDoubleElement(dst, "ok", 1)
	return endDoc(dst, idx)
}

// appendError appends a command failure as servers report it.
func appendError(dst []byte, code int32, codeName, msg string) []byte {
	idx, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendDoubleElement(dst, "ok", 0)
	dst = bsoncore.AppendStringElement(dst, "errmsg", msg)
	dst = bsoncore.AppendInt32Element(dst, "code", code)
	dst = bsoncore.AppendStringElement(dst, "codeName", codeName)
	return endDoc(dst, idx)
}

// appendNS appends the string element ns: "<db>.<coll>" without building
// the string first.
func appendNS(dst, db, coll []byte) []byte {
	dst = bsoncore.AppendHeader(dst, bsoncore.TypeString, "ns")
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(db)+1+len(coll)+1))
	dst = append(dst, db...)
	dst = append(dst, '.')
	dst = append(dst, coll...)
	return append(dst, 0)
}

// appendRecord appends the elements of the YCSB record a find returns: the
// _id asked for by the filter and the fields the projection selects.
func appendRecord(dst []byte, filter, projection bsoncore.Document) []byte {
	if len(projection) <= 5 { // absent or {}: the whole record
		dst = appendID(dst, filter)
		return append(dst, allFields...)
	}
	include, includeID := projectFields(projection)
	if includeID {
		dst = appendID(dst, filter)
	}
	for i, ok := range include {
		if ok {
			dst = append(dst, fieldElems[i]...)
		}
	}
	return dst
}

// appendID echoes the _id of an equality filter {_id: x}, so that a reader
// gets back the key it asked for; any other filter gets a fixed key.
func appendID(dst []byte, filter bsoncore.Document) []byte {
	if filter == nil {
		return append(dst, defaultIDElem...)
	}
	it, err := newIter(filter)
	if err != nil {
		return append(dst, defaultIDElem...)
	}
	key, val, ok, err := it.next()
	if err != nil || !ok || string(key) != "_id" || isOperatorDoc(val) {
		return append(dst, defaultIDElem...)
	}
	if _, _, more, err := it.next(); more || err != nil {
		return append(dst, defaultIDElem...)
	}
	dst = bsoncore.AppendHeader(dst, val.Type, "_id")
	return append(dst, val.Data...)
}

// isOperatorDoc reports whether v is a query operator document such as
// {$gte: "user5"} rather than a value to match.
func isOperatorDoc(v bsoncore.Value) bool {
	if v.Type != bsoncore.TypeEmbeddedDocument {
		return false
	}
	it, err := newIter(v.Data)
	if err != nil {
		return true
	}
	key, _, ok, err := it.next()
	return err == nil && ok && len(key) > 0 && key[0] == '$'
}

// projectFields decides which record fields a projection keeps. A projection
// that excludes any field (field: 0) keeps everything it does not name;
// otherwise it keeps only the fields it names. _id is kept unless excluded.
func projectFields(projection bsoncore.Document) (include [fieldCount]bool, includeID bool) {
	var named, excluded [fieldCount]bool
	exclusion := false
	includeID = true
	it, err := newIter(projection)
	if err != nil {
		return allIncluded(), true
	}
	for {
		key, val, ok, err := it.next()
		if err != nil {
			return allIncluded(), true
		}
		if !ok {
			break
		}
		truthy := isTruthy(val)
		if string(key) == "_id" {
			includeID = truthy
			continue
		}
		if !truthy {
			exclusion = true
		}
		if i, ok := fieldIndex(key); ok {
			named[i] = truthy
			excluded[i] = !truthy
		}
	}
	for i := range include {
		if exclusion {
			include[i] = !excluded[i]
		} else {
			include[i] = named[i]
		}
	}
	return include, includeID
}

func allIncluded() (all [fieldCount]bool) {
	for i := range all {
		all[i] = true
	}
	return all
}

// fieldIndex maps "field0".."field9" to 0..9.
func fieldIndex(key []byte) (int, bool) {
	if len(key) != len("field0") || string(key[:5]) != "field" || key[5] < '0' || key[5] > '9' {
		return 0, false
	}
	return int(key[5] - '0'), true
}

// isTruthy reads a projection value the way the server does: false and zero
// exclude, anything else (1, true, an expression) includes.
func isTruthy(v bsoncore.Value) bool {
	switch v.Type {
	case bsoncore.TypeBoolean:
		b, ok := v.BooleanOK()
		return !ok || b
	case bsoncore.TypeDouble:
		f, ok := v.DoubleOK()
		return !ok || f != 0
	case bsoncore.TypeInt32, bsoncore.TypeInt64:
		n, ok := v.AsInt64OK()
		return !ok || n != 0
	default:
		return true
	}
}
