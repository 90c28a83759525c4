package report

import (
	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/results"
)

// notFoundBanner says that a run's key lookups found (almost) nothing, by
// the rule that made the run exit 1 (db.NotFoundCount): its figures time
// answers about missing documents. "" when the lookups found their keys.
func notFoundBanner(r *results.Results, name string) string {
	var c db.NotFoundCount
	// In the summary's order, so the sentence names the operations as the
	// run's own warning did.
	for op := range db.Op(db.NumOps) {
		for st := range db.Status(db.NumStatuses) {
			c.Add(op, st, r.Status[op.String()][st.String()])
		}
	}
	if w := c.Sentence(); w != "" {
		return capitalize(name) + " measured nothing: " + w + "."
	}
	return ""
}
