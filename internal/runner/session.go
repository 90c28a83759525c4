package runner

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/workload"
)

// session wraps a worker's binding so that every call is timed and
// recorded: bindings stay free of measurement code (go-ycsb's decorator).
type session struct {
	db       db.DB
	batch    db.BatchInserter // nil when the binding cannot batch
	rec      *measure.Recorder
	clock    Clock
	runCtx   context.Context // the worker's context: done once the phase is cut off
	intended int64           // intended start of the current operation
	pending  []int64         // intended starts of the records waiting in a load batch
	part     bool            // inside a composite operation: calls are parts of it

	abandoned *atomic.Int64
	failures  *failureLimit
}

// failureLimit stops the phase once MaxErrors operations have failed, or
// when the caller's ErrorStop says so.
type failureLimit struct {
	max        int64
	count      atomic.Int64
	duplicates atomic.Int64
	reached    atomic.Bool
	stop       func()
}

// noteErr counts duplicate-key failures too, so a re-load can say why it
// failed.
func (f *failureLimit) noteErr(err error, st db.Status) {
	if err != nil && errors.Is(err, db.ErrDuplicateKey) {
		f.duplicates.Add(1)
	}
	f.note(st)
}

func (f *failureLimit) note(st db.Status) {
	if st.IsOK() || st == db.NotFound {
		return
	}
	if n := f.count.Add(1); f.max > 0 && n >= f.max {
		f.trip()
	}
}

// trip ends the phase on failures, once: the workers start no new
// operation and those in flight finish and are counted.
func (f *failureLimit) trip() {
	if !f.reached.Swap(true) {
		f.stop()
	}
}

var _ workload.Session = (*session)(nil)

func (s *session) Now() int64 { return s.clock.Now() }

// cutByStop reports an operation the run itself interrupted (stop time
// reached, Ctrl-C): it says nothing about the server and is not recorded.
// Whatever error the driver wraps the run's end in, an operation that
// failed after the phase ended was cut by it.
func (s *session) cutByStop(err error) bool {
	if err != nil && s.runCtx.Err() != nil {
		s.abandoned.Add(1)
		return true
	}
	return false
}

func (s *session) record(op db.Op, err error, start, end int64) {
	if s.cutByStop(err) {
		return
	}
	st := db.StatusOf(err)
	if !st.IsOK() && st != db.NotFound {
		s.rec.RecordError(op, err, 1)
	}
	if s.part {
		s.rec.RecordPart(op, st, s.intended, start, end)
		return
	}
	s.failures.noteErr(err, st)
	s.rec.Record(op, st, s.intended, start, end)
}

// Composite marks the calls that follow (until Composite(false)) as parts
// of one operation the workload measures itself: they keep their own
// latencies but do not count as operations.
func (s *session) Composite(on bool) { s.part = on }

// Measure records an operation the workload timed itself. VERIFY and
// READ-MODIFY-WRITE are recorded like any other; whether they count as
// operations is the measure package's rule.
func (s *session) Measure(op db.Op, st db.Status, start, end int64) {
	if s.runCtx.Err() != nil && st != db.OK {
		s.abandoned.Add(1)
		return
	}
	if op != db.Verify {
		s.failures.note(st)
	}
	s.rec.Record(op, st, s.intended, start, end)
}

func (s *session) Read(ctx context.Context, table, key string, fields []string, visit db.FieldVisitor) error {
	start := s.clock.Now()
	err := s.db.Read(ctx, table, key, fields, visit)
	s.record(db.Read, err, start, s.clock.Now())
	return err
}

func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, visit db.FieldVisitor) error {
	start := s.clock.Now()
	err := s.db.Scan(ctx, table, startKey, count, fields, visit)
	s.record(db.Scan, err, start, s.clock.Now())
	return err
}

func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	start := s.clock.Now()
	err := s.db.Update(ctx, table, key, values)
	s.record(db.Update, err, start, s.clock.Now())
	return err
}

func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	start := s.clock.Now()
	err := s.db.Insert(ctx, table, key, values)
	s.record(db.Insert, err, start, s.clock.Now())
	return err
}

func (s *session) Delete(ctx context.Context, table, key string) error {
	start := s.clock.Now()
	err := s.db.Delete(ctx, table, key)
	s.record(db.Delete, err, start, s.clock.Now())
	return err
}

func (s *session) Close() error { return s.db.Close() }

// InsertBatch sends a load batch and accounts for it twice: once as an
// INSERT-BATCH (the insertMany call), and once per record as an INSERT
// whose service latency is the batch's round trip and whose intended
// latency runs from the moment the record was generated, so time spent
// waiting in the buffer is not hidden.
func (s *session) InsertBatch(ctx context.Context, table string, keys []string, values [][]db.Field) error {
	if s.batch == nil {
		// The binding cannot batch: insert one by one, each measured.
		var first error
		for i, key := range keys {
			s.intended = s.intendedOf(i)
			if err := s.Insert(ctx, table, key, values[i]); err != nil && first == nil {
				first = err
			}
		}
		s.pending = s.pending[:0]
		return first
	}
	start := s.clock.Now()
	err := s.batch.InsertBatch(ctx, table, keys, values)
	end := s.clock.Now()
	defer func() { s.pending = s.pending[:0] }()
	if s.cutByStop(err) {
		s.abandoned.Add(int64(len(keys)) - 1)
		return err
	}
	batchStatus := db.StatusOf(err)
	s.intended = s.intendedOf(0)
	var partial *db.BatchError
	isPartial := errors.As(err, &partial)
	if !batchStatus.IsOK() && batchStatus != db.NotFound {
		s.rec.RecordError(db.InsertBatch, err, 1)
		// The records that failed all failed with the batch's error.
		n := int64(len(keys))
		if isPartial {
			n = int64(len(partial.Failed))
		}
		s.rec.RecordError(db.Insert, err, n)
	}
	s.rec.Record(db.InsertBatch, batchStatus, s.intended, start, end)
	failedAt := 0
	for i := range keys {
		st := batchStatus
		if isPartial {
			st = db.OK
			if failedAt < len(partial.Failed) && partial.Failed[failedAt] == i {
				st = db.StatusOf(partial.Err)
				failedAt++
			}
		}
		if st == db.OK {
			s.failures.note(st)
		} else {
			s.failures.noteErr(err, st)
		}
		s.rec.Record(db.Insert, st, s.intendedOf(i), start, end)
	}
	return err
}

func (s *session) intendedOf(i int) int64 {
	if i < len(s.pending) {
		return s.pending[i]
	}
	return s.intended
}
