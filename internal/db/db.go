// Package db defines what a benchmark binding must do: the five YCSB
// operations, the status an operation ends with, and the error values that
// bindings use to say how an operation ended. It knows nothing of timing.
package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unicode"
)

// Field is one named value of a record. Bindings must not keep Value after
// the call returns: workloads reuse the buffers.
type Field struct {
	Name  string
	Value []byte
}

// FieldVisitor receives each field of a record that a read returned. Value is
// only valid during the call.
type FieldVisitor func(name string, value []byte)

// DB is one worker's connection to the database under test. One DB is used by
// one worker goroutine only, so implementations may keep per-worker buffers.
type DB interface {
	// Read reads the record with the given key. fields nil means all fields.
	// visit, when not nil, is called for every field of the record.
	// A missing record returns ErrNotFound.
	Read(ctx context.Context, table, key string, fields []string, visit FieldVisitor) error
	// Scan reads up to count records in key order starting at startKey.
	Scan(ctx context.Context, table, startKey string, count int, fields []string, visit FieldVisitor) error
	// Update sets the given fields of the record; a missing record returns ErrNotFound.
	Update(ctx context.Context, table, key string, values []Field) error
	// Insert inserts a new record.
	Insert(ctx context.Context, table, key string, values []Field) error
	// Delete deletes the record; a missing record returns ErrNotFound.
	Delete(ctx context.Context, table, key string) error
	// Close releases the worker's resources (not the shared client).
	Close() error
}

// BatchInserter is implemented by bindings that can insert many records in
// one round trip (YCSB's batchsize).
type BatchInserter interface {
	// InsertBatch inserts len(keys) records; values[i] belongs to keys[i].
	InsertBatch(ctx context.Context, table string, keys []string, values [][]Field) error
}

// Sentinel errors a binding returns so the runner can classify the outcome
// without string matching.
var (
	ErrNotFound       = errors.New("record not found")
	ErrDuplicateKey   = errors.New("duplicate key")
	ErrNotImplemented = errors.New("operation not implemented by this binding")
)

// Status is how an operation ended, with YCSB's names (site.ycsb.Status).
type Status uint8

// The statuses, in the order the summary prints their Return= lines.
const (
	OK Status = iota
	BatchedOK
	NotFound
	Error
	Timeout
	UnexpectedState
	NotImplemented
	ServiceUnavailable
	BadRequest
	Forbidden
	numStatuses
)

// NumStatuses is the number of distinct statuses.
const NumStatuses = int(numStatuses)

var statusNames = [...]string{
	OK:                 "OK",
	BatchedOK:          "BATCHED_OK",
	NotFound:           "NOT_FOUND",
	Error:              "ERROR",
	Timeout:            "TIMEOUT",
	UnexpectedState:    "UNEXPECTED_STATE",
	NotImplemented:     "NOT_IMPLEMENTED",
	ServiceUnavailable: "SERVICE_UNAVAILABLE",
	BadRequest:         "BAD_REQUEST",
	Forbidden:          "FORBIDDEN",
}

// String returns YCSB's name for the status, as printed after "Return=".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "UNKNOWN"
}

// IsOK reports whether YCSB counts the status as a success: its latency goes
// to the operation's own measurement rather than to OP-FAILED.
func (s Status) IsOK() bool { return s == OK || s == BatchedOK }

// ParseStatus returns the status with YCSB's name name.
func ParseStatus(name string) (Status, bool) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), true
		}
	}
	return 0, false
}

// StatusOf classifies the error a binding returned.
func StatusOf(err error) Status {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, ErrNotFound):
		return NotFound
	case errors.Is(err, ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.Is(err, ErrNotImplemented):
		return NotImplemented
	case errors.Is(err, ErrDuplicateKey):
		return Error
	}
	var timeout interface{ Timeout() bool }
	if errors.As(err, &timeout) && timeout.Timeout() {
		return Timeout
	}
	return Error
}

// Op is an operation type, in the fixed order the summary prints them.
type Op uint8

