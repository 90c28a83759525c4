package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/kubejob"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/workloads"
)

// splitNative takes the native workload file among the -P files (one at
// most) out of YCSB's properties: the -p settings that name its
// parameters go to it, and its phase's threads, rate and length come
// back as properties, which the command line's -threads, -target and -p
// then override as they override a -P file's. Called again, it gives the
// same properties.
func (a *benchArgs) splitNative() (*workload.Properties, error) {
	if a.native == nil {
		var files []string
		for _, f := range a.files {
			data, ok, err := nativeFileData(f)
			if err != nil {
				return nil, err
			}
			if !ok {
				files = append(files, f)
				continue
			}
			if a.native != nil {
				return nil, fmt.Errorf("-P %s: a second native workload after %s; a phase runs one", f, a.native.Path)
			}
			params := native.ParameterNames(data)
			var overrides []native.Parameter
			var rest []kv
			for _, s := range a.settings {
				if slices.Contains(params, s.key) {
					overrides = append(overrides, native.Parameter{Name: s.key, Value: s.value})
				} else {
					rest = append(rest, s)
				}
			}
			w, err := native.Parse(f, data, overrides)
			var errs *native.Errors
			if errors.As(err, &errs) {
				more := ""
				if n := len(errs.List) - 1; n > 0 {
					more = fmt.Sprintf(" (and %d more: mongobench validate %s lists them)", n, f)
				}
				return nil, fmt.Errorf("%s%s", errs.Lines()[0], more)
			}
			if err != nil {
				return nil, err
			}
			a.native, a.settings = w, rest
		}
		a.files = files
	}
	props := workload.NewProperties()
	if a.native == nil {
		return props, nil
	}
	w := a.native
	phase, err := native.PhaseProperties(w, a.command)
	if err != nil {
		return nil, err
	}
	for _, p := range phase {
		props.Set(p.Key, p.Value, w.Path)
	}
	return props, nil
}

// nativeFileData reads -P name when it is a native workload: a file on
// disk (one with the native sections, or named .yaml, .yml or .json), or
// a built-in one by its name (insert1k.yaml). ok is false for YCSB's
// property files, which readWorkloadFile reads.
func nativeFileData(name string) (data []byte, ok bool, err error) {
	if _, statErr := os.Stat(name); statErr == nil {
		data, err = readNativeFile(name)
		if err != nil {
			// Not readable as a file (a directory, a pipe): YCSB's reader
			// says so in its own words.
			return nil, false, nil
		}
		// By its extension too: a workload with a YAML syntax error is
		// still a workload, whose error is the one to report.
		ext := strings.ToLower(filepath.Ext(name))
		return data, native.IsNative(data) || ext == ".yaml" || ext == ".yml" || ext == ".json", nil
	}
	base := path.Base(name)
	if data, err := fs.ReadFile(workloads.Files, base); err == nil && native.IsNative(data) {
		return data, true, nil
	}
	return nil, false, nil
}

// nativeOps are the names of the operations the phase of w that command
// runs issues, for a sweep table's columns.
func nativeOps(w *native.File, command string) []string {
	ph := w.PhaseOf(command)
	var ops []string
	if ph != nil {
		for _, op := range ph.Operations {
			ops = append(ops, op.Name)
		}
	}
	return ops
}

// checkNativeK8s refuses, for k8s, a native workload its parts cannot
// split (kubejob.Spec.CheckNative).
func checkNativeK8s(s *kubejob.Spec, a *benchArgs) error {
	if a.native == nil {
		return nil
	}
	if err := s.CheckNative(a.native, a.command); err != nil {
		return badInputf("k8s: %w", err)
	}
	return nil
}
