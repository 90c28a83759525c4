package tpcc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Recorder receives each transaction's timing and outcome: nil, an error
// that wraps ErrRollback, or a failure. It is called from every worker at
// once. mongobench's measure collector is to be one; HDRRecorder is one
// now.
type Recorder interface {
	Record(txn Type, start, end time.Time, err error)
}

// RunConfig says how long a run lasts and with how many workers.
type RunConfig struct {
	Scale Scale
	// Range is the warehouses this process's workers draw from; the zero
	// value is all.
	Range   WarehouseRange
	Workers int
	// Duration and Count end the run, whichever comes first; at least one
	// of them is set. Count is the number of transactions of all workers.
	Duration time.Duration
	Count    int64
	// LoadSeed is the seed the data was loaded with (for NURand's C);
	// Seed the run's own.
	LoadSeed, Seed uint64
	// Now is the clock of the timings and of the dates the transactions
	// write; nil is time.Now.
	Now func() time.Time
}

// RunStats are the number of transactions the run recorded, how long it
// took, and the first failure seen, for a caller to show.
type RunStats struct {
	Transactions int64
	Elapsed      time.Duration
	FirstError   error
}

// Run runs the mix on cfg.Workers workers until cfg.Duration has passed,
// cfg.Count transactions were started, or ctx ends. A transaction's failure
// does not stop the run: it is recorded, and counted by the executor.
func Run(ctx context.Context, exec *Executor, cfg RunConfig, rec Recorder) (RunStats, error) {
	if cfg.Workers < 1 {
		return RunStats{}, fmt.Errorf("threadcount=%d is invalid: expected at least 1 worker", cfg.Workers)
	}
	if cfg.Duration <= 0 && cfg.Count <= 0 {
		return RunStats{}, errors.New("tpcc: a run needs a duration or a count of transactions")
	}
	if cfg.Range == (WarehouseRange{}) {
		cfg.Range = WarehouseRange{First: 1, Last: cfg.Scale.Warehouses}
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	// The duration stops the start of transactions; one that started
	// runs to its end and is recorded, as in YCSB. Cancelling ctx (an
	// interrupt) cuts short the ones under way.
	stop := ctx
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		stop, cancel = context.WithTimeout(ctx, cfg.Duration)
		defer cancel()
	}
	var (
		started  atomic.Int64
		done     atomic.Int64
		firstErr atomic.Pointer[error]
		wg       sync.WaitGroup
	)
	begin := now()
	for w := range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			term := NewTerminal(cfg.Scale, cfg.Range, cfg.LoadSeed, cfg.Seed, w, now)
			for stop.Err() == nil {
				if cfg.Count > 0 && started.Add(1) > cfg.Count {
					return
				}
				t := term.Next()
				s := now()
				err := runOne(ctx, exec, term, t)
				e := now()
				if ctx.Err() != nil && err != nil {
					// Cut short by an interrupt: neither a result nor a
					// failure.
					return
				}
				done.Add(1)
				rec.Record(t, s, e, err)
				if err != nil && !errors.Is(err, ErrRollback) {
					firstErr.CompareAndSwap(nil, &err)
				}
			}
		}()
	}
	wg.Wait()
	st := RunStats{Transactions: done.Load(), Elapsed: now().Sub(begin)}
	if p := firstErr.Load(); p != nil {
		st.FirstError = *p
	}
	return st, nil
}

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
