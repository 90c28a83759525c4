package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// partEnv is the environment of pod index of an Indexed Job.
func partEnv(index int) func(string) string {
	return func(k string) string {
		if k == "JOB_COMPLETION_INDEX" {
			return strconv.Itoa(index)
		}
		return testEnv(k)
	}
}

// runParts runs the command as parts 0..n-1 of one run, side by side, as
// the pods of an Indexed Job do; args gets "--out dir/NAME-i.json".
func runParts(t *testing.T, n int, dir, name string, args ...string) []cmdResult {
	t.Helper()
	out := make([]cmdResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var o, e bytes.Buffer
			a := append(append([]string{}, args...), "--parts", strconv.Itoa(n), "--out", filepath.Join(dir, name+"-"+strconv.Itoa(i)+".json"))
			code := Main(context.Background(), a, Env{Stdout: &o, Stderr: &e, Getenv: partEnv(i)})
			out[i] = cmdResult{code, o.String(), e.String()}
		})
	}
	wg.Wait()
	for i, r := range out {
		if r.code != 0 {
			t.Fatalf("%s part %d: exit %d: %s", name, i, r.code, r.stderr)
		}
	}
	return out
}

func readResultsFile(t *testing.T, path string) *results.Results {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := results.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPartitionedRunMerges loads and runs workload D as three parts
// against one server, then merges the run's parts: the load covers the
// keys once, the parts' inserts never collide, all parts agree on one
// start, and the merge adds up exactly.
func TestPartitionedRunMerges(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	dir := t.TempDir()
	const parts = 3
	loads := runParts(t, parts, dir, "load", "load", "mongodb", "-P", "workloadd", "-p", "recordcount=301",
		"-p", "mongodb.url="+url, "--no-store")
	var loaded int64
	for i, r := range loads {
		s := parseSummary(t, r.stdout)
		if s.int(t, "INSERT", "Return=OK") != s.int(t, "INSERT", "Operations") {
			t.Errorf("load part %d: %v", i, s["INSERT"])
		}
		loaded += s.int(t, "INSERT", "Return=OK")
	}
	if loaded != 301 {
		t.Errorf("the load parts inserted %d records, want the 301 once each", loaded)
	}

	runDir := filepath.Join(dir, "run")
	if err := os.Mkdir(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	runs := runParts(t, parts, runDir, "run", "run", "mongodb", "-P", "workloadd", "-p", "recordcount=301",
		"-p", "operationcount=600", "-p", "insertproportion=0.5", "-p", "readproportion=0.5", "-threads", "2",
		"-p", "mongodb.url="+url, "--no-store")
	var ops, inserts int64
	for i, r := range runs {
		s := parseSummary(t, r.stdout)
		if n := s.int(t, "INSERT", "Operations"); n == 0 || s.int(t, "INSERT", "Return=OK") != n || s["INSERT-FAILED"] != nil {
			t.Errorf("run part %d: inserts %v %v: want all OK, no duplicate keys", i, s["INSERT"], s["INSERT-FAILED"])
		}
		if s.int(t, "READ", "Return=OK") != s.int(t, "READ", "Operations") {
			t.Errorf("run part %d reads %v: want every key found", i, s["READ"])
		}
		ops += s.int(t, "READ", "Operations") + s.int(t, "INSERT", "Operations")
		inserts += s.int(t, "INSERT", "Operations")
	}
	if ops != 600 {
		t.Errorf("the parts made %d operations, want operationcount=600 split", ops)
	}

	// The parts agree on one start, reached at the barrier, and on their
	// shares of the whole.
	var startAt string
	var first, last time.Time
	hists := map[string]*hdrhistogram.Histogram{}
	for i := range parts {
		r := readResultsFile(t, filepath.Join(runDir, "run-"+strconv.Itoa(i)+".json"))
		if i == 0 || r.Start.Before(first) {
			first = r.Start
		}
		if i == 0 || r.Start.After(last) {
			last = r.Start
		}
		p := r.Extra.Part
		if p == nil || p.Index != i || p.Count != parts || p.Sync != "barrier" || p.Whole.OperationCount != 600 {
			t.Fatalf("part %d records %+v", i, p)
		}
		if at := p.StartAt.String(); i == 0 {
			startAt = at
		} else if at != startAt {
			t.Errorf("part %d starts at %s, part 0 at %s", i, at, startAt)
		}
		s, err := r.Summary()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Measurements {
			if hists[m.Name] == nil {
				hists[m.Name] = measure.NewHistogram()
			}
			hists[m.Name].Merge(m.Service)
		}
	}

	merged := filepath.Join(dir, "merged.json")
	r := mongobench(t, "merge", runDir, "-o", merged, "--no-store")
	if r.code != 0 {
		t.Fatalf("merge: exit %d: %s", r.code, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	if got := s.int(t, "READ", "Operations") + s.int(t, "INSERT", "Operations"); got != ops {
		t.Errorf("merged operations %d, want the parts' %d", got, ops)
	}
	if got := s.int(t, "INSERT", "Return=OK"); got != inserts {
		t.Errorf("merged inserts %d, want the parts' %d", got, inserts)
	}
	// The skew is how far apart the parts' recorded starts are.
	skew := strconv.FormatFloat(float64(last.Sub(first).Microseconds())/1000, 'f', 3, 64)
	if s.int(t, "PARTS", "Parts") != parts || s["PARTS"]["StartSkew(ms)"] != skew || !strings.HasPrefix(s["PARTS"]["RunID"], "run-") {
		t.Errorf("parts lines %v, want %d parts %s ms apart", s["PARTS"], parts, skew)
	}
	// Exact: the merged histograms are those of every part's values, and
	// the printed percentiles theirs.
	m := readResultsFile(t, merged)
	ms, err := m.Summary()
	if err != nil {
		t.Fatal(err)
	}
	for _, mm := range ms.Measurements {
		want := hists[mm.Name]
		if want == nil || !mm.Service.Equals(want) {
			t.Errorf("merged %s histogram differs from the parts' values added up", mm.Name)
			continue
		}
		p99 := strconv.FormatInt(measure.Percentiles(want, []float64{99})[0], 10)
		if got := s[mm.Name]["99thPercentileLatency(us)"]; got != p99 {
			t.Errorf("merged %s p99 printed %s, the parts' values give %s", mm.Name, got, p99)
		}
	}
	if m.Extra.Merged == nil || m.Extra.Merged.Parts != parts || m.Config["operationcount"] != "600" || m.Extra.Part != nil {
		t.Errorf("merged extra %+v, config operationcount %q", m.Extra.Merged, m.Config["operationcount"])
	}

	// The merged results are results like any other.
	storePath := filepath.Join(dir, "merged.db")
	if r := mongobench(t, "merge", runDir, "--store", storePath); r.code != 0 {
		t.Fatalf("merge into a store: exit %d: %s", r.code, r.stderr)
	}
	if r := mongobench(t, "history", "--store", storePath); r.code != 0 || strings.Count(strings.TrimSpace(r.stdout), "\n") != 1 {
		t.Errorf("history of the merged run: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mongobench(t, "report", merged, "-o", filepath.Join(dir, "merged.html")); r.code != 0 {
		t.Errorf("report of the merged run: exit %d: %s", r.code, r.stderr)
	}
	// A part against its own whole is the same work, not two runs.
	if r := mongobench(t, "compare", merged, filepath.Join(runDir, "run-0.json"), "--no-store"); r.code != ExitBadInput || !strings.Contains(r.stderr, "a part of "+merged) {
		t.Errorf("compare of the merged run with its part: exit %d, want %d naming the part: %s", r.code, ExitBadInput, r.stderr)
	}

	// What merge refuses, each in one line, exit 2.
	run := func(i int) string { return filepath.Join(runDir, "run-"+strconv.Itoa(i)+".json") }
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing", []string{}, "no parts given"},
		{"a part missing", []string{run(0), run(2)}, `part 1 is missing of the 3 parts of run "run-`},
		{"a part twice", []string{run(0), run(1), run(2), run(1)}, "is given twice"},
		{"another run", []string{run(0), filepath.Join(dir, "load-1.json")}, "are parts of different runs: run id"},
		{"not a part", []string{merged}, "is not a part of a partitioned run"},
		{"no file", []string{filepath.Join(dir, "none.json")}, "cannot read"},
		{"no parts in a directory", []string{t.TempDir()}, "holds no results files"},
	} {
		r := mongobench(t, append([]string{"merge", "--no-store"}, tt.args...)...)
		if r.code != ExitBadInput || !strings.Contains(r.stderr, tt.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q, want exit %d and one line with %q", tt.name, r.code, r.stderr, ExitBadInput, tt.want)
		}
	}
}

// TestPartFlagsRefused: what cannot be a part of a run is refused before
// anything connects.
func TestPartFlagsRefused(t *testing.T) {
	t.Parallel()
	url := "-p mongodb.url=" + testServer.URI() + "parts"
	for _, tt := range []struct {
		name, args string
		index      string
		want       string
	}{
		{"index out of range", "--part 3/3", "", "--part \"3/3\" is invalid: expected I/N"},
		{"--parts without the index", "--parts 2", "", "--parts 2 needs this process's part: set JOB_COMPLETION_INDEX"},
		{"a bad index", "--parts 2", "2", "JOB_COMPLETION_INDEX=\"2\" is invalid with --parts 2"},
		{"no server to share", "", "0", "needs mongodb.url"},
		{"a bad start", "--start-at tomorrow", "", "--start-at \"tomorrow\" is invalid: expected a time in RFC 3339 form"},
		{"a bad timeout", "--barrier-timeout 0s", "", "--barrier-timeout \"0s\" is invalid"},
		{"a run id with no parts", "--run-id x " + url, "", "--run-id and --barrier-timeout go with --part or --parts"},
		{"too few operations", "--parts 4 -p operationcount=3 " + url, "1", "operationcount=3 cannot be split into 4 parts"},
	} {
		args := append([]string{"run", "mongodb", "-p", "recordcount=10", "-p", "operationcount=10"}, strings.Fields(tt.args)...)
		if tt.name == "no server to share" {
			args = append(args, "--parts", "2")
		}
		getenv := testEnv
		if tt.index != "" {
			i, _ := strconv.Atoi(tt.index)
			getenv = partEnv(i)
		}
		var o, e bytes.Buffer
		code := Main(context.Background(), args, Env{Stdout: &o, Stderr: &e, Getenv: getenv})
		if code != ExitBadInput || !strings.Contains(e.String(), tt.want) || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line with %q", tt.name, code, e.String(), ExitBadInput, tt.want)
		}
	}
}

// TestBarrierTimeoutNamesMissingParts: a part whose peers never come
// fails once --barrier-timeout has passed, naming them, having measured
// nothing.
func TestBarrierTimeoutNamesMissingParts(t *testing.T) {
	t.Parallel()
	var o, e bytes.Buffer
	code := Main(context.Background(), []string{"run", "mongodb", "-p", "recordcount=10", "-p", "operationcount=30",
		"-p", "mongodb.url=" + freshURL(t), "--parts", "3", "--barrier-timeout", "1s", "--no-store"},
		Env{Stdout: &o, Stderr: &e, Getenv: partEnv(1)})
	if code != 1 || !strings.Contains(e.String(), "parts 0, 2 of 3 did not arrive within --barrier-timeout 1s") || o.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
}
