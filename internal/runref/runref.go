// Package runref resolves the run references of compare and report
// (run:ID, label:NAME, sweep:ID, dir:PATH, file:PATH, patterns, lists,
// bare words) to the runs they name, read from results files, journals
// and the results store.
package runref

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
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// InputError marks a reference that names nothing that can be read, or
// runs that cannot be compared as given: the user's mistake, not a
// failure of the machine.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, args ...any) error {
	return InputError{fmt.Errorf(format, args...)}
}

// Source loads runs named on the command line, from files or from the
// results store, which it opens on first use.
type Source struct {
	// StorePath is the results store references are looked up in; ""
	// for store.DefaultPath.
	StorePath string
	// Open opens the store at a path that exists, for reading; its
	// errors are returned as they are. nil is store.Open.
	Open func(path string) (*store.Store, error)

	st *store.Store
	// readings say how each argument was read, when it did not say.
	readings map[string]string
}

// Close closes the store, when it was opened.
func (s *Source) Close() {
	if s.st != nil {
		_ = s.st.Close()
	}
}

func (s *Source) openStore() (*store.Store, error) {
	if s.Open == nil {
		return store.Open(s.storePath())
	}
	return s.Open(s.storePath())
}

func (s *Source) storePath() string {
	if s.StorePath == "" {
		return store.DefaultPath
	}
	return s.StorePath
}

// The prefixes that say how a reference is read, whatever stands in the
// working directory: a path (dir:, file:), or a look-up in the store
// (run:, label:, sweep:).
const (
	DirPrefix  = "dir:"
	FilePrefix = "file:"
	RunPrefix  = "run:"
)

// forms is what a reference may be, for messages.
const forms = "a results file, a directory, run:ID (or a bare number), label:NAME, sweep:ID, dir:PATH or file:PATH"

// Load resolves one command-line reference to its runs, and says how it
// read a bare word (a directory here or a label in the store, which
// depend on where the command runs); "" when the reference says so
// itself. The prefixes dir:, file:, run:, label: and sweep: say which
// reading is meant; a path with a '/' or a .json or journal name is a
// file or directory; a pattern with * ? [ names files; a reference with
// commas is several. A bare word that is both a path here and a run id or
// label in the store is refused: it would read differently elsewhere.
func (s *Source) Load(ctx context.Context, ref string) ([]analysis.Run, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if strings.TrimSpace(ref) == "" {
		return nil, "", inputErrorf("empty run reference: expected %s", forms)
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
			r, reading, err := s.Load(ctx, part)
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
			return nil, "", inputErrorf("results file %s does not exist", printable.String(ref))
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
		return nil, inputErrorf("%q: %w: expected a pattern of file names, or label:NAME for a label holding * ? [", printable.String(ref), err)
	}
	if len(matches) == 0 {
		return nil, inputErrorf("%q matches no file", printable.String(ref))
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
func (s *Source) loadBare(ctx context.Context, ref string, exists bool) ([]analysis.Run, string, error) {
	inStore, storeErr := s.resolves(ctx, ref)
	switch {
	case exists && inStore != "":
		what := "file"
		if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
			what = "directory"
		}
		return nil, "", inputErrorf("%q is both the %s %s here and %s in %s: say which, as %s%s or %s%s",
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
	for _, p := range []string{DirPrefix, FilePrefix} {
		if rest, ok := strings.CutPrefix(ref, p); ok {
			return rest, true
		}
	}
	return "", false
}

// isStoreRef reports whether ref names its reading in the store.
func isStoreRef(ref string) bool {
	return strings.HasPrefix(ref, RunPrefix) || strings.HasPrefix(ref, store.LabelPrefix) || strings.HasPrefix(ref, store.SweepPrefix)
}

func pathPrefixFor(what string) string {
	if what == "directory" {
		return DirPrefix
	}
	return FilePrefix
}

func storePrefixFor(ref string) string {
	if strings.TrimLeft(ref, "0123456789") == "" {
		return RunPrefix
	}
	return store.LabelPrefix
}

// loadPath reads the file or directory at path; ref is how the user
// named it.
func loadPath(ctx context.Context, path, ref string) ([]analysis.Run, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, inputErrorf("%s: no such file or directory: expected %s", printable.String(ref), forms)
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
func (s *Source) open(ref string) error {
	if s.st != nil {
		return nil
	}
	if _, err := os.Stat(s.storePath()); errors.Is(err, os.ErrNotExist) {
		return inputErrorf("%q is no results file, and there is no results store at %s to look it up in as a run id, label or sweep:ID", printable.String(ref), s.storePath())
	}
	st, err := s.openStore()
	if err != nil {
		return err
	}
	s.st = st
	return nil
}

// resolves says what a bare word names in the store ("run 3", "the label
// ws"), "" when nothing or when there is no store; the error is the
// store's, for when the word names nothing else either.
func (s *Source) resolves(ctx context.Context, ref string) (string, error) {
	if err := s.open(ref); err != nil {
		return "", err
	}
	ids, err := s.st.Resolve(ctx, ref)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", inputErrorf("%s in %s", printable.String(err.Error()), s.st.Path())
		}
		return "", InputError{err}
	}
	if len(ids) == 1 && strconv.FormatInt(ids[0], 10) == ref {
		return "run " + ref, nil
	}
	return "the label " + ref, nil
}

// fromStore reads the runs a reference names in the store.
func (s *Source) fromStore(ctx context.Context, ref string) ([]analysis.Run, error) {
	if err := s.open(ref); err != nil {
		return nil, err
	}
	var ids []int64
	if rest, ok := strings.CutPrefix(ref, RunPrefix); ok {
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || id <= 0 || strings.TrimLeft(rest, "0123456789") != "" {
			return nil, inputErrorf("%q: expected run:ID, ID a run id that mongobench history lists", printable.String(ref))
		}
		ids = []int64{id}
	} else {
		var err error
		if ids, err = s.st.Resolve(ctx, ref); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil, inputErrorf("%s in %s", printable.String(err.Error()), s.st.Path())
			}
			return nil, InputError{err}
		}
	}
	runs := make([]analysis.Run, 0, len(ids))
	for _, id := range ids {
		res, err := s.st.Get(ctx, id)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil, inputErrorf("no run %d in %s: mongobench history lists the runs", id, s.st.Path())
			}
			if errors.Is(err, store.ErrDamagedRun) {
				return nil, InputError{err}
			}
			return nil, err
		}
		runs = append(runs, analysis.NewRun(res, fmt.Sprintf("run %d", id), id))
	}
	return runs, nil
}

