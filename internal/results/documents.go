package results

import (
	"cmp"
	"slices"
)

// OpDocuments is what one named operation of a native workload returned or
// affected over a phase, and its failures by the server's error code.
type OpDocuments struct {
	// Operation is the operation's name in the workload file.
	Operation string `json:"operation"`
	// Kind is the operation's kind as the workload file names it
	// (find, insertOne, transaction, ...).
	Kind string `json:"kind"`
	// Counted says what Documents counts: returned (find, aggregate,
	// distinct, countDocuments, findOneAnd...), inserted, matched (updates
	// and replacements, upserts included), deleted, or affected (a
	// bulkWrite or transaction, whose steps differ).
	Counted string `json:"counted"`
	// Operations counts the operations that ran to an answer, failed ones
	// included; those cut by the phase's end are not counted, as the
	// latencies do not count them.
	Operations int64 `json:"operations"`
	// Documents is the total over the operations, as Counted says.
	Documents int64 `json:"documents"`
	// Modified counts the documents an update or replacement changed
	// (MongoDB's nModified); absent for the other kinds.
	Modified *int64 `json:"modified,omitempty"`
	// PerOperation is Documents / Operations, 0 without operations.
	PerOperation float64 `json:"per_operation"`
	// Errors counts the operations that failed, by the server's error
	// code; code 0 gathers the failures that carried none (a network
	// error, a timeout).
	Errors []CodeCount `json:"errors_by_code,omitempty"`
}

// CodeCount is how many operations failed with one server error code.
type CodeCount struct {
	// Code is the server's error code; 0 for failures without one.
	Code int32 `json:"code"`
	// Name is the code's name (DuplicateKey) when known.
	Name string `json:"name,omitempty"`
	// Count is how many operations failed with it.
	Count int64 `json:"count"`
}

// PerOp is documents per operation, 0 without operations.
func PerOp(documents, operations int64) float64 {
	if operations == 0 {
		return 0
	}
	return float64(documents) / float64(operations)
}

// AddDocuments adds the counts of one part of a run to those of the parts
// before it, operation by operation (by name, in the first part's order,
// a name new in a later part after them): every figure is a sum, so the
// merge is exact; the mean per operation is computed again.
func AddDocuments(to, part []OpDocuments) []OpDocuments {
	for _, p := range part {
		i := slices.IndexFunc(to, func(d OpDocuments) bool { return d.Operation == p.Operation })
		if i < 0 {
			p.Errors = slices.Clone(p.Errors)
			if p.Modified != nil {
				m := *p.Modified
				p.Modified = &m
			}
			to = append(to, p)
			continue
		}
		d := &to[i]
		d.Operations += p.Operations
		d.Documents += p.Documents
		if p.Modified != nil {
			m := *p.Modified
			if d.Modified != nil {
				m += *d.Modified
			}
			d.Modified = &m
		}
		for _, e := range p.Errors {
			j := slices.IndexFunc(d.Errors, func(c CodeCount) bool { return c.Code == e.Code })
			if j < 0 {
				d.Errors = append(d.Errors, e)
				continue
			}
			d.Errors[j].Count += e.Count
		}
		slices.SortFunc(d.Errors, func(a, b CodeCount) int { return cmp.Compare(a.Code, b.Code) })
	}
	for i := range to {
		to[i].PerOperation = PerOp(to[i].Documents, to[i].Operations)
	}
	return to
}
