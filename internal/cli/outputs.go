package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// outputs tallies what a finished run wrote and what it could not, so
// that one failed output is reported without taking the others down.
type outputs struct {
	failed []error
	kept   []string
}

func (o *outputs) fail(err error) { o.failed = append(o.failed, err) }

// journalFailed reports whether a failure concerns the journal at path.
func (o *outputs) journalFailed(path string) bool {
	for _, err := range o.failed {
		var fe *outfile.Error
		if errors.As(err, &fe) && fe.Path == path {
			return true
		}
	}
	return false
}

// report says on w what could not be written, each with its path and
// reason, and what was kept; it returns the command's failure, or nil when
// every output was written.
func (o *outputs) report(w io.Writer) error {
	if len(o.failed) == 0 {
		return nil
	}
	for _, err := range o.failed {
		fmt.Fprintf(w, "mongobench: not written: %v\n", err)
	}
	kept := "nothing else"
	if len(o.kept) > 0 {
		kept = strings.Join(o.kept, ", ")
	}
	return fmt.Errorf("the run was measured, but %s could not be written (above); kept: %s", plural(len(o.failed), "output"), kept)
}

// keep writes the results file out ("" for none) and saves res in the
// store st (nil for none), each whatever became of the other.
func (o *outputs) keep(ctx context.Context, env Env, out string, st *store.Store, res *results.Results) {
	if out != "" {
		if err := writeResults(out, res); err != nil {
			o.fail(err)
		} else {
			o.kept = append(o.kept, "the results file "+out)
		}
	}
	if st != nil {
		if id, err := saveRun(ctx, st, res, store.SaveOptions{}); err != nil {
			o.fail(err)
		} else {
			o.kept = append(o.kept, fmt.Sprintf("run %d in %s", id, st.Path()))
			fmt.Fprintf(env.Stderr, "mongobench: saved as run %d in %s\n", id, st.Path())
		}
	}
}

// fileExpected says what an output path must name.
const fileExpected = "expected a file mongobench may write: a new one, or a regular file to replace"

// checkOutput refuses, as bad input, an output path that could not be
// written: found now, before anything is measured, not when the run ends.
func checkOutput(flag, path string) error {
	if err := outfile.Check(path); err != nil {
		return badInputf("%s %s: %v: %s", flag, path, err, fileExpected)
	}
	return nil
}

// checkDataDir refuses a --data-dir the embedded server could not keep its
// files in.
func checkDataDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := outfile.CheckDir(dir); err != nil {
		return badInputf("--data-dir %s: %v: expected a directory mongobench may create files in (it is created if missing)", dir, err)
	}
	// The server appends its log to a file of a fixed name there: a link
	// at that name would be written through.
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		log := filepath.Join(dir, embedded.LogFileName)
		if err := outfile.Check(log); err != nil {
			return badInputf("--data-dir %s: %s %v: expected a directory whose %s is a regular file or absent", dir, log, err, embedded.LogFileName)
		}
	}
	return nil
}

// checkStorePath refuses a store that could not be written: SQLite's own
// words for that ("out of memory (14)") come only when the run is over.
// A symbolic link to a store is fine: SQLite writes through it rather
// than replacing it.
func checkStorePath(path string) error {
	target := path
	if p, err := filepath.EvalSymlinks(path); err == nil {
		target = p
	}
	if err := outfile.Check(target); err != nil {
		return badInputf("--store %s: %v: expected a results store mongobench may write, or a new file in a writable directory", path, err)
	}
	return nil
}

// namedPath is a path the user gave, with the flag that gave it.
type namedPath struct{ flag, path string }

// checkDistinct refuses outputs that name one of the inputs or each
// other: the second would overwrite the first (a results file over a -P
// file, over the store, over its own journal).
func checkDistinct(inputs, outputs []namedPath) error {
	for i, o := range outputs {
		for _, in := range inputs {
			if outfile.Same(o.path, in.path) {
				return badInputf("%s %s is the %s file %s: writing it would destroy it; name another file", o.flag, o.path, in.flag, in.path)
			}
		}
		for _, p := range outputs[:i] {
			if outfile.Same(o.path, p.path) {
				return badInputf("%s %s and %s %s name the same file: one would overwrite the other; name two files", p.flag, p.path, o.flag, o.path)
			}
		}
	}
	return nil
}

// storeInputs is the results store as a file no output may replace: the
// one the command uses, and the one a file stands at even when it uses
// none (--no-store), since writing over it loses every run it holds.
func storeInputs(f storeFlags) []namedPath {
	p := storePath(f.path)
	if _, err := os.Stat(p); err == nil || !f.disabled {
		return []namedPath{{"results store", p}}
	}
	return nil
}

// checkBenchOutputs checks every path a load or run will write, before the
// store is opened or the server started: results file and its journal,
// summary file, histogram logs, store and the embedded server's data
// directory.
func checkBenchOutputs(cfg *benchConfig, storePath string) error {
	var outs []namedPath
	spec := cfg.Spec
	if cfg.args.out != "" {
		outs = append(outs, namedPath{"--out", cfg.args.out}, namedPath{"--out (its journal)", cfg.args.out + results.JournalSuffix})
	}
	if spec.ExportFile != "" {
		outs = append(outs, namedPath{"exportfile", spec.ExportFile})
	}
	if spec.HdrFileOutput {
		// The logs are named for the measurements that get data; READ's
		// stands for them all: same directory, same kind of name.
		outs = append(outs, namedPath{"hdrhistogram.output.path", spec.HdrOutputPath + "READ.hdr"})
	}
	for _, o := range outs {
		if err := checkOutput(o.flag, o.path); err != nil {
			return err
		}
	}
	if storePath != "" {
		if err := checkStorePath(storePath); err != nil {
			return err
		}
		outs = append(outs, namedPath{"--store", storePath})
	}
	if cfg.URL == "" {
		if err := checkDataDir(cfg.args.dataDir); err != nil {
			return err
		}
	}
	var ins []namedPath
	if storePath == "" {
		ins = storeInputs(cfg.args.store)
	}
	for _, f := range cfg.args.files {
		if _, err := os.Stat(f); err == nil {
			ins = append(ins, namedPath{"-P", f})
		}
	}
	return checkDistinct(ins, outs)
}
