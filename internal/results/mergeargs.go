package results

import (
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

// MergeAbout is the help of mongobench merge before its flags: what
// MergeFiles adds up, and what it refuses.
const MergeAbout = `usage: mongobench merge PARTS... [-o FILE] [flags]

Adds up the results files of the parts of one partitioned run (load or run
with --part I/N or --parts N) into the results of the whole: histograms
added bucket by bucket, so the percentiles are exact; counts summed;
intervals aligned on the parts' common start. PARTS are results files, or
directories whose *.json files are all parts of the run. A part killed
mid-run left no results file: give its journal (FILE.intervals.jsonl),
which a directory supplies by itself; the merged run is then marked
partial. Parts of different runs, a part given twice or a part missing
are refused. Prints
the whole run's summary as load and run do, with the parts' start skew;
the merged results file is a results file like any other.

flags:`

// MergeOutFlag is merge's -o (or --out), the merged results file, bound
// to dest.
func MergeOutFlag(dest *string) cmdflag.Def {
	out := cmdflag.Text("o", "FILE", "write the merged results file", false, dest)
	out.Aliases = []string{"out"}
	return out
}

// MergeInputs are the parts' files merge's arguments name (PartFiles).
// Every error is the user's, worded for merge's command line: no parts,
// -o naming one of them, or what PartFiles refuses.
func MergeInputs(args []string, out string) ([]string, error) {
	if len(args) == 0 {
		return nil, errors.New("no parts given: expected the parts' results files, or directories holding them")
	}
	files, err := PartFiles(args, out)
	if oe := (*OutputIsPartError)(nil); errors.As(err, &oe) {
		return nil, fmt.Errorf("-o %w", err)
	}
	return files, err
}
