package native

import (
	"errors"
	"slices"
	"sync"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/results"
)

// tally is one operation's counts in one worker; the worker's own, so
// counting takes no lock and allocates nothing until an operation fails.
type tally struct {
	ops, docs, modified int64
	errs                map[int32]int64
	names               map[int32]string
}

func (t *tally) add(r Result, err error) {
	t.ops++
	t.docs += r.Documents
	t.modified += r.Modified
	if err == nil {
		return
	}
	code, name := ServerCode(err)
	if t.errs == nil {
		t.errs, t.names = map[int32]int64{}, map[int32]string{}
	}
	t.errs[code]++
	if name != "" {
		t.names[code] = name
	}
}

func (t *tally) merge(o *tally) {
	t.ops += o.ops
	t.docs += o.docs
	t.modified += o.modified
	for code, n := range o.errs {
		if t.errs == nil {
			t.errs, t.names = map[int32]int64{}, map[int32]string{}
		}
		t.errs[code] += n
		if name := o.names[code]; name != "" {
			t.names[code] = name
		}
	}
}

// counts gathers the workers' tallies as they close.
type counts struct {
	mu     sync.Mutex
	byOp   []tally
	closed int
}

func (c *counts) add(ts []tally) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range ts {
		c.byOp[i].merge(&ts[i])
	}
	c.closed++
}

// Documents are what each of the phase's operations returned or affected
// since the last call, in the file's order, gathered from the workers
// that have closed (all of them once the runner's phase is over); the
// counts start again from zero, so that a warm-up's do not reach the
// measured phase's.
func (p *PhaseRunner) Documents() []results.OpDocuments {
	p.counts.mu.Lock()
	defer p.counts.mu.Unlock()
	if p.counts.closed == 0 {
		return nil
	}
	out := make([]results.OpDocuments, len(p.phase.Operations))
	for i, op := range p.phase.Operations {
		t := &p.counts.byOp[i]
		d := results.OpDocuments{
			Operation: op.Name, Kind: string(op.Kind), Counted: counted(op.Kind),
			Operations: t.ops, Documents: t.docs, PerOperation: results.PerOp(t.docs, t.ops),
		}
		if modifies(op.Kind) {
			m := t.modified
			d.Modified = &m
		}
		for code, n := range t.errs {
			d.Errors = append(d.Errors, results.CodeCount{Code: code, Name: t.names[code], Count: n})
		}
		slices.SortFunc(d.Errors, func(a, b results.CodeCount) int { return int(a.Code) - int(b.Code) })
		out[i] = d
	}
	clear(p.counts.byOp)
	p.counts.closed = 0
	return out
}

// counted says what an operation of kind k counts as its documents.
func counted(k Kind) string {
	switch k {
	case Find, Aggregate, Distinct, CountDocuments, FindOneAndUpdate, FindOneAndDelete:
		return "returned"
	case InsertOne, InsertMany:
		return "inserted"
	case UpdateOne, UpdateMany, ReplaceOne:
		return "matched"
	case DeleteOne, DeleteMany:
		return "deleted"
	case CreateIndex:
		return "none"
	}
	return "affected"
}

// modifies says whether kind k reports the documents it changed apart
// from those it matched.
func modifies(k Kind) bool {
	return k == UpdateOne || k == UpdateMany || k == ReplaceOne
}

// ServerCode is the server's error code of err and its name when the
// server gave one; 0 and "" when err carries no code (a network error,
// a timeout, a client-side refusal). A write error's code is its first
// write error's, else its write concern error's.
func ServerCode(err error) (int32, string) {
	var cmd mongo.CommandError
	if errors.As(err, &cmd) && cmd.Code != 0 {
		return cmd.Code, cmd.Name
	}
	var we mongo.WriteException
	if errors.As(err, &we) {
		if len(we.WriteErrors) > 0 {
			return int32(we.WriteErrors[0].Code), codeNames[int32(we.WriteErrors[0].Code)]
		}
		if we.WriteConcernError != nil {
			return int32(we.WriteConcernError.Code), we.WriteConcernError.Name
		}
	}
	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) {
		if len(bwe.WriteErrors) > 0 {
			return int32(bwe.WriteErrors[0].Code), codeNames[int32(bwe.WriteErrors[0].Code)]
		}
		if bwe.WriteConcernError != nil {
			return int32(bwe.WriteConcernError.Code), bwe.WriteConcernError.Name
		}
	}
	return 0, ""
}

// codeNames name the write errors' codes, which the server sends without
// a name: those a benchmark meets.
var codeNames = map[int32]string{
	2:     "BadValue",
	11000: "DuplicateKey",
	112:   "WriteConflict",
	121:   "DocumentValidationFailure",
	50:    "MaxTimeMSExpired",
	66:    "ImmutableField",
	251:   "NoSuchTransaction",
}
