package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// runSource loads runs named on the command line, from files or from the
// results store, which it opens on first use.
type runSource struct {
	storePath string
	st        *store.Store
	// readings say how each argument was read, when it did not say.
	readings map[string]string
}

func (s *runSource) close() {
	if s.st != nil {
		_ = s.st.Close()
	}
}

// The prefixes that say how a reference is read, whatever stands in the
// working directory: a path (dir:, file:), or a look-up in the store
// (run:, label:, sweep:).
const (
	dirPrefix  = "dir:"
	filePrefix = "file:"
	runPrefix  = "run:"
)

// refForms is what a reference may be, for messages.
const refForms = "a results file, a directory, run:ID (or a bare number), label:NAME, sweep:ID, dir:PATH or file:PATH"

// load resolves one command-line reference to its runs, and says how it
// read a bare word (a directory here or a label in the store, which
// depend on where the command runs); "" when the reference says so
// itself. The prefixes dir:, file:, run:, label: and sweep: say which
// reading is meant; a path with a '/' or a .json or journal name is a
// file or directory; a pattern with * ? [ names files; a reference with
// commas is several. A bare word that is both a path here and a run id or
// label in the store is refused: it would read differently elsewhere.
func (s *runSource) load(ctx context.Context, ref string) ([]analysis.Run, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if strings.TrimSpace(ref) == "" {
		return nil, "", badInputf("empty run reference: expected %s", refForms)
	}
	if p, ok := cutPathPrefix(ref); ok {
		runs, err := loadPath(ctx, p, ref)
		return runs, "", err
	}
	if strings.HasPrefix(ref, store.LabelPrefix) && strings.Contains(ref, ",") && s.open(ref) == nil {
		// A label may hold commas: label:a,b is that label when one has
		// it, else a list.
		if _, err := s.st.Resolve(ctx, ref); err == nil {
			runs, err := s.fromStore(ctx, ref)
			return runs, "", err
		}
	}
	if _, err := os.Stat(ref); err != nil && strings.Contains(ref, ",") {
		var runs []analysis.Run
		var readings []string
		for _, part := range strings.Split(ref, ",") {
			r, reading, err := s.load(ctx, part)
			if err != nil {
				return nil, "", err
			}
			runs = append(runs, r...)
			if reading != "" {
				readings = append(readings, reading)
			}
		}
		return runs, strings.Join(readings, ", "), nil
	}
	if isStoreRef(ref) {
		runs, err := s.fromStore(ctx, ref)
		return runs, "", err
	}
	_, statErr := os.Stat(ref)
	if statErr != nil && strings.ContainsAny(ref, "*?[") {
		runs, err := loadGlob(ctx, ref)
		return runs, "", err
	}
	if looksLikeFile(ref) {
		if statErr != nil {
			return nil, "", badInputf("results file %s does not exist", printable.String(ref))
		}
		runs, err := loadPath(ctx, ref, ref)
		return runs, "", err
	}
	return s.loadBare(ctx, ref, statErr == nil)
}

// loadGlob reads the files a pattern names.
func loadGlob(ctx context.Context, ref string) ([]analysis.Run, error) {
	matches, err := filepath.Glob(ref)
	if err != nil {
		return nil, badInputf("%q: %w: expected a pattern of file names, or label:NAME for a label holding * ? [", printable.String(ref), err)
	}
	if len(matches) == 0 {
		return nil, badInputf("%q matches no file", printable.String(ref))
	}
	var runs []analysis.Run
	for _, m := range matches {
		r, err := loadPath(ctx, m, m)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r...)
	}
	return runs, nil
}

// loadBare reads a bare word: a path here (exists says whether there is
// one), a run id or label in the store, refused when it is both.
func (s *runSource) loadBare(ctx context.Context, ref string, exists bool) ([]analysis.Run, string, error) {
	inStore, storeErr := s.resolves(ctx, ref)
	switch {
	case exists && inStore != "":
		what := "file"
		if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
			what = "directory"
		}
		return nil, "", badInputf("%q is both the %s %s here and %s in %s: say which, as %s%s or %s%s",
			printable.String(ref), what, printable.String(ref), inStore, s.st.Path(), pathPrefixFor(what), printable.String(ref), storePrefixFor(ref), printable.String(ref))
	case exists:
		runs, err := loadPath(ctx, ref, ref)
		what := "the file "
		if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
			what = "the directory "
		}
		return runs, what + ref, err
	case storeErr != nil:
		return nil, "", storeErr
	}
	runs, err := s.fromStore(ctx, ref)
	if err != nil {
		return nil, "", err
	}
	reading := fmt.Sprintf("the label %s in %s", ref, s.st.Path())
	if len(runs) == 1 && strconv.FormatInt(runs[0].ID, 10) == ref {
		reading = fmt.Sprintf("run %s in %s", ref, s.st.Path())
	}
	return runs, reading, nil
}

