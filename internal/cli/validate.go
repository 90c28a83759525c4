package cli

import (
	"context"
	"errors"
	"fmt"

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
	failed, err := native.Validate(pos, overrides, env.Stdout, func(line string) { fmt.Fprintln(env.Stderr, oneLine(line)) })
	if err != nil {
		return badInputf("validate: %w", err)
	}
	if failed {
		// The lines above said what is wrong; nothing more to print.
		return exitError{code: ExitBadInput, err: errors.New("")}
	}
	return nil
}