// Inputs returns the files the runs of groups were read from, and the
// store when one was read: what no output may overwrite.
func (s *Source) Inputs(groups [][]analysis.Run) []string {
	var ins []string
	for _, g := range groups {
		for _, r := range g {
			if r.ID == 0 {
				ins = append(ins, r.Source)
			}
		}
	}
	if s.st != nil {
		ins = append(ins, s.st.Path())
	}
	return ins
}

// LoadGroup loads the runs one argument names, each run once however
// often the argument names it ("a.json,a.json", a label and its sweep),
// so that no run counts twice in a mean.
func (s *Source) LoadGroup(ctx context.Context, ref string) ([]analysis.Run, error) {
	runs, reading, err := s.Load(ctx, ref)
	if err != nil {
		return nil, err
	}
	if s.readings == nil {
		s.readings = map[string]string{}
	}
	s.readings[ref] = reading
	out := analysis.OnceEach(runs)
	if err := analysis.WholeApart(ref, out); err != nil {
		return nil, InputError{err}
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
	res, err := results.ReadFile(path)
	if err != nil {
		return analysis.Run{}, InputError{err}
	}
	return analysis.NewRun(res, path, 0), nil
}

// loadDir reads every results file in dir, and the journal of each run
// that left no results file (it was killed).
func loadDir(ctx context.Context, dir string) ([]analysis.Run, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, inputErrorf("cannot read directory: %w", err)
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
		return nil, inputErrorf("directory %s holds no results files (*.json)", dir)
	}
	// A sweep's files sort by name already; runs of other origins go by
	// their start time.
	slices.SortStableFunc(runs, func(a, b analysis.Run) int { return a.Res.Start.Compare(b.Res.Start) })
	return runs, nil
}

// Reading says how a bare word among the arguments loaded was read ("the
// label ws in mongobench.db"); "" when the argument said so itself.
func (s *Source) Reading(ref string) string { return s.readings[ref] }

// Shown are the arguments as a table or message shows them: control
// characters escaped and, with readings, how a bare word was read ("ws
// (the label ws in mongobench.db)").
func (s *Source) Shown(refs []string, readings bool) []string {
	out := make([]string, len(refs))
	for i, ref := range refs {
		out[i] = printable.String(ref)
		if r := s.readings[ref]; readings && r != "" {
			out[i] += " (" + printable.String(r) + ")"
		}
	}
	return out
}

// Separate refuses groups that share a run (analysis.SeparateRuns),
// naming each group by its letter and its argument as shown.
func (s *Source) Separate(refs []string, groups [][]analysis.Run) error {
	names := s.Shown(refs, false)
	for i, n := range names {
		names[i] = fmt.Sprintf("%s (%s)", analysis.GroupLetter(i), n)
	}
	return analysis.SeparateRuns(names, groups)
}

// LoadGroups loads each reference as a group of runs.
func (s *Source) LoadGroups(ctx context.Context, refs []string) ([][]analysis.Run, error) {
	groups := make([][]analysis.Run, len(refs))
	for i, ref := range refs {
		g, err := s.LoadGroup(ctx, ref)
		if err != nil {
			return nil, err
		}
		groups[i] = g
	}
	return groups, nil
}

// DiskBaselines are the newest disk baseline of each device in the
// store, for a report to set each run's disk beside; none, and no error,
// when there is no store.
func (s *Source) DiskBaselines(ctx context.Context) ([]*results.DiskBaseline, error) {
	if s.st == nil {
		if _, err := os.Stat(s.storePath()); err != nil {
			return nil, nil
		}
		st, err := s.openStore()
		if err != nil {
			return nil, err
		}
		s.st = st
	}
	return s.st.DiskBaselines(ctx)
}
