package report

import "github.com/mongobench/mongobench/internal/results"

// rateUnit is what a throughput counts: operations, or documents for a
// study in which every operation inserted one, as the 002 report states
// its insert matrix in docs/s.
type rateUnit struct {
	short, long string
}

var (
	opsUnit  = rateUnit{"ops/s", "operations per second"}
	docsUnit = rateUnit{"docs/s", "documents per second"}
)

// format formats a throughput in the unit: "3,050 docs/s".
func (u rateUnit) format(v float64) string { return formatNum(v) + " " + u.short }

// rateUnitOf is documents when every operation the runs counted was an
// insert (a load, batched or not: its throughput counts the documents,
// not the insertMany calls), operations otherwise, and for no runs.
func rateUnitOf(runs []*results.Results) rateUnit {
	inserts := false
	for _, r := range runs {
		if r == nil {
			continue
		}
		for _, m := range r.Measurements {
			if m.Failed || m.Service == nil || m.Service.Count == 0 {
				continue
			}
			switch m.Op {
			case "INSERT":
				inserts = true
			case "INSERT-BATCH":
			default:
				return opsUnit
			}
		}
	}
	if inserts {
		return docsUnit
	}
	return opsUnit
}
