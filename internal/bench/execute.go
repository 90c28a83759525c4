package bench

import (
	"context"
	"fmt"

	"github.com/mongobench/mongobench/internal/results"
)

// Execution is one load or run phase from its preparation to its results,
// as every caller runs it (`load` and `run`, a sweep's trial): prepare,
// open the outputs fed as it goes, run, judge the disks against their
// baselines, assemble the results. What differs between the callers is
// said here; what they do with the results is theirs.
type Execution struct {
	Target Target
	Limits Limits
	// Meta is the results' metadata, from what the preparation settled
	// (the seed, the server's URL and database).
	Meta func(p *Prepared) results.Meta
	// Journal, when not "", is where the phase's journal is written as it
	// goes.
	Journal string
	// Endpoint is the live metrics endpoint's sink; nil for none.
	Endpoint Sink
	// Display are the sinks that show the phase on the terminal.
	Display []Sink
	// DiskCeilings, when set, gives the disk baselines the run's busiest
	// disk is judged against.
	DiskCeilings func(ctx context.Context) []*results.DiskCeiling
	// BeforeClose, when set, runs after the phase and before its
	// connections close: a partitioned run's part gives up its
	// registration there.
	BeforeClose func()
}

// Executed is what an Execution measured and read.
type Executed struct {
	Outcome     *Outcome
	Observation Observation
	Meta        results.Meta
	// Results are the phase's results; nil when they could not be
	// assembled, with ResultsErr saying why.
	Results    *results.Results
	ResultsErr error
	// Database is the database the phase ran against.
	Database string
}

// Execute runs e. Its errors are Prepare's and Run's: a stop before the
// phase is an *Interrupted, bad settings an InputError.
func Execute(ctx context.Context, e Execution) (*Executed, error) {
	prep, err := Prepare(ctx, e.Target)
	if err != nil {
		return nil, err
	}
	defer prep.Close(ctx)
	if e.BeforeClose != nil {
		defer e.BeforeClose()
	}
	meta := e.Meta(prep)
	recordNative(&meta, e.Target.Native)
	// The outputs in the order they get each interval: the journal first,
	// so that what the others do cannot cost it a line.
	var sinks []Sink
	if e.Journal != "" {
		sinks = append(sinks, NewJournal(e.Journal, meta))
	}
	if e.Endpoint != nil {
		sinks = append(sinks, e.Endpoint)
	}
	if spec := e.Target.Spec; spec.HdrFileOutput {
		sinks = append(sinks, NewHdrLogs(spec.HdrOutputPath))
	}
	sinks = append(sinks, e.Display...)
	out, obs, err := prep.Run(ctx, e.Limits, sinks...)
	if err != nil {
		return nil, err
	}
	if e.DiskCeilings != nil {
		obs.DiskCeilings = e.DiskCeilings(ctx)
	}
	res, resErr := out.Results(meta, obs)
	if f, ok := prep.ops.(Finisher); ok && res != nil {
		out.finishErr = f.Finish(ctx, res)
	}
	return &Executed{Outcome: out, Observation: obs, Meta: meta, Results: res, ResultsErr: resErr, Database: prep.Database}, nil
}

// Finisher is a phase's operations that add to its results once it has
// ended, over the phase's connections: TPC-C's tpmC, retries and
// consistency check. Its error fails the phase (Outcome.Failure).
type Finisher interface {
	Finish(ctx context.Context, res *results.Results) error
}

// DuplicateKeyNote says why a load's inserts failed on duplicate keys and
// the ways out; "" when none did, or the phase was no load.
func (o *Outcome) DuplicateKeyNote(command, database, table string) string {
	if o.Result.DuplicateKeys == 0 || command != "load" {
		return ""
	}
	return fmt.Sprintf("%d inserts failed on duplicate keys: %s.%s already holds these records; load again with -p mongodb.upsert=true, or drop the collection first (--drop)",
		o.Result.DuplicateKeys, database, table)
}
