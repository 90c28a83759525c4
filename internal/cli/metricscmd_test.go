package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// metricsFixture writes two runs' results: a whole run with a live run
// id, and part 1 of 2 of a partitioned run.
func metricsFixture(t *testing.T) (dir, whole, part string) {
	t.Helper()
	dir = t.TempDir()
	w := resultstest.Results(t, resultstest.Spec{Label: "wt 8.0", Throughput: 50, Intended: true,
		LatencyUs: map[string]int64{"READ": 800, "UPDATE": 1500}, Config: map[string]string{"target": "60"}})
	w.RunID = "20260102T030405Z-ab12"
	w.Command = []string{"mongobench", "run", "mongodb", "-P", "workloada", "-target", "60"}
	p := resultstest.Results(t, resultstest.Spec{Throughput: 20, Errors: 2})
	p.Extra = &results.Extra{Part: &results.Part{Index: 1, Count: 2, RunID: "job-uid-1"}}
	whole, part = filepath.Join(dir, "whole.json"), filepath.Join(dir, "part.json")
	for f, r := range map[string]*results.Results{whole: w, part: p} {
		if err := writeResults(f, r); err != nil {
			t.Fatal(err)
		}
	}
	return dir, whole, part
}

// TestMetricsCommand: a finished run's figures come out in the
// OpenMetrics text format, as the live endpoint labels them; -o writes
// the same text to a file.
func TestMetricsCommand(t *testing.T) {
	t.Parallel()
	dir, whole, part := metricsFixture(t)
	r := mongobench(t, "metrics", whole, part)
	if r.code != ExitOK || r.stderr != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden.Check(t, "metrics/two-runs.om", r.stdout)
	if !strings.HasSuffix(r.stdout, "# EOF\n") {
		t.Error("the OpenMetrics text does not end with # EOF")
	}
	out := filepath.Join(dir, "m.om")
	if r := mongobench(t, "metrics", "-o", out, whole, part); r.code != ExitOK || r.stdout != "" {
		t.Fatalf("-o: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != r.stdout {
		t.Errorf("-o wrote other text than standard output (%v)", err)
	}
}

// TestMetricsPush: --push replaces each run's group on a Pushgateway
// (PUT, grouped by instance run_id/part), its body the run's series.
func TestMetricsPush(t *testing.T) {
	t.Parallel()
	_, whole, part := metricsFixture(t)
	var mu sync.Mutex
	pushed := map[string][]*dto.MetricFamily{}
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPut {
			http.Error(w, "want PUT", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(req.Body)
		dec := expfmt.NewDecoder(strings.NewReader(string(body)), expfmt.ResponseFormat(req.Header))
		var mfs []*dto.MetricFamily
		for {
			mf := &dto.MetricFamily{}
			if err := dec.Decode(mf); err != nil {
				break
			}
			mfs = append(mfs, mf)
		}
		mu.Lock()
		pushed[req.URL.Path] = mfs
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	defer gw.Close()
	r := mongobench(t, "metrics", "--push", gw.URL, whole, part)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Count(r.stdout, "pushed ") != 2 {
		t.Errorf("stdout does not say both were pushed:\n%s", r.stdout)
	}
	want := map[string]string{
		"/metrics/job/mongobench/instance@base64/MjAyNjAxMDJUMDMwNDA1Wi1hYjEyL3BhcnQtMA": "20260102T030405Z-ab12",
		"/metrics/job/mongobench/instance@base64/am9iLXVpZC0xL3BhcnQtMQ":                 "job-uid-1",
	}
	for path, runID := range want {
		mfs := pushed[path]
		if len(mfs) == 0 {
			t.Errorf("nothing pushed to %s; pushed to %v", path, keys(pushed))
			continue
		}
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				if got := labelValue(m, "run_id"); got != runID {
					t.Errorf("%s: %s has run_id %q, want %q", path, mf.GetName(), got, runID)
				}
			}
		}
	}
}

func labelValue(m *dto.Metric, name string) string {
	for _, lp := range m.GetLabel() {
		if lp.GetName() == name {
			return lp.GetValue()
		}
	}
	return ""
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestMetricsRefusals: bad input is one line, exit 2, nothing written.
func TestMetricsRefusals(t *testing.T) {
	t.Parallel()
	dir, whole, _ := metricsFixture(t)
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"metrics"}, []string{"no results file given"}},
		{[]string{"metrics", "-o", filepath.Join(dir, "o.om"), "--push", "http://gw:9091", whole}, []string{"keep one"}},
		{[]string{"metrics", "--push", "ftp://gw", whole}, []string{"not a Pushgateway URL", "http://HOST:PORT"}},
		{[]string{"metrics", "--push", "http://u:hunter2@", whole}, []string{"not a Pushgateway URL"}},
		{[]string{"metrics", whole, whole}, []string{`run_id "20260102T030405Z-ab12" part 0 again`}},
		{[]string{"metrics", broken}, []string{"broken.json"}},
		{[]string{"metrics", filepath.Join(dir, "missing.json")}, []string{"cannot read results file"}},
		{[]string{"metrics", "--push", "http://127.0.0.1:1", whole}, []string{"expected a reachable Pushgateway"}},
	}
	for _, tt := range tests {
		refusedUnchanged(t, dir, func() cmdResult {
			r := mongobench(t, tt.args...)
			if strings.Contains(r.stderr, "hunter2") {
				t.Errorf("a password was printed: %s", r.stderr)
			}
			return r
		}, tt.want)
	}
}
