package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
)

// distinctRun is a synthetic run of its own: runs that start at the same
// nanosecond with the same label are one run read twice.
func distinctRun(t *testing.T, label string, n int) *results.Results {
	t.Helper()
	r := resultstest.Results(t, resultstest.Spec{Throughput: 1000 + float64(n), Label: label})
	r.Start = r.Start.Add(time.Duration(n) * time.Second)
	r.End = r.End.Add(time.Duration(n) * time.Second)
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

// TestRunReferenceSyntax: what an argument of compare and report names
// does not depend on what the working directory holds. A bare word that
// is both a path here and a run id or label in the store is refused,
// naming both readings and the prefixes that choose; the prefixes read
// one way only; the output says how a bare word was read.
func TestRunReferenceSyntax(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	// Runs 1 (label ws), 2 (label other), 3 (label a[b,c).
	saveRuns(t, in(store.DefaultPath), distinctRun(t, "ws", 1), distinctRun(t, "other", 2), distinctRun(t, "a[b,c", 3))
	for _, d := range []string{"ws", "1"} {
		if err := os.Mkdir(in(d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeResults(filepath.Join(dir, d, "r.json"), distinctRun(t, "in-dir", 4)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // in stdout for exit 0, in the one line of stderr otherwise
	}{
		{"a directory and a label", []string{"compare", "ws", "other"}, 2,
			[]string{`"ws" is both the directory ws here and the label ws in mongobench.db`, "dir:ws", "label:ws"}},
		{"a directory and a run id", []string{"compare", "1", "other"}, 2,
			[]string{`"1" is both the directory 1 here and run 1 in mongobench.db`, "dir:1", "run:1"}},
		{"report, a directory and a label", []string{"report", "ws", "other", "-o", "r.html"}, 2, []string{"label:ws"}},
		{"label:", []string{"compare", "label:ws", "other"}, 0, []string{"A: label:ws: 1 run (store run 1), label ws"}},
		{"dir:", []string{"compare", "dir:ws", "other"}, 0, []string{"A: dir:ws: 1 run (1 file), label in-dir"}},
		{"a path with a slash", []string{"compare", "./ws", "other"}, 0, []string{"A: ./ws: 1 run (1 file)"}},
		{"run:", []string{"compare", "run:1", "other"}, 0, []string{"A: run:1: 1 run (store run 1)"}},
		{"a bare label says how it was read", []string{"compare", "run:1", "other"}, 0, []string{"B: other (the label other in mongobench.db): 1 run (store run 2)"}},
		{"a bare id says how it was read", []string{"compare", "2", "run:1"}, 0, []string{"A: 2 (run 2 in mongobench.db): 1 run (store run 2)"}},
		{"a label with a glob character and a comma", []string{"compare", "label:a[b,c", "other"}, 0, []string{"A: label:a[b,c: 1 run (store run 3)"}},
		{"run: not a number", []string{"compare", "run:x", "other"}, 2, []string{`"run:x": expected run:ID`}},
		{"run: not in the store", []string{"compare", "run:99", "other"}, 2, []string{"no run 99 in mongobench.db"}},
		{"dir: missing", []string{"compare", "dir:none", "other"}, 2, []string{"dir:none: no such file or directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mongobenchIn(t, dir, nil, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tc.code, r.stderr)
			}
			got := r.stdout
			if tc.code != 0 {
				got = r.stderr
				if strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("stderr is not one line:\n%s", r.stderr)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}

	// The explicit forms read the same wherever the command runs.
	elsewhere := t.TempDir()
	env := []string{storeEnv + "=" + in(store.DefaultPath)}
	here := mongobenchIn(t, dir, env, "compare", "label:ws", "run:2")
	there := mongobenchIn(t, elsewhere, env, "compare", "label:ws", "run:2")
	if here.code != 0 || here.stdout != there.stdout {
		t.Errorf("compare label:ws run:2 reads differently by where it runs:\nhere (exit %d)\n%s\nelsewhere (exit %d)\n%s", here.code, here.stdout, there.code, there.stdout)
	}
}

// TestSeparateRuns: groups that share a run compare work with itself: the
// same store id twice, a label inside a list, a results file and its
// copy in the store, a part beside its merged whole (either way round, or
// with its sibling). compare and report refuse them, exit 2, in one line
// naming the runs shared.
func TestSeparateRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	a, b := distinctRun(t, "A", 1), distinctRun(t, "B", 2)
	db := in("runs.db")
	saveRuns(t, db, a, b, distinctRun(t, "B", 3))
	if err := writeResults(in("a.json"), a); err != nil {
		t.Fatal(err)
	}
	if err := writeResults(in("a-copy.json"), a); err != nil {
		t.Fatal(err)
	}
	// The same figures on another system: another run.
	other := *a
	other.Extra = &results.Extra{Topology: &metrics.TopologyInfo{Kind: metrics.KindStandalone, Version: "7.0.42"}}
	if err := writeResults(in("a-elsewhere.json"), &other); err != nil {
		t.Fatal(err)
	}
	p0, p1 := partResults(t, 0, 2), partResults(t, 1, 2)
	whole, err := results.Merge(p0, p1)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*results.Results{"p0.json": p0, "p1.json": p1, "whole.json": whole} {
		if err := writeResults(in(name), r); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"one id twice", []string{"compare", "1", "1"}, []string{"groups A (1) and B (1) both hold run 1", "a run compared with itself"}},
		{"a label in both groups", []string{"compare", "A,B", "B"}, []string{"groups A (A,B) and B (B) both hold run 2, run 3"}},
		{"a file and its copy in the store", []string{"compare", in("a.json"), "1"}, []string{"both hold " + in("a.json") + " (also read as run 1)"}},
		{"a file and its copy", []string{"compare", in("a.json"), in("a-copy.json")}, []string{"both hold " + in("a.json") + " (also read as " + in("a-copy.json") + ")"}},
		{"a part and its whole", []string{"compare", in("p0.json"), in("whole.json")}, []string{"group A (" + in("p0.json") + ") holds " + in("p0.json") + ", a part of " + in("whole.json")}},
		{"the whole and a part", []string{"compare", in("whole.json"), in("p1.json")}, []string{"group B (" + in("p1.json") + ") holds " + in("p1.json") + ", a part of " + in("whole.json")}},
		{"the parts and their whole", []string{"compare", in("p0.json") + "," + in("p1.json"), in("whole.json")}, []string{"a part compared with its whole"}},
		{"a third group", []string{"compare", "1", "2", "3,1"}, []string{"groups A (1) and C (3,1) both hold run 1"}},
		{"report, one id twice", []string{"report", "1", "1", "-o", in("r.html")}, []string{"report: groups A (1) and B (1) both hold run 1"}},
		{"report, a part and its whole", []string{"report", in("whole.json"), in("p0.json"), "-o", in("r.html")}, []string{"a part of " + in("whole.json")}},
		{"a part and its whole in one group", []string{"compare", in("p1.json") + "," + in("whole.json"), "2"}, []string{"holds " + in("whole.json") + " and " + in("p1.json") + ", a part of it", "would count twice"}},
		{"report, a part and its whole in one group", []string{"report", in("whole.json") + "," + in("p0.json"), "-o", in("r.html")}, []string{"a part of it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mongobench(t, append(tc.args, "--store", db)...)
			if r.code != ExitBadInput {
				t.Fatalf("exit %d, want %d; stdout %s; stderr: %s", r.code, ExitBadInput, r.stdout, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
				t.Errorf("want one line on stderr and nothing on stdout; stdout %q, stderr %q", r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q lacks %q", r.stderr, w)
				}
			}
			if _, err := os.Stat(in("r.html")); err == nil {
				t.Error("a refused report wrote its page")
			}
		})
	}
	// Runs that are not the same are still compared.
	if r := mongobench(t, "compare", "1", "2", "--store", db); r.code != 0 {
		t.Errorf("compare 1 2: exit %d: %s", r.code, r.stderr)
	}
	if r := mongobench(t, "compare", in("a.json"), in("a-elsewhere.json"), "--store", db); r.code != 0 {
		t.Errorf("compare of runs alike but for their system: exit %d: %s", r.code, r.stderr)
	}
	// A run read twice in one group (its file and its copy in the store)
	// counts once.
	if r := mongobench(t, "compare", in("a.json")+",1", "2", "--store", db); r.code != 0 || !strings.Contains(r.stdout, "1 run of A against 1 run of B") {
		t.Errorf("compare a.json,1 2: exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
}

// TestStoreInputErrors: a --store that is a directory, and a run whose
// row in the store is damaged, are bad input (exit 2) in every command
// that reads or writes the store, named in one line, never SQLite's "out
// of memory (14)".
func TestStoreInputErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	if err := os.Mkdir(in("adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := writeResults(in("p"+string(rune('0'+i))+".json"), partResults(t, i, 2)); err != nil {
			t.Fatal(err)
		}
	}
	damaged := in("damaged.db")
	saveRuns(t, damaged, distinctRun(t, "ok", 1), distinctRun(t, "bad", 2))
	db, err := sql.Open("sqlite", damaged)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE runs SET results = '{"format_version": 2, "measurements": [', command = '[' WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"history --store a directory", []string{"history", "--store", in("adir")}, "--store " + in("adir") + " is a directory"},
		{"compare --store a directory", []string{"compare", "1", "2", "--store", in("adir")}, "is a directory"},
		{"report --store a directory", []string{"report", "1", "-o", in("r.html"), "--store", in("adir")}, "is a directory"},
		{"merge --store a directory", []string{"merge", in("p0.json"), in("p1.json"), "--store", in("adir")}, "is a directory"},
		{"disk --store a directory", []string{"disk", "--dir", dir, "--store", in("adir")}, "is a directory"},
		{"compare, a damaged row", []string{"compare", "1", "2", "--store", damaged}, "run 2 in " + damaged + ": its stored record is damaged"},
		{"report, a damaged row", []string{"report", "bad", "-o", in("r.html"), "--store", damaged}, "its stored record is damaged"},
		{"history, a damaged row", []string{"history", "--store", damaged}, "its stored record is damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mongobench(t, tc.args...)
			if r.code != ExitBadInput {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "out of memory") {
				t.Errorf("stderr %q: want one line with %q", r.stderr, tc.want)
			}
		})
	}
}
