package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/native"
)

const validateAbout = `usage: mongobench validate FILE... [-p NAME=VALUE]... [flags]

Checks native workload files (YAML or JSON: collections, operations,
phases) without running anything. Each error is one line on stderr,
FILE:LINE:COLUMN: what is wrong; what is accepted, and the exit code is 2
if any file has one; a valid file prints one line on stdout saying what it
holds. -p sets a parameter of the files, as it does for load and run.
The format is in docs/reference/native-workloads.md and its JSON Schema in
docs/reference/native-schema.json.

flags:`

type validateOptions struct {
	params []kv
	help   bool
}

func validateFlags(o *validateOptions) []flagDef {
	return []flagDef{
		funcFlag("p", "NAME=VALUE", "set a parameter of the workload (repeatable)", false, property(&o.params)),
		helpFlag(&o.help),
	}
}

func validateHelp() string {
	return validateAbout + "\n" + flagsHelp(validateFlags(&validateOptions{}))
}

// maxWorkloadFile bounds what validate reads: a workload file is a page of
// YAML, and a huge one is a mistake (or not a workload).
const maxWorkloadFile = 4 << 20

// runValidate is "mongobench validate".
func runValidate(_ context.Context, args []string, env Env) error {
	o := &validateOptions{}
	fs := newFlagSet("validate", validateFlags(o))
	pos, err := fs.parseInterleaved(args)
	help, bad := fs.refusal(err)
	if bad != nil {
		return bad
	}
	if o.help || help {
		fmt.Fprintln(env.Stdout, validateHelp())
		return nil
	}
	if len(pos) == 0 {
		return badInputf("validate: no file given: expected one or more native workload files (YAML or JSON)")
	}
	overrides := make([]native.Parameter, len(o.params))
	for i, p := range o.params {
		overrides[i] = native.Parameter{Name: p.key, Value: p.value}
	}
	failed := false
	for _, path := range pos {
		f, err := readNativeFile(path)
		if err != nil {
			return badInputf("validate: %w", err)
		}
		w, err := native.Parse(path, f, overrides)
		var errs *native.Errors
		if errors.As(err, &errs) {
			failed = true
			for _, line := range errs.Lines() {
				fmt.Fprintln(env.Stderr, oneLine(line))
			}
			continue
		}
		if err != nil {
			return badInputf("validate: %w", err)
		}
		fmt.Fprintln(env.Stdout, validSummary(path, w))
	}
	if failed {
		// The lines above said what is wrong; nothing more to print.
		return exitError{code: ExitBadInput, err: errors.New("")}
	}
	return nil
}

func readNativeFile(path string) ([]byte, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxWorkloadFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxWorkloadFile {
		return nil, fmt.Errorf("%s: larger than %d MiB; a workload file is a page of YAML or JSON", path, maxWorkloadFile>>20)
	}
	return b, nil
}

// validSummary is the line a valid file gets: what it holds, so that a
// file that parses but says less than meant shows it.
func validSummary(path string, w *native.File) string {
	var phases []string
	for _, p := range []*native.Phase{w.Load, w.Warmup, w.Measure} {
		if p == nil {
			continue
		}
		end := fmt.Sprintf("%d operations", p.Count)
		if p.Count == 0 {
			end = p.Duration.String()
		}
		phases = append(phases, fmt.Sprintf("%s (%d threads, %s)", p.Kind, p.Threads, end))
	}
	return fmt.Sprintf("%s: valid: %s, %s, phases %s", path,
		plural(len(w.Collections), "collection"), plural(len(w.Operations), "operation"), strings.Join(phases, ", "))
}
