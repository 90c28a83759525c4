package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
)

// mongobenchIn runs this test binary as mongobench in dir, with env as
// its whole environment (but for what makes it mongobench): for what
// depends on the working directory (the default store, report.html, a
// directory named like a label).
func mongobenchIn(t *testing.T, dir string, env []string, args ...string) cmdResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"MONGOBENCH_AS_MAIN=1", "PATH=" + os.Getenv("PATH")}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cmdResult{code, out.String(), errb.String()}
}

// partResults are the results of part index of a partitioned run r1.
func partResults(t *testing.T, index, count int) *results.Results {
	t.Helper()
	r := resultstest.Results(t, resultstest.Spec{Throughput: 1000})
	r.Start = r.Start.Add(time.Duration(index) * time.Millisecond)
	r.Extra = &results.Extra{Part: &results.Part{Index: index, Count: count, RunID: "r1",
		Whole: results.Share{OperationCount: 20000}, Share: results.Share{OperationCount: 10000}}}
	return r
}

// TestOutputsSpareInputs names, as the output of every command that
// writes a file, one of the command's inputs or the results store,
// spelt in every way that names the same file: each is refused before
// anything is written, exit 2, one line naming both, and nothing in the
// directory changes. A report.html nobody named is never replaced.
func TestOutputsSpareInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	for i := range 2 {
		if err := writeResults(in("p"+string(rune('0'+i))+".json"), partResults(t, i, 2)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(in("p0.json"), in("p0-link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(in("parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"p0.json", "p1.json"} {
		b, _ := os.ReadFile(in(p))
		if err := os.WriteFile(filepath.Join(dir, "parts", p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeResults(in("a.json"), resultstest.Results(t, resultstest.Spec{Throughput: 1000, Label: "a"})); err != nil {
		t.Fatal(err)
	}
	// The default store, in the working directory, with one run.
	st, err := store.Open(in(store.DefaultPath))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(t.Context(), resultstest.Results(t, resultstest.Spec{Throughput: 900, Label: "s"}), store.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"notes.md":    "# Conclusion\n",
		"report.html": "an earlier page nobody named",
		"w.props":     "recordcount=10\noperationcount=10\n",
	} {
		if err := os.WriteFile(in(name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := in("other.db")
	sweep := func(extra ...string) []string {
		return append([]string{"sweep", "run", "mongodb", "-P", "w.props", "-p", "mongodb.url=" + closedURL, "--vary", "threadcount=1,2", "--out-dir", in("sweep")}, extra...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the one line of stderr
	}{
		{"merge -o a part", []string{"merge", "p0.json", "p1.json", "-o", "p0.json", "--no-store"}, []string{"-o p0.json is the part file p0.json", "would destroy it"}},
		{"merge -o a part, spelt ./", []string{"merge", "p0.json", "p1.json", "-o", "./p0.json", "--no-store"}, []string{"is the part file p0.json"}},
		{"merge -o a part, absolute", []string{"merge", "p0.json", "p1.json", "-o", in("p1.json"), "--no-store"}, []string{"is the part file p1.json"}},
		{"merge -o a hard link to a part", []string{"merge", "p0.json", "p1.json", "-o", "p0-link.json", "--no-store"}, []string{"-o p0-link.json is the part file p0.json"}},
		{"merge -o a part in a directory", []string{"merge", "parts", "-o", "parts/../parts/p1.json", "--no-store"}, []string{"is the part file parts/p1.json"}},
		{"merge -o the default store", []string{"merge", "p0.json", "p1.json", "-o", store.DefaultPath}, []string{"-o mongobench.db is the results store file mongobench.db"}},
		{"merge -o the default store, --no-store", []string{"merge", "p0.json", "p1.json", "-o", store.DefaultPath, "--no-store"}, []string{"is the results store file"}},
		{"merge -o the --store", []string{"merge", "p0.json", "p1.json", "-o", other, "--store", other}, []string{"-o " + other + " is the results store file " + other}},
		{"merge a part given twice, spelt otherwise", []string{"merge", "p0.json", in("p0.json"), "p1.json", "--no-store"}, []string{"given twice"}},
		{"report -o its notes", []string{"report", "a.json", "--notes", "notes.md", "-o", "notes.md"}, []string{"-o notes.md is the --notes file notes.md"}},
		{"report -o the store", []string{"report", "a.json", "-o", store.DefaultPath}, []string{"is the results store file"}},
		{"report -o the store it reads", []string{"report", "s", "-o", "./" + store.DefaultPath}, []string{"is the "}},
		{"report over a report.html nobody named", []string{"report", "a.json"}, []string{"report.html exists and no -o names it", "-o report.html"}},
		{"sweep exportfile the -P file", sweep("-p", "exportfile=w.props", "--no-store"), []string{"exportfile w.props is the -P file w.props"}},
		{"sweep exportfile the store", sweep("-p", "exportfile="+store.DefaultPath), []string{"exportfile mongobench.db", "results store"}},
		{"run --out the store, --no-store", []string{"run", "mongodb", "-P", "w.props", "-p", "mongodb.url=" + closedURL, "--no-store", "--out", store.DefaultPath}, []string{"is the results store file"}},
		{"load exportfile the store", []string{"load", "mongodb", "-P", "w.props", "-p", "mongodb.url=" + closedURL, "-p", "exportfile=" + store.DefaultPath}, []string{"exportfile mongobench.db", "mongobench.db"}},
		{"calibrate --json the store", []string{"calibrate", "--json", store.DefaultPath}, []string{"--json mongobench.db is the results store file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refusedUnchanged(t, dir, func() cmdResult { return mongobenchIn(t, dir, nil, tc.args...) }, tc.want)
		})
	}
}

// TestReportDefaultPage: with no -o, report writes report.html where no
// file stands, and replaces it only once -o names it.
func TestReportDefaultPage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := writeResults(filepath.Join(dir, "a.json"), resultstest.Results(t, resultstest.Spec{Throughput: 1000})); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if r := mongobenchIn(t, dir, nil, "report", "a.json"); r.code != 0 {
		t.Fatalf("first report: exit %d: %s", r.code, r.stderr)
	}
	first, err := os.ReadFile(page)
	if err != nil || !bytes.Contains(first, []byte("<html")) {
		t.Fatalf("no page written (%v)", err)
	}
	if err := os.WriteFile(page, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := mongobenchIn(t, dir, nil, "report", "a.json"); r.code != ExitBadInput {
		t.Errorf("report over an unnamed report.html: exit %d, want %d", r.code, ExitBadInput)
	}
	if b, _ := os.ReadFile(page); string(b) != "mine" {
		t.Fatal("report.html was replaced though nobody named it")
	}
	for _, o := range [][]string{{"-o", "report.html"}, {"-o=report.html"}, {"--o", "./report.html"}} {
		if err := os.WriteFile(page, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := mongobenchIn(t, dir, nil, append([]string{"report", "a.json"}, o...)...); r.code != 0 {
			t.Fatalf("report %v: exit %d: %s", o, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(page); string(b) == "mine" {
			t.Errorf("report %v did not replace the page it names", o)
		}
	}
}

// TestDataDirLogLink: the embedded server's log has a fixed name in
// --data-dir; a symbolic link there is refused before anything starts,
// exit 2, and its target is not written.
func TestDataDirLogLink(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	precious := filepath.Join(outside, "precious")
	if err := os.WriteFile(precious, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(dir, embedded.LogFileName)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "--no-store", "--data-dir", dir},
		{"server", "--addr", "127.0.0.1:0", "--data-dir", dir},
		{"sweep", "run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "--no-store", "--vary", "threadcount=1,2", "--data-dir", dir, "--out-dir", filepath.Join(outside, "sweep")},
	} {
		r := mongobench(t, args...)
		if r.code != ExitBadInput || !strings.Contains(r.stderr, "ferretdb.log is a symbolic link") {
			t.Errorf("%s: exit %d, stderr %q: want exit 2 naming the link", args[0], r.code, r.stderr)
		}
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
}
