package runner

import (
	"context"

	"github.com/mongobench/mongobench/internal/db"
)

// OpRunner runs a phase of named operations (a native workload's) in
// place of a YCSB Core: each worker gets an OpWorker, which runs and
// times the operation of each slot it claims and records it itself.
type OpRunner interface {
	NewWorker(id int, seed uint64) OpWorker
}

// OpWorker runs one worker's operations. Do runs operation number slot
// (the same numbering as the schedule's, so a partitioned run's parts
// keep disjoint numbers) and records it through rec.
type OpWorker interface {
	Do(ctx context.Context, slot int64, rec OpRecorder)
	Close()
}

// OpRecorder is what an OpWorker times and records with: the run clock,
// and the record of one operation, its status classified from err as for
// YCSB's operations (failures counted against --max-errors, the first
// messages kept, an operation cut by the phase's end not recorded).
type OpRecorder interface {
	Now() int64
	Record(op db.Op, err error, startNs, endNs int64)
	// RecordPart records a measurement inside an operation (a
	// transaction's attempt that was tried again): timed, its status and
	// message kept, not counted as an operation nor against --max-errors.
	RecordPart(op db.Op, err error, startNs, endNs int64)
}

// Record records one named operation; see OpRecorder.
func (s *session) Record(op db.Op, err error, startNs, endNs int64) {
	s.record(op, err, startNs, endNs)
}

// RecordPart records a part of a named operation; see OpRecorder.
func (s *session) RecordPart(op db.Op, err error, startNs, endNs int64) {
	s.part = true
	s.record(op, err, startNs, endNs)
	s.part = false
}

var _ OpRecorder = (*session)(nil)

// workOps is work for a phase of named operations.
func (ph *phaseWorkers) workOps(id int) {
	wctx := ph.workerCtxs[id]
	s := ph.newSession(id, nil)
	w := ph.cfg.Ops.NewWorker(id, ph.cfg.Seed)
	defer w.Close()
	timer := ph.timerOf(id)
	for {
		slot, ok := ph.claim(wctx, timer, s)
		if !ok {
			break
		}
		w.Do(wctx, slot, s)
	}
}
