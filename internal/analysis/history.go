package analysis

import "github.com/mongobench/mongobench/internal/changepoint"

// HistorySeries is one figure of one configuration's runs, oldest first,
// and where it changed.
type HistorySeries struct {
	Name, Unit string
	IDs        []int64
	Values     []float64
	// Changes are the series' change points, each significant by
	// changepoint's permutation test.
	Changes []changepoint.Change
}

// HistoryOf is the throughput and each operation's p99 of runs (one
// configuration's, oldest first), each with its change points; a run
// without an operation's latency is left out of that operation's series.
func HistoryOf(runs []Run) ([]HistorySeries, error) {
	kind := ChooseLatency(runs)
	tp := HistorySeries{Name: "throughput", Unit: "ops/s"}
	byOp := map[string]*HistorySeries{}
	var ops []string
	for _, r := range runs {
		f := FiguresOf(r.Res, kind)
		tp.IDs = append(tp.IDs, r.ID)
		tp.Values = append(tp.Values, f.Throughput)
		for _, op := range f.Order {
			v, ok := f.Ops[op].Latency("99")
			if !ok {
				continue
			}
			s := byOp[op]
			if s == nil {
				s = &HistorySeries{Name: op + " p99 (us)", Unit: "us"}
				byOp[op] = s
				ops = append(ops, op)
			}
			s.IDs = append(s.IDs, r.ID)
			s.Values = append(s.Values, v)
		}
	}
	SortOpNames(ops)
	out := []HistorySeries{tp}
	for _, op := range ops {
		out = append(out, *byOp[op])
	}
	for i := range out {
		cs, err := changepoint.Detect(out[i].Values, changepoint.Options{})
		if err != nil {
			return nil, err
		}
		out[i].Changes = cs
	}
	return out, nil
}
