package results

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/redact"
)

// ReadFile reads a results file, or, by its name, the journal of a run
// that did not finish. Its errors say which file and why.
func ReadFile(path string) (*Results, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read results file: %w", err)
	}
	defer f.Close()
	read := ReadJSON
	if strings.HasSuffix(path, JournalSuffix) {
		read = ReadJournal
	}
	res, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return res, nil
}

// OutputIsPartError is the refusal of a merged results file that would
// be written over one of the parts it merges.
type OutputIsPartError struct{ Out, Part string }

func (e *OutputIsPartError) Error() string {
	return fmt.Sprintf("%s is the part file %s: writing it would destroy it; name another file", e.Out, e.Part)
}

// PartFiles expands the arguments of a merge into the parts' files: a
// file is itself, a directory gives its *.json files in name order and
// the journal of each part killed before it wrote one. out, the merged
// file to be written ("" for none), is left out of a directory's files
// when an earlier merge wrote it there, and refused (*OutputIsPartError)
// when it is a part. A part named twice, by any path, is refused.
func PartFiles(args []string, out string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", redact.Arg(a), err)
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		found, err := dirParts(a, out)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	// By identity, not by name: ./p0.json, an absolute path and a link
	// all name the same part.
	for i, f := range files {
		for _, g := range files[:i] {
			if outfile.Same(f, g) {
				return nil, fmt.Errorf("%s is given twice (also as %s): give each part once", f, g)
			}
		}
	}
	return files, nil
}

// dirParts are the parts' files in dir, as PartFiles takes them.
func dirParts(dir, out string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read directory %s: %w", dir, err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	var files []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		// A part killed mid-run left its journal and no results file.
		journalOnly := strings.HasSuffix(e.Name(), JournalSuffix) && !names[strings.TrimSuffix(e.Name(), JournalSuffix)]
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".json") || journalOnly) {
			continue
		}
		if out != "" && outfile.Same(p, out) {
			// An earlier merge written beside its parts is left out; a
			// part is not.
			if res, err := ReadFile(p); err == nil && res.Extra != nil && res.Extra.Part != nil {
				return nil, &OutputIsPartError{Out: out, Part: p}
			}
			continue
		}
		files = append(files, p)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("directory %s holds no results files (*.json)", dir)
	}
	return files, nil
}

// MergeFiles adds up the parts' files (results files, or the journals of
// parts that did not finish) one at a time, so that only the sums stay
// in memory. onPartial, when not nil, hears of each part that did not
// finish. A stop between parts returns ctx's error; every other error
// says which file and why.
func MergeFiles(ctx context.Context, files []string, onPartial func(file string, part *Results)) (*Results, error) {
	m := NewMerger()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if err := m.Add(f, res); err != nil {
			return nil, err
		}
		if res.Partial && onPartial != nil {
			onPartial(f, res)
		}
	}
	return m.Results()
}

// WriteFile writes a results file atomically: an interruption or a
// failure leaves the old file or the new one, never half of one.
func WriteFile(path string, res *Results) error {
	return outfile.Write(path, func(w io.Writer) error { return WriteJSON(w, res) })
}
