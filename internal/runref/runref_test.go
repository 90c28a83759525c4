package runref

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
)

// writeRun writes a synthetic run of its own (runs that start at the same
// instant with the same label are one run read twice) to path.
func writeRun(t *testing.T, path, label string, n int) *results.Results {
	t.Helper()
	r := resultstest.Results(t, resultstest.Spec{Throughput: 1000 + float64(n), Label: label})
	r.Start = r.Start.Add(time.Duration(n) * time.Second)
	r.End = r.End.Add(time.Duration(n) * time.Second)
	if path == "" {
		return r
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := results.WriteJSON(f, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// saveRuns saves runs into a new store at path; the ids are 1, 2, ...
func saveRuns(t *testing.T, path string, runs ...*results.Results) {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range runs {
		if _, err := st.Save(t.Context(), r, store.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLoadGroup checks the forms a group takes on the command line, and
// that a run named twice counts once.
func TestLoadGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	x1, x2 := filepath.Join(dir, "x1.json"), filepath.Join(dir, "x2.json")
	writeRun(t, x1, "", 1)
	writeRun(t, x2, "", 2)
	src := &Source{StorePath: filepath.Join(dir, "none.db")}
	defer src.Close()
	tests := []struct {
		ref  string
		want int
	}{
		{x1, 1},
		{x1 + "," + x2, 2},
		{x1 + "," + x1, 1},
		{filepath.Join(dir, "x*.json"), 2},
		{dir, 2},
		{dir + "," + x2, 2},
		{FilePrefix + x1, 1},
		{DirPrefix + dir, 2},
	}
	for _, tc := range tests {
		runs, err := src.LoadGroup(t.Context(), tc.ref)
		if err != nil || len(runs) != tc.want {
			t.Errorf("%s: %d runs (err %v), want %d", strings.ReplaceAll(tc.ref, dir, "DIR"), len(runs), err, tc.want)
		}
	}
}

// TestLoad checks how each form of reference is read, relative to the
// working directory and the store, what a bare word is said to have been
// read as, and that every refusal is an InputError naming the reference.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "runs.db")
	saveRuns(t, db, writeRun(t, "", "ws", 1), writeRun(t, "", "other", 2))
	if err := os.Mkdir("ws", 0o755); err != nil {
		t.Fatal(err)
	}
	writeRun(t, filepath.Join("ws", "r.json"), "in-dir", 3)
	writeRun(t, "a.json", "file", 4)

	for _, tc := range []struct {
		ref     string
		runs    int
		reading string
		refused string // in the InputError's message; "" for none
	}{
		{ref: "label:ws", runs: 1},
		{ref: "run:2", runs: 1},
		{ref: "dir:ws", runs: 1},
		{ref: "./ws", runs: 1},
		{ref: "a.json", runs: 1},
		{ref: "a.json,run:1", runs: 2},
		{ref: "other", runs: 1, reading: "the label other in " + db},
		{ref: "2", runs: 1, reading: "run 2 in " + db},
		{ref: "ws", refused: `"ws" is both the directory ws here and the label ws in ` + db + ": say which, as dir:ws or label:ws"},
		{ref: "", refused: "empty run reference: expected a results file"},
		{ref: "b.json", refused: "results file b.json does not exist"},
		{ref: "dir:none", refused: "dir:none: no such file or directory"},
		{ref: "z*.json", refused: `"z*.json" matches no file`},
		{ref: "run:x", refused: `"run:x": expected run:ID`},
		{ref: "run:99", refused: "no run 99 in " + db},
		{ref: "nolabel", refused: "in " + db},
	} {
		src := &Source{StorePath: db}
		runs, reading, err := src.Load(t.Context(), tc.ref)
		src.Close()
		if tc.refused != "" {
			var ie InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("Load(%q) = %v, want an InputError with %q", tc.ref, err, tc.refused)
			}
			continue
		}
		if err != nil || len(runs) != tc.runs || reading != tc.reading {
			t.Errorf("Load(%q) = %d runs, reading %q, err %v; want %d runs, reading %q", tc.ref, len(runs), reading, err, tc.runs, tc.reading)
		}
	}

	// Without a store, a word that is no file is refused, naming where
	// the store would be.
	src := &Source{StorePath: filepath.Join(dir, "none.db")}
	_, _, err := src.Load(t.Context(), "tuned")
	if !errors.As(err, new(InputError)) || !strings.Contains(err.Error(), "there is no results store at "+filepath.Join(dir, "none.db")) {
		t.Errorf("Load without a store = %v, want the refusal naming it", err)
	}
	if bs, err := src.DiskBaselines(t.Context()); bs != nil || err != nil {
		t.Errorf("DiskBaselines without a store = %v, %v; want none and no error", bs, err)
	}
}

// TestOpenError: the store's opener decides what its failures are; they
// come back as it returned them, and what was read is named in Inputs.
func TestOpenError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	saveRuns(t, db, writeRun(t, "", "ws", 1))
	broken := errors.New("cannot open")
	src := &Source{StorePath: db, Open: func(string) (*store.Store, error) { return nil, broken }}
	if _, _, err := src.Load(t.Context(), "label:ws"); !errors.Is(err, broken) || errors.As(err, new(InputError)) {
		t.Errorf("Load with a failing opener = %v, want its error as it is", err)
	}

	a := filepath.Join(dir, "a.json")
	writeRun(t, a, "file", 2)
	src = &Source{StorePath: db}
	defer src.Close()
	groups, err := src.LoadGroups(t.Context(), []string{a, "run:1"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := src.Inputs(groups), []string{a, db}; !slices.Equal(got, want) {
		t.Errorf("Inputs = %q, want %q", got, want)
	}
	if got, want := src.Shown([]string{"run:1", "x\ty"}, true), []string{"run:1", `x\ty`}; !slices.Equal(got, want) {
		t.Errorf("Shown = %q, want %q", got, want)
	}
}
