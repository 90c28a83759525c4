package analysis

import "github.com/mongobench/mongobench/internal/results"

// TpmCFigure names a TPC-C run's committed NewOrders per minute in
// comparisons: the figure of the TPC-C paper's tables, compared as
// throughput is (higher is better), beside it.
const TpmCFigure = "tpmC"

// tpmCOf is the run's tpmC, when its results carry a TPC-C section: a run
// of any other workload has none, which is not a tpmC of 0.
func tpmCOf(res *results.Results) (float64, bool) {
	if res == nil || res.Extra == nil || res.Extra.TPCC == nil {
		return 0, false
	}
	return res.Extra.TPCC.TpmC, true
}

// HasTpmC reports whether any trial of the point is a TPC-C run with its
// tpmC.
func (p PointFigures) HasTpmC() bool { return len(p.TpmC.Values) > 0 }
