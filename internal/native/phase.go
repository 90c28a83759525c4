package native

import (
	"context"
	"fmt"
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/generator"
	"github.com/mongobench/mongobench/internal/runner"
)

// PhaseRunner runs one phase of a workload file for the runner: each
// worker an Executor, each slot one operation chosen by weight.
type PhaseRunner struct {
	file     *File
	phase    *Phase
	client   *mongo.Client
	database string
	codes    []db.Op
	// retryCodes name the retried attempts of each transaction,
	// "NAME.retries" (no operation's name has a dot).
	retryCodes map[*Operation]db.Op
	pick       *generator.Discrete
	// docBase is where each collection's inserts start numbering.
	docBase map[*Collection]int64
	// First is the number of the phase's first operation: its slots are
	// numbered from it. A part of a partitioned load starts at its
	// share's offset (insertstart), so that, every value being a function
	// of the operation's number, the parts insert disjoint documents.
	First  int64
	counts counts
}

var _ runner.OpRunner = (*PhaseRunner)(nil)

// NewPhaseRunner readies ph of f against database of client. Its
// operations are registered by name (db.NamedOp), so the summary,
// results and reports carry them. A load numbers its inserts from 0; the
// other phases after each collection's documents, so they add documents
// rather than collide with the loaded ones.
func NewPhaseRunner(f *File, ph *Phase, client *mongo.Client, database string) (*PhaseRunner, error) {
	p := &PhaseRunner{file: f, phase: ph, client: client, database: database, docBase: map[*Collection]int64{}}
	weights := make([]float64, len(ph.Operations))
	for i, op := range ph.Operations {
		code, err := db.NamedOp(op.Name)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", f.Path, err)
		}
		p.codes = append(p.codes, code)
		weights[i] = op.Weight
		if op.Kind == Transaction {
			if p.retryCodes == nil {
				p.retryCodes = map[*Operation]db.Op{}
			}
			if p.retryCodes[op], err = db.NamedOp(op.Name + ".retries"); err != nil {
				return nil, fmt.Errorf("workload %s: %w", f.Path, err)
			}
		}
	}
	p.pick = generator.NewDiscrete(weights)
	p.counts.byOp = make([]tally, len(ph.Operations))
	if ph.Kind != PhaseLoad {
		for _, c := range f.Collections {
			p.docBase[c] = c.Documents
		}
	}
	return p, nil
}

// Operations are the phase's operations by code, in the file's order.
func (p *PhaseRunner) Operations() []db.Op { return p.codes }

// runWindows is how many windows of 2^32 document numbers the inserts
// of a run may fall in, after the loaded documents.
const runWindows = 1 << 20

// NewWorker returns worker id's runner of operations. The inserts of a
// run after the load are numbered in a window of their own, chosen by the
// phase's seed: a second run against the same data (with a seed picked
// from the clock, as by default) adds other documents rather than failing
// on the first run's keys, and the parts of a partitioned run, each with
// a seed of its own, stay apart. A run repeated with the same seed
// repeats its inserts, which then fail as duplicates.
func (p *PhaseRunner) NewWorker(id int, seed uint64) runner.OpWorker {
	e := NewExecutor(p.client, p.database, p.file, mix64(seed, uint64(id)+1))
	for c, n := range p.docBase {
		e.DocBase[c] = n
		if p.phase.Kind != PhaseLoad {
			e.DocBase[c] += int64(seed%runWindows) << 32
		}
	}
	w := &phaseWorker{p: p, e: e, seed: mix64(p.file.Seed, seed), tallies: make([]tally, len(p.codes))}
	w.r = rand.New(&w.pcg)
	if p.retryCodes != nil {
		e.Now, e.OnRetry = w.now, w.retried
	}
	return w
}

func (w *phaseWorker) now() int64 { return w.rec.Now() }

// retried records a transaction's attempt that was tried again as a part
// of the operation: its time and what it failed with, under NAME.retries.
func (w *phaseWorker) retried(op *Operation, err error, start, end int64) {
	w.rec.RecordPart(w.p.retryCodes[op], err, start, end)
}

type phaseWorker struct {
	p    *PhaseRunner
	e    *Executor
	seed uint64
	pcg  rand.PCG
	r    *rand.Rand
	rec  runner.OpRecorder // the current operation's
	// tallies count each operation's documents and failures, handed to
	// the phase when the worker closes.
	tallies []tally
}

// Do runs slot's operation: which one is a function of the slot, as its
// values are, so a rerun with the same seed does the same work.
func (w *phaseWorker) Do(ctx context.Context, slot int64, rec runner.OpRecorder) {
	n := w.p.First + slot
	i := 0
	if len(w.p.codes) > 1 {
		w.pcg.Seed(mix64(w.seed, uint64(n)), uint64(n))
		i = w.p.pick.Next(w.r)
	}
	w.rec = rec
	start := rec.Now()
	r, err := w.e.Do(ctx, w.p.phase.Operations[i], n)
	rec.Record(w.p.codes[i], err, start, rec.Now())
	// An operation the phase's end cut is not counted, as the recorder
	// does not time it.
	if err == nil || ctx.Err() == nil {
		w.tallies[i].add(r, err)
	}
}

// Close hands the worker's counts to the phase; the client is the
// phase's, not the worker's, and stays open.
func (w *phaseWorker) Close() { w.p.counts.add(w.tallies) }
