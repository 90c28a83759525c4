package lean

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/mongobench/mongobench/internal/db/ycsbdoc"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/mongobench/mongobench/internal/db"
)

// worker is one worker's lean binding. Its buffers are reused by every
// call; nothing outlives a call.
type worker struct {
	c  *Client
	fb db.DB
	bi db.BatchInserter

	h     held
	lsid  []byte
	txn   int64
	dirty bool // the session saw a network error: the driver would discard it

	out, in []byte
	reply   reply
	clock   []byte // the $clusterTime this worker last advanced the clock with

	// watched is the context whose cancellation interrupts a blocked read;
	// stopWatch unregisters it. mu guards h.raw against interrupt.
	watched   context.Context
	stopWatch func() bool
	mu        sync.Mutex
}

var (
	_ db.DB            = (*worker)(nil)
	_ db.BatchInserter = (*worker)(nil)
)

// kind is what a command is, for the fields the driver adds around it.
type kind uint8

const (
	find kind = iota
	write
)

// Read is find({_id: key}, limit 1, singleBatch), as the driver's FindOne.
func (w *worker) Read(ctx context.Context, table, key string, fields []string, visit db.FieldVisitor) error {
	if w.c.reads != "" {
		return w.fb.Read(ctx, table, key, fields, visit)
	}
	r, err := w.do(ctx, find, table, key, fields, nil, nil, 0)
	if err != nil {
		return err
	}
	doc, ok := r.first()
	if !ok {
		return db.ErrNotFound
	}
	if visit != nil {
		ycsbdoc.Visit(doc, visit)
	}
	return nil
}

// Scan is the driver's: a cursor over several batches.
func (w *worker) Scan(ctx context.Context, table, startKey string, count int, fields []string, visit db.FieldVisitor) error {
	return w.fb.Scan(ctx, table, startKey, count, fields, visit)
}

