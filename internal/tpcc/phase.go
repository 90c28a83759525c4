package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
)

// OpNames are the five transactions as operations of mongobench's
// summary, results and reports, in Type order.
var OpNames = [NumTypes]string{"NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel"}

// PhaseRunner runs the mix for mongobench's runner: each worker a
// terminal of its own, each slot one transaction timed and recorded as a
// named operation, so that a TPC-C run has the schedule (-target and
// intended latency), the status line, journal, results, store, compare,
// report and diagnosis of any run.
type PhaseRunner struct {
	exec     *Executor
	db       *mongo.Database
	settings PhaseSettings
	codes    [NumTypes]db.Op
	now      func() time.Time
}

var _ runner.OpRunner = (*PhaseRunner)(nil)

// NewPhaseRunner readies a run of s against database of client; seed is
// the run's (the phase's, for a part of a partitioned run). Its
// operations are registered by name (db.NamedOp).
func NewPhaseRunner(client *mongo.Client, database string, s PhaseSettings, seed uint64) (*PhaseRunner, error) {
	p := &PhaseRunner{exec: NewExecutor(client, database, s.Scale, s.Options, seed), db: client.Database(database), settings: s, now: time.Now}
	for t := range NumTypes {
		code, err := db.NamedOp(OpNames[t])
		if err != nil {
			return nil, err
		}
		p.codes[t] = code
	}
	return p, nil
}

// NewWorker returns worker id's terminal. Its draws are a function of
// the run's seed and the worker, not of the slot: a terminal's state (its
// NURand constants' stream) is its own, as in TPC-C.
func (p *PhaseRunner) NewWorker(id int, seed uint64) runner.OpWorker {
	rng := p.settings.Range
	if rng == (WarehouseRange{}) {
		rng = WarehouseRange{First: 1, Last: p.settings.Scale.Warehouses}
	}
	return &phaseWorker{p: p, term: NewTerminal(p.settings.Scale, rng, p.settings.LoadSeed, seed, id, p.now)}
}

// cutGrace bounds how long a transaction without a multi-document
// transaction runs on past the end of its phase's context.
const cutGrace = 10 * time.Second

type phaseWorker struct {
	p    *PhaseRunner
	term *Terminal
}

// Do runs the next transaction of the mix. A NewOrder rolled back on
// purpose is recorded OK: it did what the specification asks of it; the
// executor counts it among the rollbacks.
func (w *phaseWorker) Do(ctx context.Context, _ int64, rec runner.OpRecorder) {
	t := w.term.Next()
	start := rec.Now()
	if w.p.settings.Options.NoTransactions {
		// Statement by statement, a transaction cut short by the phase's
		// end would leave its district half-updated (D_NEXT_O_ID taken, no
		// order) and break the check: it runs on to its end, for at most
		// cutGrace after the phase's context ends.
		dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		defer cancel()
		stop := context.AfterFunc(ctx, func() { time.AfterFunc(cutGrace, cancel) })
		defer stop()
		ctx = dctx
	}
	err := runOne(ctx, w.p.exec, w.term, t)
	if errors.Is(err, ErrRollback) {
		err = nil
	}
	rec.Record(w.p.codes[t], err, start, rec.Now())
}

// Close releases nothing: the client is the phase's.
func (w *phaseWorker) Close() {}

func runOne(ctx context.Context, exec *Executor, term *Terminal, t Type) error {
	switch t {
	case NewOrder:
		return exec.NewOrder(ctx, term.NewOrder())
	case Payment:
		return exec.Payment(ctx, term.Payment())
	case OrderStatus:
		return exec.OrderStatus(ctx, term.OrderStatus())
	case Delivery:
		return exec.Delivery(ctx, term.Delivery())
	default:
		_, err := exec.StockLevel(ctx, term.StockLevel())
		return err
	}
}

// CheckError is a consistency condition broken after a run.
type CheckError struct {
	Broken []int
	Range  WarehouseRange
}

