package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// runSource loads runs named on the command line, from files or from the
// results store, which it opens on first use.
type runSource struct {
	storePath string
	st        *store.Store
}

func (s *runSource) close() {
	if s.st != nil {
		_ = s.st.Close()
	}
}

// load resolves one command-line reference to its runs. A path that
// exists is a file or directory; a pattern with * ? [ names files; a
// reference with commas is several; anything else is looked up in the
// store (run id, label, sweep:ID).
func (s *runSource) load(ctx context.Context, ref string) ([]analysis.Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(ref) == "" {
		return nil, badInputf("empty run reference: expected a results file, a directory, a run id, a label or sweep:ID")
	}
	if fi, err := os.Stat(ref); err == nil {
		if fi.IsDir() {
			return loadDir(ctx, ref)
		}
		r, err := loadFile(ref)
		if err != nil {
			return nil, err
		}
		return []analysis.Run{r}, nil
	}
	if strings.ContainsAny(ref, "*?[") {
		matches, err := filepath.Glob(ref)
		if err != nil {
			return nil, badInputf("%q: %w", ref, err)
		}
		if len(matches) == 0 {
			return nil, badInputf("%q matches no file", ref)
		}
		var runs []analysis.Run
		for _, m := range matches {
			r, err := s.load(ctx, m)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r...)
		}
		return runs, nil
	}
	if strings.Contains(ref, ",") {
		var runs []analysis.Run
		for _, part := range strings.Split(ref, ",") {
			r, err := s.load(ctx, part)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r...)
		}
		return runs, nil
	}
	if looksLikeFile(ref) {
		return nil, badInputf("results file %s does not exist", ref)
	}
	if s.st == nil {
		if _, err := os.Stat(storePath(s.storePath)); errors.Is(err, os.ErrNotExist) {
			return nil, badInputf("%q is no results file, and there is no results store at %s to look it up in as a run id, label or sweep:ID", ref, storePath(s.storePath))
		}
		st, err := openExistingStore(s.storePath)
		if err != nil {
			return nil, err
		}
		s.st = st
	}
	ids, err := s.st.Resolve(ctx, ref)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, badInputf("%s in %s", err.Error(), s.st.Path())
		}
		return nil, badInput{err}
	}
	runs := make([]analysis.Run, 0, len(ids))
	for _, id := range ids {
		res, err := s.st.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		runs = append(runs, analysis.NewRun(res, fmt.Sprintf("run %d", id), id))
	}
	return runs, nil
}

// inputs returns the files the runs of groups were read from, and the
// store when one was read: what no output may overwrite.
func (s *runSource) inputs(groups [][]analysis.Run) []namedPath {
	var ins []namedPath
	for _, g := range groups {
		for _, r := range g {
			if r.ID == 0 {
				ins = append(ins, namedPath{"input", r.Source})
			}
		}
	}
	if s.st != nil {
		ins = append(ins, namedPath{"input", s.st.Path()})
	}
	return ins
}

// loadGroup loads the runs one argument names, each run once however
// often the argument names it ("a.json,a.json", a label and its sweep),
// so that no run counts twice in a mean.
func (s *runSource) loadGroup(ctx context.Context, ref string) ([]analysis.Run, error) {
	runs, err := s.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := runs[:0]
	for _, r := range runs {
		if k := r.Key(); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// looksLikeFile tells a mistyped file name from a label, so that the error
// says the file is missing rather than that no run has that label.
func looksLikeFile(ref string) bool {
	return strings.HasSuffix(ref, ".json") || strings.HasSuffix(ref, results.JournalSuffix) || strings.ContainsRune(ref, os.PathSeparator)
}

// loadFile reads a results file, or the journal of a run that did not
// finish.
func loadFile(path string) (analysis.Run, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return analysis.Run{}, badInputf("cannot read results file: %w", err)
	}
	defer f.Close()
	var res *results.Results
	if strings.HasSuffix(path, results.JournalSuffix) {
		res, err = results.ReadJournal(f)
	} else {
		res, err = results.ReadJSON(f)
	}
	if err != nil {
		return analysis.Run{}, badInputf("%s: %w", path, err)
	}
	return analysis.NewRun(res, path, 0), nil
}

// loadDir reads every results file in dir, and the journal of each run
// that left no results file (it was killed).
func loadDir(ctx context.Context, dir string) ([]analysis.Run, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, badInputf("cannot read directory: %w", err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	var runs []analysis.Run
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			continue
		case strings.HasSuffix(name, results.JournalSuffix):
			if names[strings.TrimSuffix(name, results.JournalSuffix)] {
				continue
			}
		case !strings.HasSuffix(name, ".json"):
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := loadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, badInputf("directory %s holds no results files (*.json)", dir)
	}
	// A sweep's files sort by name already; runs of other origins go by
	// their start time.
	slices.SortStableFunc(runs, func(a, b analysis.Run) int { return a.Res.Start.Compare(b.Res.Start) })
	return runs, nil
}

// loadGroups loads each reference as a group of runs.
func (src *runSource) loadGroups(ctx context.Context, refs []string) ([][]analysis.Run, error) {
	groups := make([][]analysis.Run, len(refs))
	for i, ref := range refs {
		g, err := src.loadGroup(ctx, ref)
		if err != nil {
			return nil, err
		}
		groups[i] = g
	}
	return groups, nil
}

// diskBaselines are the newest disk baseline of each device in the store,
// for the report to set each run's disk beside; none when there is no
// store. A store that cannot say costs the report only those.
func (s *runSource) diskBaselines(ctx context.Context, env Env) []*results.DiskBaseline {
	if s.st == nil {
		if _, err := os.Stat(storePath(s.storePath)); err != nil {
			return nil
		}
		st, err := openExistingStore(s.storePath)
		if err != nil {
			fmt.Fprintf(env.Stderr, "mongobench: warning: no disk baselines: %v\n", err)
			return nil
		}
		s.st = st
	}
	bs, err := s.st.DiskBaselines(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mongobench: warning: no disk baselines: %v\n", err)
		return nil
	}
	return bs
}