// The operations YCSB measures. InsertBatch measures one insertMany call of
// the load phase; Insert measures the documents it carried.
const (
	Read Op = iota
	Update
	Insert
	Scan
	ReadModifyWrite
	Delete
	InsertBatch
	Verify
	Cleanup
	numOps
)

// NumOps is the number of distinct operation types.
const NumOps = int(numOps)

var opNames = [...]string{
	Read:            "READ",
	Update:          "UPDATE",
	Insert:          "INSERT",
	Scan:            "SCAN",
	ReadModifyWrite: "READ-MODIFY-WRITE",
	Delete:          "DELETE",
	InsertBatch:     "INSERT-BATCH",
	Verify:          "VERIFY",
	Cleanup:         "CLEANUP",
}

// String returns YCSB's name for the operation, as printed in "[READ]",
// or the name a named operation was registered with.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	if names := named.Load(); names != nil && int(o)-NumOps < len(*names) {
		return (*names)[int(o)-NumOps]
	}
	return "UNKNOWN"
}

// ParseOp returns the operation named name: one of YCSB's, or a named
// operation registered before.
func ParseOp(name string) (Op, bool) {
	for i, n := range opNames {
		if n == name {
			return Op(i), true
		}
	}
	if names := named.Load(); names != nil {
		for i, n := range *names {
			if n == name {
				return Op(NumOps + i), true
			}
		}
	}
	return 0, false
}

// MaxOps bounds the operation codes: YCSB's below NumOps, then the named
// operations of native workloads. Everything that counts per operation
// (the collector's histograms, a summary's status counts) is sized by it.
const MaxOps = 64

// MaxOpName bounds a named operation's name, which the summary prints as
// a section of its own ("[checkout], Operations, 12").
const MaxOpName = 64

// named holds the names of the operations registered after YCSB's, in
// the order of their codes. It only grows, and is replaced whole, so
// String and ParseOp read it without a lock while NamedOp adds to it.
var (
	named   atomic.Pointer[[]string]
	namedMu sync.Mutex
)

// NamedOp returns the code of the operation called name, registering it
// the first time it is asked for: a native workload's operations when its
// phase starts, a results file's when it is read. Codes live as long as
// the process, so every reader of a name agrees on its code; a name of
// YCSB's is YCSB's own operation. At most MaxOps-NumOps names fit.
func NamedOp(name string) (Op, error) {
	if op, ok := ParseOp(name); ok {
		return op, nil
	}
	if err := checkOpName(name); err != nil {
		return 0, err
	}
	namedMu.Lock()
	defer namedMu.Unlock()
	if op, ok := ParseOp(name); ok {
		return op, nil
	}
	var names []string
	if p := named.Load(); p != nil {
		names = *p
	}
	if NumOps+len(names) >= MaxOps {
		return 0, fmt.Errorf("operation %q: more than %d named operations; accepted: at most %d in one process", name, MaxOps-NumOps, MaxOps-NumOps)
	}
	grown := append(append(make([]string, 0, len(names)+1), names...), name)
	named.Store(&grown)
	return Op(NumOps + len(names)), nil
}

// checkOpName accepts what a summary line can carry as its section: no
// comma (the field separator), no space at either end, nothing
// unprintable.
func checkOpName(name string) error {
	if name == "" || len(name) > MaxOpName {
		return fmt.Errorf("operation name %q: accepted: 1 to %d characters", name, MaxOpName)
	}
	for _, r := range name {
		if r == ',' || r == '[' || r == ']' || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return fmt.Errorf("operation name %q: accepted: printable characters without spaces, commas or brackets", name)
		}
	}
	return nil
}

// ErrTimeout marks an operation that ran out of time (the operation timeout
// or a network timeout); its status is TIMEOUT.
var ErrTimeout = errors.New("operation timed out")

// BatchError is returned by InsertBatch when some records of the batch
// failed and the others were inserted.
type BatchError struct {
	Failed []int // indexes of the records that failed
	Err    error // the cause
}

func (e *BatchError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *BatchError) Unwrap() error { return e.Err }