func (e *CheckError) Error() string {
	nums := make([]string, len(e.Broken))
	for i, n := range e.Broken {
		nums[i] = strconv.Itoa(n)
	}
	return fmt.Sprintf("tpcc check: consistency condition(s) %s broken on warehouses %s", strings.Join(nums, ", "), e.Range)
}

// Finish adds the run's TPC-C section to res: tpmC from its NewOrders,
// each type's retries, aborts and rollbacks, and, unless the run was
// told not to or was cut short, the consistency check. A broken
// condition is a *CheckError, after the section is complete.
func (p *PhaseRunner) Finish(ctx context.Context, res *results.Results) error {
	sec := &results.TPCC{Warehouses: p.settings.Scale.Warehouses, Standard: p.settings.Scale.Standard()}
	for t := range NumTypes {
		c := p.exec.Counts(t)
		sec.Transactions = append(sec.Transactions, results.TPCCTransaction{Name: OpNames[t],
			Retries: c.Retries, CommitRetries: c.CommitRetries, Aborts: c.Aborts, RolledBack: c.Rollbacks, Failed: c.Failures})
	}
	sec.TpmC = TpmC(res.Status[OpNames[NewOrder]][db.OK.String()], sec.Transactions[NewOrder].RolledBack, res.RuntimeMs)
	if res.Extra == nil {
		res.Extra = &results.Extra{}
	}
	res.Extra.TPCC = sec
	if !p.settings.Check || res.Partial {
		return nil
	}
	rng := p.settings.Range
	if rng == (WarehouseRange{}) {
		rng = WarehouseRange{First: 1, Last: p.settings.Scale.Warehouses}
	}
	var err error
	sec.Check, err = checkSection(ctx, p.db, p.settings.Options.Normalized, rng)
	return err
}

// TpmC is the committed NewOrders per minute: those recorded OK less
// those rolled back on purpose (recorded OK too), over the runtime.
func TpmC(okNewOrders, rolledBack, runtimeMs int64) float64 {
	if runtimeMs <= 0 {
		return 0
	}
	return float64(okNewOrders-rolledBack) / (float64(runtimeMs) / 60000)
}

// SummaryLines are the section's lines after YCSB's: tpmC, each type's
// retries, aborts and rollbacks, and the check's conditions.
func SummaryLines(sec *results.TPCC) []string {
	if sec == nil {
		return nil
	}
	lines := []string{
		"[TPCC], tpmC, " + strconv.FormatFloat(sec.TpmC, 'f', 2, 64),
		"[TPCC], Warehouses, " + strconv.Itoa(sec.Warehouses),
	}
	if !sec.Standard {
		lines = append(lines, "[WARNING], Scale, items or customers smaller than TPC-C's: figures are not comparable with TPC-C's")
	}
	for _, t := range sec.Transactions {
		lines = append(lines,
			fmt.Sprintf("[%s], Retries, %d", t.Name, t.Retries),
			fmt.Sprintf("[%s], CommitRetries, %d", t.Name, t.CommitRetries),
			fmt.Sprintf("[%s], Aborts, %d", t.Name, t.Aborts))
		if t.Name == OpNames[NewOrder] {
			lines = append(lines, fmt.Sprintf("[%s], RolledBack, %d", t.Name, t.RolledBack))
		}
	}
	lines = append(lines, CheckLines(sec.Check)...)
	return lines
}

// CheckLines are the conditions' lines: OK or FAILED with the counts,
// then the examples of what broke them.
func CheckLines(conds []results.TPCCCondition) []string {
	var lines []string
	for _, c := range conds {
		state := "OK"
		if c.Failed > 0 || c.Checked == 0 {
			state = "FAILED"
		}
		lines = append(lines, fmt.Sprintf("[CHECK], Condition%d, %s (%d checked; %d failed)", c.Number, state, c.Checked, c.Failed))
		for _, e := range c.Examples {
			lines = append(lines, fmt.Sprintf("[CHECK], Condition%d, %s", c.Number, strings.ReplaceAll(e, ",", ";")))
		}
	}
	return lines
}
