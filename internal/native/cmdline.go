package native

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/workloads"
)

// MaxFileSize bounds what is read of a workload file: a workload file is a
// page of YAML, and a huge one is a mistake (or not a workload).
const MaxFileSize = 4 << 20

// Split takes the native workload among a command line's -P files (one
// at most) out of them: the settings (-p, in their order) that name its
// parameters go to it. It returns the workload (nil for none), the files
// left, YCSB's property files, and the settings left. A file that does
// not parse is its first error, with how to list the others.
func Split(files []string, settings []Parameter) (w *File, rest []string, left []Parameter, err error) {
	left = settings
	for _, f := range files {
		data, ok, err := fileData(f)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			rest = append(rest, f)
			continue
		}
		if w != nil {
			return nil, nil, nil, fmt.Errorf("-P %s: a second native workload after %s; a phase runs one", f, w.Path)
		}
		params := ParameterNames(data)
		var overrides, others []Parameter
		for _, s := range left {
			if slices.Contains(params, s.Name) {
				overrides = append(overrides, s)
			} else {
				others = append(others, s)
			}
		}
		parsed, err := Parse(f, data, overrides)
		var errs *Errors
		if errors.As(err, &errs) {
			more := ""
			if n := len(errs.List) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more: mongobench validate %s lists them)", n, f)
			}
			return nil, nil, nil, fmt.Errorf("%s%s", errs.Lines()[0], more)
		}
		if err != nil {
			return nil, nil, nil, err
		}
		w, left = parsed, others
	}
	return w, rest, left, nil
}

// fileData reads -P name when it is a native workload: a file on disk
// (one with the native sections, or named .yaml, .yml or .json), or a
// built-in one by its name (insert1k.yaml). ok is false for YCSB's
// property files, which workload.ReadFile reads.
func fileData(name string) (data []byte, ok bool, err error) {
	if _, statErr := os.Stat(name); statErr == nil {
		data, err = ReadFile(name)
		if err != nil {
			// Not readable as a file (a directory, a pipe): YCSB's reader
			// says so in its own words.
			return nil, false, nil
		}
		// By its extension too: a workload with a YAML syntax error is
		// still a workload, whose error is the one to report.
		ext := strings.ToLower(filepath.Ext(name))
		return data, IsNative(data) || ext == ".yaml" || ext == ".yml" || ext == ".json", nil
	}
	base := path.Base(name)
	if data, err := fs.ReadFile(workloads.Files, base); err == nil && IsNative(data) {
		return data, true, nil
	}
	return nil, false, nil
}

// ReadFile reads a workload file, a regular file of at most MaxFileSize.
func ReadFile(path string) ([]byte, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d MiB; a workload file is a page of YAML or JSON", path, MaxFileSize>>20)
	}
	return b, nil
}

// OpNames are the names of the operations the phase of f that command
// runs issues, for a sweep table's columns.
func (f *File) OpNames(command string) []string {
	var ops []string
	if ph := f.PhaseOf(command); ph != nil {
		for _, op := range ph.Operations {
			ops = append(ops, op.Name)
		}
	}
	return ops
}

// Summary is the line validate prints for a valid file: what it holds,
// so that a file that parses but says less than meant shows it.
func (f *File) Summary(path string) string {
	var phases []string
	for _, p := range []*Phase{f.Load, f.Warmup, f.Measure} {
		if p == nil {
			continue
		}
		end := fmt.Sprintf("%d operations", p.Count)
		if p.Count == 0 {
			end = p.Duration.String()
		}
		phases = append(phases, fmt.Sprintf("%s (%s, %s)", p.Kind, count(p.Threads, "thread"), end))
	}
	return fmt.Sprintf("%s: valid: %s, %s, phases %s", path,
		count(len(f.Collections), "collection"), count(len(f.Operations), "operation"), strings.Join(phases, ", "))
}

// count is n and word, plural unless n is 1.
func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Validate is mongobench validate: it parses each file with the
// parameters given, writing a valid file's Summary to w and each error
// of an invalid one to bad. failed says some file had errors; err is a
// file that could not be read, which ends it.
func Validate(paths []string, params []Parameter, w io.Writer, bad func(line string)) (failed bool, err error) {
	for _, name := range paths {
		data, err := readNamed(name)
		if err != nil {
			return failed, err
		}
		f, err := Parse(name, data, params)
		var errs *Errors
		if errors.As(err, &errs) {
			failed = true
			for _, line := range errs.Lines() {
				bad(line)
			}
			continue
		}
		if err != nil {
			return failed, err
		}
		fmt.Fprintln(w, f.Summary(name))
	}
	return failed, nil
}

// readNamed reads a workload file as -P finds it: the file on disk, or,
// when there is none, the built-in workload of that name (shop.yaml).
func readNamed(name string) ([]byte, error) {
	if _, statErr := os.Stat(name); statErr != nil {
		if data, err := fs.ReadFile(workloads.Files, path.Base(name)); err == nil {
			if IsNative(data) {
				return data, nil
			}
			return nil, fmt.Errorf("%s is a built-in YCSB workload; validate checks native workload files (YAML or JSON, such as shop.yaml)", name)
		}
	}
	return ReadFile(name)
}
