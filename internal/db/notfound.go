package db

import (
	"fmt"
	"strings"
)

// NotFoundFailShare is the share of key lookups answered NOT_FOUND from
// which a phase counts as failed: it timed answers about documents that
// are not there (an empty or wrong collection, a delete run twice over
// the same keys), not the server's reads. YCSB's own workloads find some
// keys missing at times (a short collection, reads racing inserts), so
// one NOT_FOUND is an answer; all but one in a hundred is a measurement
// of nothing.
const NotFoundFailShare = 0.99

// LooksUp reports whether the operation looks one key up, and so may be
// answered NOT_FOUND: a read, update, read-modify-write or delete.
func (o Op) LooksUp() bool {
	switch o {
	case Read, Update, ReadModifyWrite, Delete:
		return true
	}
	return false
}

// NotFoundCount is what a phase's key lookups found: how many were
// answered (OK or NOT_FOUND; failures are counted elsewhere), how many of
// those found nothing, and the operations that looked up.
type NotFoundCount struct {
	Lookups, NotFound int64
	Ops               []string
}

// Add counts n operations of op that ended with status st.
func (c *NotFoundCount) Add(op Op, st Status, n int64) {
	if !op.LooksUp() || n == 0 || (st != NotFound && !st.IsOK()) {
		return
	}
	c.Lookups += n
	if st == NotFound {
		c.NotFound += n
	}
	for _, o := range c.Ops {
		if o == op.String() {
			return
		}
	}
	c.Ops = append(c.Ops, op.String())
}

// Failed reports whether at least NotFoundFailShare of the lookups found
// nothing.
func (c NotFoundCount) Failed() bool {
	return c.Lookups > 0 && float64(c.NotFound) >= NotFoundFailShare*float64(c.Lookups)
}

// Sentence says what a failed count means, or "" when the lookups found
// what they looked for.
func (c NotFoundCount) Sentence() string {
	if !c.Failed() {
		return ""
	}
	// No comma: the sentence is also a value of the summary.
	ops := strings.Join(c.Ops, "/")
	what := fmt.Sprintf("%d of the %d key lookups (%s) returned NOT_FOUND", c.NotFound, c.Lookups, ops)
	switch {
	case c.Lookups == 1:
		what = fmt.Sprintf("the one key lookup (%s) returned NOT_FOUND", ops)
	case c.NotFound == c.Lookups:
		what = fmt.Sprintf("every one of the %d key lookups (%s) returned NOT_FOUND", c.Lookups, ops)
	}
	return what + ": the collection holds none of the keys looked up and the figures time answers about missing documents rather than the server's work; load the records first (mongobench load with the same properties) or check table and the URL's database"
}