// cutPathPrefix returns the path of a dir: or file: reference.
func cutPathPrefix(ref string) (string, bool) {
	for _, p := range []string{dirPrefix, filePrefix} {
		if rest, ok := strings.CutPrefix(ref, p); ok {
			return rest, true
		}
	}
	return "", false
}

// isStoreRef reports whether ref names its reading in the store.
func isStoreRef(ref string) bool {
	return strings.HasPrefix(ref, runPrefix) || strings.HasPrefix(ref, store.LabelPrefix) || strings.HasPrefix(ref, store.SweepPrefix)
}

func pathPrefixFor(what string) string {
	if what == "directory" {
		return dirPrefix
	}
	return filePrefix
}

func storePrefixFor(ref string) string {
	if strings.TrimLeft(ref, "0123456789") == "" {
		return runPrefix
	}
	return store.LabelPrefix
}

// loadPath reads the file or directory at path; ref is how the user
// named it.
func loadPath(ctx context.Context, path, ref string) ([]analysis.Run, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, badInputf("%s: no such file or directory: expected %s", printable.String(ref), refForms)
	}
	if fi.IsDir() {
		return loadDir(ctx, path)
	}
	r, err := loadFile(path)
	if err != nil {
		return nil, err
	}
	return []analysis.Run{r}, nil
}

// open opens the store for look-ups, once.
func (s *runSource) open(ref string) error {
	if s.st != nil {
		return nil
	}
	if _, err := os.Stat(storePath(s.storePath)); errors.Is(err, os.ErrNotExist) {
		return badInputf("%q is no results file, and there is no results store at %s to look it up in as a run id, label or sweep:ID", printable.String(ref), storePath(s.storePath))
	}
	st, err := openExistingStore(s.storePath)
	if err != nil {
		return err
	}
	s.st = st
	return nil
}

// resolves says what a bare word names in the store ("run 3", "the label
// ws"), "" when nothing or when there is no store; the error is the
// store's, for when the word names nothing else either.
func (s *runSource) resolves(ctx context.Context, ref string) (string, error) {
	if err := s.open(ref); err != nil {
		return "", err
	}
	ids, err := s.st.Resolve(ctx, ref)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", badInputf("%s in %s", printable.String(err.Error()), s.st.Path())
		}
		return "", badInput{err}
	}
	if len(ids) == 1 && strconv.FormatInt(ids[0], 10) == ref {
		return "run " + ref, nil
	}
	return "the label " + ref, nil
}

// fromStore reads the runs a reference names in the store.
func (s *runSource) fromStore(ctx context.Context, ref string) ([]analysis.Run, error) {
	if err := s.open(ref); err != nil {
		return nil, err
	}
	var ids []int64
	if rest, ok := strings.CutPrefix(ref, runPrefix); ok {
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || id <= 0 || strings.TrimLeft(rest, "0123456789") != "" {
			return nil, badInputf("%q: expected run:ID, ID a run id that mongobench history lists", printable.String(ref))
		}
		ids = []int64{id}
	} else {
		var err error
		if ids, err = s.st.Resolve(ctx, ref); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil, badInputf("%s in %s", printable.String(err.Error()), s.st.Path())
			}
			return nil, badInput{err}
		}
	}
	runs := make([]analysis.Run, 0, len(ids))
	for _, id := range ids {
		res, err := s.st.Get(ctx, id)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil, badInputf("no run %d in %s: mongobench history lists the runs", id, s.st.Path())
			}
			if errors.Is(err, store.ErrDamagedRun) {
				return nil, badInput{err}
			}
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
	runs, reading, err := s.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	if s.readings == nil {
		s.readings = map[string]string{}
	}
	s.readings[ref] = reading
	out := analysis.OnceEach(runs)
	if err := analysis.WholeApart(ref, out); err != nil {
		return nil, badInput{err}
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

// shown are the arguments as a table or message shows them: control
// characters escaped and, with readings, how a bare word was read ("ws
// (the label ws in mongobench.db)").
func (s *runSource) shown(refs []string, readings bool) []string {
	out := make([]string, len(refs))
	for i, ref := range refs {
		out[i] = printable.String(ref)
		if r := s.readings[ref]; readings && r != "" {
			out[i] += " (" + printable.String(r) + ")"
		}
	}
	return out
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