// Update is update {q: {_id: key}, u: {$set: values}}; no match is NOT_FOUND.
func (w *worker) Update(ctx context.Context, table, key string, values []db.Field) error {
	if w.c.writes != "" {
		return w.fb.Update(ctx, table, key, values)
	}
	r, err := w.do(ctx, write, table, key, nil, values, nil, opUpdate)
	if err != nil {
		return err
	}
	if r.n == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Insert is insert {documents: [record]}.
func (w *worker) Insert(ctx context.Context, table, key string, values []db.Field) error {
	if w.c.inserts != "" {
		return w.fb.Insert(ctx, table, key, values)
	}
	_, err := w.do(ctx, write, table, key, nil, values, nil, opInsert)
	return err
}

// Delete is delete {q: {_id: key}, limit: 1}; no match is NOT_FOUND.
func (w *worker) Delete(ctx context.Context, table, key string) error {
	if w.c.writes != "" {
		return w.fb.Delete(ctx, table, key)
	}
	r, err := w.do(ctx, write, table, key, nil, nil, nil, opDelete)
	if err != nil {
		return err
	}
	if r.n == 0 {
		return db.ErrNotFound
	}
	return nil
}

// InsertBatch is an unordered insert of every record in one message, or
// the driver's when the batch is larger than one message may be.
func (w *worker) InsertBatch(ctx context.Context, table string, keys []string, values [][]db.Field) error {
	if w.c.inserts != "" {
		return w.fallbackBatch(ctx, table, keys, values)
	}
	_, err := w.do(ctx, write, table, "", nil, nil, &batch{keys: keys, values: values}, opInsertMany)
	if errors.Is(err, errTooLarge) {
		return w.fallbackBatch(ctx, table, keys, values)
	}
	return err
}

func (w *worker) fallbackBatch(ctx context.Context, table string, keys []string, values [][]db.Field) error {
	if w.bi == nil {
		return db.ErrNotImplemented
	}
	return w.bi.InsertBatch(ctx, table, keys, values)
}

// Close gives the connection back to the pool.
func (w *worker) Close() error {
	if w.stopWatch != nil {
		w.stopWatch()
		w.stopWatch = nil
	}
	w.mu.Lock()
	w.h.release(false)
	w.mu.Unlock()
	return w.fb.Close()
}

type writeOp uint8

const (
	opUpdate writeOp = iota + 1
	opInsert
	opDelete
	opInsertMany
)

type batch struct {
	keys   []string
	values [][]db.Field
}

var errTooLarge = errors.New("batch larger than one message")

// do runs one command: encode, send, receive, decode, and once more on a
// retryable error where the driver would retry.
func (w *worker) do(ctx context.Context, k kind, table, key string, fields []string, values []db.Field, b *batch, op writeOp) (*reply, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w.watch(ctx)
	now := time.Now()
	deadline := w.deadline(ctx, now)
	if w.lsid == nil || w.dirty {
		w.lsid, w.txn, w.dirty = w.c.newSession(), 0, false
	}
	retryable := w.c.retryReads
	txnCounted := false
	var last error
	for attempt := 0; attempt < 2; attempt++ {
		if err := w.ensure(ctx); err != nil {
			if last != nil {
				return nil, last
			}
			return nil, classifyNet(ctx, err)
		}
		// Whether a write is retried depends on the server the attempt
		// got; its transaction number is taken once, for both attempts.
		retryWrite := k == write && w.c.retryWrites && retryWritesSupported(w.h.desc)
		if k == write {
			retryable = retryWrite
			if retryWrite && !txnCounted {
				w.txn++
				txnCounted = true
			}
		}
		if err := w.encode(k, table, key, fields, values, b, op, retryWrite, maxTimeMS(deadline, now, w.h.rttMin)); err != nil {
			return nil, err
		}
		r, again, err := w.exchange(ctx, deadline, k, op, retryable)
		if !again {
			return r, err
		}
		last = err
	}
	return nil, last
}

// deadline is the operation's: the sooner of OpTimeout's and the
// context's, zero without either.
func (w *worker) deadline(ctx context.Context, now time.Time) time.Time {
	var deadline time.Time
	if w.c.cfg.OpTimeout > 0 {
		deadline = now.Add(w.c.cfg.OpTimeout)
	}
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	return deadline
}

// exchange sends the encoded command and reads its reply. again is true
// when err is one the driver would retry, if retryable; the caller
// decides whether an attempt is left.
func (w *worker) exchange(ctx context.Context, deadline time.Time, k kind, op writeOp, retryable bool) (_ *reply, again bool, _ error) {
	wm, err := w.roundTrip(ctx, deadline)
	if err != nil {
		w.fail(ctx, topology.ConnectionError{Wrapped: err}, true)
		w.dirty = true
		nerr := classifyNet(ctx, err)
		return nil, ctx.Err() == nil && retryable && !isTimeout(err), nerr
	}
	r := &w.reply
	if err := r.parse(wm); err != nil {
		w.fail(ctx, topology.ConnectionError{Wrapped: err}, true)
		return nil, false, err
	}
	w.gossip(r.clusterTime)
	if r.ok {
		err := r.writeError(op)
		if err == nil {
			return r, false, nil
		}
		// A write concern error labelled retryable is retried, as the
		// driver retries it; write errors are not.
		return nil, retryable && r.wcError.Type != 0 && r.retryable(true), err
	}
	cerr := r.commandError()
	if derr, ok := cerr.(driver.Error); ok && (derr.NotPrimary() || derr.NodeIsRecovering()) {
		w.fail(ctx, derr, false)
	}
	return nil, retryable && r.retryable(k == write), classifyCommand(cerr, r)
}

// maxTimeMS is what the driver sends for a context deadline: the time
// left less the server's minimum round trip, rounded up to a millisecond.
func maxTimeMS(deadline, now time.Time, rttMin time.Duration) int64 {
	if deadline.IsZero() {
		return 0
	}
	ms := int64((deadline.Sub(now) - rttMin + time.Millisecond - 1) / time.Millisecond)
	if ms <= 0 || ms > 1<<31-1 {
		return 0
	}
	return ms
}

func retryWritesSupported(s description.Server) bool {
	return s.SessionTimeoutMinutes != nil && s.Kind != description.ServerKindStandalone
}

func sessionsSupported(s description.Server) bool {
	return s.SessionTimeoutMinutes != nil && s.WireVersion != nil && s.WireVersion.Max >= 6
}

// ensure makes sure the worker holds a connection chosen in the current
// topology epoch.
func (w *worker) ensure(ctx context.Context) error {
	e := w.c.epoch.Load()
	if w.h.conn != nil && w.h.epoch == e {
		return nil
	}
	w.mu.Lock()
	w.h.release(false)
	w.mu.Unlock()
	// The driver bounds server selection and the checkout by the server
	// selection timeout (serverSelectionTimeoutMS).
	if t := w.c.cfg.Topology.GetServerSelectionTimeout(); t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	srv, err := w.c.cfg.Topology.SelectServer(ctx, w.c.sel)
	if err != nil {
		return err
	}
	conn, err := srv.Connection(ctx)
	if err != nil {
		return err
	}
	h := held{conn: conn, server: srv, desc: conn.Description(), epoch: e,
		single: w.c.cfg.Topology.Kind() == description.TopologyKindSingle}
	h.tconn, _ = conn.ReadWriteCloser.(*topology.Connection)
	if w.c.rawIO && h.tconn != nil {
		h.raw, _ = w.c.cfg.Dialer.lookup(h.tconn.LocalAddress().String())
	}
	if rm, ok := srv.(interface{ RTTMonitor() driver.RTTMonitor }); ok {
		h.rttMin = rm.RTTMonitor().Min()
	}
	w.mu.Lock()
	w.h = h
	w.mu.Unlock()
	return nil
}

// fail tells the driver's SDAM about err, as the driver does after a
// failed operation, and gives up the connection: closed when the stream
// may be out of step (a network error), else back to the pool.
func (w *worker) fail(ctx context.Context, err error, expire bool) {
	if ep, ok := w.h.server.(driver.ErrorProcessor); ok && w.h.conn != nil && ctx.Err() == nil {
		ep.ProcessError(err, w.h.conn)
	}
	w.mu.Lock()
	w.h.release(expire)
	w.mu.Unlock()
}

// watch arranges for a cancellation of ctx to interrupt a blocked read on
// the raw socket, once per context rather than per operation.
func (w *worker) watch(ctx context.Context) {
	if ctx == w.watched || ctx.Done() == nil {
		return
	}
	if w.stopWatch != nil {
		w.stopWatch()
	}
	w.watched = ctx
	w.stopWatch = context.AfterFunc(ctx, func() {
		w.mu.Lock()
		if w.h.raw != nil {
			_ = w.h.raw.SetDeadline(time.Unix(1, 0))
		}
		w.mu.Unlock()
	})
}

// minReplyBuffer is the reply buffer a worker starts with: a YCSB record
// of 10 fields of 100 bytes comes back in 1.2 KiB, and at 1,000 workers
// every KiB here is a MiB of heap, twice over once the garbage collector's
// goal is counted. Larger replies grow the buffer to fit.
const minReplyBuffer = 2 << 10

// roundTrip sends w.out and returns the reply, on the raw socket when the
// worker has it, else through the driver's connection.
func (w *worker) roundTrip(ctx context.Context, deadline time.Time) ([]byte, error) {
	if raw := w.h.raw; raw != nil {
		if err := raw.SetDeadline(deadline); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if _, err := raw.Write(w.out); err != nil {
			return nil, err
		}
		if cap(w.in) < minReplyBuffer {
			w.in = make([]byte, minReplyBuffer)
		}
		in := w.in[:cap(w.in)]
		n, err := io.ReadAtLeast(raw, in, 4)
		if err != nil {
			return nil, err
		}
		size := int(int32(binary.LittleEndian.Uint32(in)))
		if size < 16 || size > int(max(w.h.desc.MaxMessageSize, 48<<20)) {
			return nil, fmt.Errorf("malformed reply length %d", size)
		}
		if size > len(in) {
			grown := make([]byte, size)
			copy(grown, in[:n])
			w.in, in = grown, grown
		}
		if n < size {
			if _, err := io.ReadFull(raw, in[n:size]); err != nil {
				return nil, err
			}
		} else if n > size {
			return nil, fmt.Errorf("reply followed by %d unexpected bytes", n-size)
		}
		return in[:size], nil
	}
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	if err := w.h.conn.Write(ctx, w.out); err != nil {
		return nil, err
	}
	return w.h.conn.Read(ctx)
}

// gossip advances the shared cluster clock with a reply's $clusterTime,
// only when it differs from what this worker last saw, so a steady
// cluster time costs a comparison rather than the clock's lock and copy.
func (w *worker) gossip(ct bsoncore.Value) {
	if ct.Type != bsoncore.TypeEmbeddedDocument || string(ct.Data) == string(w.clock) {
		return
	}
	w.clock = append(w.clock[:0], ct.Data...)
	idx, doc := bsoncore.AppendDocumentStart(nil)
	doc = bsoncore.AppendDocumentElement(doc, "$clusterTime", ct.Data)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	w.c.cfg.Clock.AdvanceClusterTime(doc)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// classifyNet maps a network or selection error onto db's sentinels.
func classifyNet(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled):
		return ctx.Err()
	case isTimeout(err), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", db.ErrTimeout, err)
	}
	return fmt.Errorf("connection error: %w", err)
}

// Takes reports whether op goes through the lean path on this worker
// (false: the driver's path).
func (w *worker) Takes(op db.Op) bool {
	switch op {
	case db.Read:
		return w.c.reads == ""
	case db.Update, db.Delete:
		return w.c.writes == ""
	case db.Insert, db.InsertBatch:
		return w.c.inserts == ""
	}
	return false
}
