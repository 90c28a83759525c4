package native

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// HasParameter reports whether f declares the parameter name.
func (f *File) HasParameter(name string) bool {
	return slices.ContainsFunc(f.Parameters, func(p Parameter) bool { return p.Name == name })
}

// WithParameters parses f again with values set over its parameters (the
// -p settings it was read with kept for the others): a sweep's point that
// varies a parameter gets the file that value makes, every template and
// phase read with it. The error is one line, the first of the file's.
func (f *File) WithParameters(values map[string]string) (*File, error) {
	overrides := make([]Parameter, 0, len(f.Parameters))
	for _, p := range f.Parameters {
		if v, ok := values[p.Name]; ok {
			p.Value = v
		}
		overrides = append(overrides, p)
	}
	for name := range values {
		if !f.HasParameter(name) {
			return nil, fmt.Errorf("%s: %s is not a parameter of the workload", f.Path, name)
		}
	}
	out, err := Parse(f.Path, f.Source, overrides)
	var errs *Errors
	if errors.As(err, &errs) {
		return nil, errors.New(errs.Lines()[0])
	}
	return out, err
}

// ParameterKey is the file's parameters and their values, one string: two
// files parsed from one source with the same key generate the same data.
func (f *File) ParameterKey() string {
	var b strings.Builder
	for _, p := range f.Parameters {
		fmt.Fprintf(&b, "%s=%q;", p.Name, p.Value)
	}
	return b.String()
}

// PhaseOf is the phase of f that command runs: load's load, run's
// measure; nil when the file has none.
func (f *File) PhaseOf(command string) *Phase {
	if command == "load" {
		return f.Load
	}
	return f.Measure
}

// Property is a YCSB property a phase of a native workload stands for.
type Property struct{ Key, Value string }

// PhaseProperties are the YCSB properties command's phase of f stands
// for: its threads, rate and length as a -P file's threadcount, target,
// operationcount (recordcount and insertcount for a load) and
// maxexecutiontime, and the first collection as the table, so that the
// command line overrides them as it overrides a -P file's and the
// results record what ran. A file without that phase is an error saying
// so.
func PhaseProperties(f *File, command string) ([]Property, error) {
	ph := f.PhaseOf(command)
	if ph == nil {
		want := "measure"
		if command == "load" {
			want = "load"
		}
		return nil, fmt.Errorf("-P %s: the workload has no %s phase for mongobench %s; add one under phases", f.Path, want, command)
	}
	props := []Property{
		{"table", f.Collections[0].Name},
		{"threadcount", strconv.Itoa(ph.Threads)},
		{"target", strconv.FormatFloat(ph.Rate, 'g', -1, 64)},
	}
	if ph.Duration > 0 {
		props = append(props, Property{"maxexecutiontime", ph.Duration.String()})
	}
	if command == "load" {
		n := strconv.FormatInt(ph.Count, 10)
		if ph.Count == 0 {
			// Ended by its duration: YCSB's load still needs a
			// recordcount, which the phase's length does not use.
			n = strconv.FormatInt(max(1, f.Collections[0].Documents), 10)
		}
		return append(props, Property{"recordcount", n}, Property{"insertcount", n}), nil
	}
	// YCSB's run needs the records it reads; a native run's are the
	// first collection's documents (its other checks are its own).
	return append(props,
		Property{"operationcount", strconv.FormatInt(ph.Count, 10)},
		Property{"recordcount", strconv.FormatInt(max(1, f.Collections[0].Documents), 10)}), nil
}
