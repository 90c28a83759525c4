package lean

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/mongobench/mongobench/internal/db"
)

// reply is what the benchmark reads of a command's reply, decoded in one
// pass over the document without copying.
type reply struct {
	ok          bool
	n           int64
	code        int32
	errmsg      string
	codeName    string
	labels      bsoncore.Value
	writeErrors bsoncore.Value
	wcError     bsoncore.Value
	cursor      bsoncore.Value
	clusterTime bsoncore.Value
	doc         bsoncore.Document
}

var errMalformed = errors.New("malformed reply")

// parse decodes an OP_MSG reply. The reply's values point into wm.
func (r *reply) parse(wm []byte) error {
	*r = reply{}
	if len(wm) < 21 {
		return fmt.Errorf("%w: %d bytes", errMalformed, len(wm))
	}
	if op := wiremessage.OpCode(binary.LittleEndian.Uint32(wm[12:])); op != wiremessage.OpMsg {
		return fmt.Errorf("%w: opcode %d, expected OP_MSG", errMalformed, op)
	}
	rest := wm[20:]
	if rest[0] != byte(wiremessage.SingleDocument) {
		return fmt.Errorf("%w: first section of kind %d", errMalformed, rest[0])
	}
	doc, _, ok := bsoncore.ReadDocument(rest[1:])
	if !ok {
		return fmt.Errorf("%w: body is not a document", errMalformed)
	}
	r.doc = doc
	elems := doc[4 : len(doc)-1]
	for len(elems) > 0 {
		e, more, ok := bsoncore.ReadElement(elems)
		if !ok {
			return fmt.Errorf("%w: invalid element", errMalformed)
		}
		elems = more
		v := e.Value()
		switch string(e.KeyBytes()) {
		case "ok":
			f, _ := asNumber(v)
			r.ok = f == 1
		case "n":
			f, _ := asNumber(v)
			r.n = int64(f)
		case "code":
			f, _ := asNumber(v)
			r.code = int32(f)
		case "errmsg":
			r.errmsg, _ = v.StringValueOK()
		case "codeName":
			r.codeName, _ = v.StringValueOK()
		case "errorLabels":
			r.labels = v
		case "writeErrors":
			r.writeErrors = v
		case "writeConcernError":
			r.wcError = v
		case "cursor":
			r.cursor = v
		case "$clusterTime":
			r.clusterTime = v
		}
	}
	return nil
}

func asNumber(v bsoncore.Value) (float64, bool) {
	switch v.Type {
	case bsoncore.TypeDouble:
		return v.Double(), true
	case bsoncore.TypeInt32:
		return float64(v.Int32()), true
	case bsoncore.TypeInt64:
		return float64(v.Int64()), true
	case bsoncore.TypeBoolean:
		if v.Boolean() {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// first returns the first document of a find's first batch.
func (r *reply) first() (bsoncore.Document, bool) {
	cur, ok := r.cursor.DocumentOK()
	if !ok {
		return nil, false
	}
	fb, err := cur.LookupErr("firstBatch")
	if err != nil {
		return nil, false
	}
	arr, ok := fb.ArrayOK()
	if !ok {
		return nil, false
	}
	v, err := arr.IndexErr(0)
	if err != nil {
		return nil, false
	}
	return v.DocumentOK()
}

// commandError is the driver's error for a failed command, so that SDAM
// reads it as it would the driver's own.
func (r *reply) commandError() error {
	e := driver.Error{Code: r.code, Message: r.errmsg, Name: r.codeName, Raw: r.doc}
	if arr, ok := r.labels.ArrayOK(); ok {
		vals, _ := arr.Values()
		for _, v := range vals {
			if s, ok := v.StringValueOK(); ok {
				e.Labels = append(e.Labels, s)
			}
		}
	}
	return e
}

// retryableCodes are the error codes after which the driver retries a
// read (and, before MongoDB 4.4 labelled them, a write).
var retryableCodes = []int32{11600, 11602, 10107, 13435, 13436, 189, 91, 7, 6, 89, 9001, 262, 134}

// retryable reports whether the driver would retry after this failed
// command: writes on the RetryableWriteError label, reads on the codes.
func (r *reply) retryable(write bool) bool {
	if write {
		if arr, ok := r.labels.ArrayOK(); ok {
			vals, _ := arr.Values()
			for _, v := range vals {
				if s, _ := v.StringValueOK(); s == "RetryableWriteError" {
					return true
				}
			}
		}
		return false
	}
	return slices.Contains(retryableCodes, r.code)
}

// duplicateKey are the codes of a duplicate key error, as the driver's
// IsDuplicateKeyError reads them.
func duplicateKey(code int32) bool { return code == 11000 || code == 11001 || code == 12582 }

// maxTimeExpired is the server's code for an operation past its maxTimeMS.
const maxTimeExpired = 50

// classifyCommand maps a failed command onto db's sentinels.
func classifyCommand(err error, r *reply) error {
	switch {
	case duplicateKey(r.code):
		return fmt.Errorf("%w: %w", db.ErrDuplicateKey, err)
	case r.code == maxTimeExpired:
		return fmt.Errorf("%w: %w", db.ErrTimeout, err)
	}
	return err
}

// writeError returns the error of an acknowledged write that failed in
// part or whole: its write errors (for a batch, which records failed), or
// its write concern error.
func (r *reply) writeError(op writeOp) error {
	if op == 0 {
		return nil
	}
	if arr, ok := r.writeErrors.ArrayOK(); ok {
		vals, _ := arr.Values()
		if len(vals) > 0 {
			var failed []int
			var first error
			dup := true
			for _, v := range vals {
				d, ok := v.DocumentOK()
				if !ok {
					continue
				}
				idx, _ := asNumber(d.Lookup("index"))
				code, _ := asNumber(d.Lookup("code"))
				msg, _ := d.Lookup("errmsg").StringValueOK()
				failed = append(failed, int(idx))
				if !duplicateKey(int32(code)) {
					dup = false
				}
				if first == nil {
					first = fmt.Errorf("write error %d: %s", int32(code), msg)
				}
			}
			if first == nil {
				first = errors.New("write errors")
			}
			if dup {
				first = fmt.Errorf("%w: %w", db.ErrDuplicateKey, first)
			}
			if op == opInsertMany {
				slices.Sort(failed)
				return &db.BatchError{Failed: failed, Err: first}
			}
			return first
		}
	}
	if d, ok := r.wcError.DocumentOK(); ok {
		code, _ := asNumber(d.Lookup("code"))
		msg, _ := d.Lookup("errmsg").StringValueOK()
		err := fmt.Errorf("write concern error %d: %s", int32(code), msg)
		if code == maxTimeExpired || code == 64 { // WriteConcernFailed: wtimeout
			return fmt.Errorf("%w: %w", db.ErrTimeout, err)
		}
		return err
	}
	return nil
}
