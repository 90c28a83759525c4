package results

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFile writes r as a results file at path.
func writeFile(t *testing.T, path string, r *Results) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteJSON(f, r); err != nil {
		t.Fatal(err)
	}
}

// TestPartFiles checks what a merge's arguments expand to: files as
// given, a directory's results files and lone journals in name order, an
// earlier merge beside its parts left out, and the refusals.
func TestPartFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	parts := filepath.Join(dir, "parts")
	if err := os.Mkdir(parts, 0o755); err != nil {
		t.Fatal(err)
	}
	p0 := partResults(t, 0, 3, testStart, nil, []int64{100})
	writeFile(t, filepath.Join(parts, "p0.json"), p0)
	writeFile(t, filepath.Join(parts, "p1.json"), partResults(t, 1, 3, testStart, nil, []int64{100}))
	// p2 was killed: its journal alone; p1's journal has its results file.
	for _, j := range []string{"p1.json" + JournalSuffix, "p2.json" + JournalSuffix} {
		if err := os.WriteFile(filepath.Join(parts, j), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	whole, err := Merge(partResults(t, 0, 2, testStart, nil, []int64{100}), partResults(t, 1, 2, testStart, nil, []int64{100}))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(parts, "merged.json"), whole)
	if err := os.WriteFile(filepath.Join(parts, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := in("empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	inParts := func(names ...string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = filepath.Join(parts, n)
		}
		return out
	}

	for _, tc := range []struct {
		name    string
		args    []string
		out     string
		want    []string
		refused string
	}{
		{name: "a directory", args: []string{parts}, want: inParts("merged.json", "p0.json", "p1.json", "p2.json"+JournalSuffix)},
		{name: "the merge beside its parts left out", args: []string{parts}, out: filepath.Join(parts, "merged.json"), want: inParts("p0.json", "p1.json", "p2.json"+JournalSuffix)},
		{name: "files as given", args: inParts("p1.json", "p0.json"), want: inParts("p1.json", "p0.json")},
		{name: "a part twice", args: []string{filepath.Join(parts, "p0.json"), filepath.Join(parts, ".", "p0.json")}, refused: "is given twice (also as " + filepath.Join(parts, "p0.json") + ")"},
		{name: "a missing file", args: []string{in("none.json")}, refused: "cannot read " + in("none.json")},
		{name: "an empty directory", args: []string{empty}, refused: "directory " + empty + " holds no results files (*.json)"},
	} {
		got, err := PartFiles(tc.args, tc.out)
		if tc.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("%s: %v, want a refusal with %q", tc.name, err, tc.refused)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q (err %v), want %q", tc.name, got, err, tc.want)
		}
	}

	// A merged file to be written over a part is refused, naming both.
	out := filepath.Join(parts, "p0.json")
	_, err = PartFiles([]string{parts}, out)
	var oe *OutputIsPartError
	if !errors.As(err, &oe) || oe.Part != out || err.Error() != out+" is the part file "+out+": writing it would destroy it; name another file" {
		t.Errorf("out over a part: %v, want an OutputIsPartError naming it", err)
	}
	// merge's command line says so of its -o, and of no parts at all.
	if _, err := MergeInputs([]string{parts}, out); err == nil || err.Error() != "-o "+out+" is the part file "+out+": writing it would destroy it; name another file" {
		t.Errorf("MergeInputs, -o over a part: %v", err)
	}
	if _, err := MergeInputs(nil, ""); err == nil || !strings.HasPrefix(err.Error(), "no parts given: expected") {
		t.Errorf("MergeInputs, no parts: %v", err)
	}
	if got, err := MergeInputs([]string{parts}, ""); err != nil || len(got) == 0 {
		t.Errorf("MergeInputs of a directory of parts: %q, %v", got, err)
	}
}

// TestReadFile: a results file and a journal are read by their names;
// what cannot be read is named with its reason.
func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	writeFile(t, p, partResults(t, 0, 1, testStart, nil, []int64{100, 200}))
	r, err := ReadFile(p)
	if err != nil || r.Operations != 2 {
		t.Fatalf("ReadFile = %+v, %v; want the file's 2 operations", r, err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("ReadFile(bad) = %v, want the file named", err)
	}
	// A journal is read as one: an empty file is no journal.
	j := filepath.Join(dir, "r.json"+JournalSuffix)
	if err := os.WriteFile(j, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(j); err == nil || !strings.HasPrefix(err.Error(), j+": ") {
		t.Errorf("ReadFile(empty journal) = %v, want it refused as a journal", err)
	}
	if _, err := ReadFile(dir); err == nil || !strings.HasPrefix(err.Error(), "cannot read results file: ") {
		t.Errorf("ReadFile(a directory) = %v, want it refused", err)
	}
}

// TestMergeFiles: the parts' files add up to the whole; a part that did
// not finish is told of; an unreadable file is named; a stop ends it.
func TestMergeFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p0, p1 := filepath.Join(dir, "p0.json"), filepath.Join(dir, "p1.json")
	writeFile(t, p0, partResults(t, 0, 2, testStart, nil, []int64{100, 200}))
	late := partResults(t, 1, 2, testStart, nil, []int64{300})
	late.Partial = true
	writeFile(t, p1, late)
	var told []string
	m, err := MergeFiles(context.Background(), []string{p0, p1}, func(f string, r *Results) { told = append(told, f) })
	if err != nil {
		t.Fatal(err)
	}
	if m.Operations != 3 || !m.Partial || m.Extra.Merged.Parts != 2 {
		t.Errorf("merged %d operations, partial %v, %+v; want 3 of 2 parts, partial", m.Operations, m.Partial, m.Extra.Merged)
	}
	if !slices.Equal(told, []string{p1}) {
		t.Errorf("told of %q, want the unfinished part %s", told, p1)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := MergeFiles(context.Background(), []string{p0, bad}, nil); err == nil || !strings.HasPrefix(err.Error(), "merge: "+bad+": ") {
		t.Errorf("an unreadable part: %v, want it named", err)
	}
	if _, err := MergeFiles(context.Background(), []string{p0}, nil); err == nil || !strings.Contains(err.Error(), "missing of the 2 parts") {
		t.Errorf("a missing part: %v, want it refused", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MergeFiles(ctx, []string{p0, p1}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a stop: %v, want context.Canceled", err)
	}
}
