package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFindMax: a search whose objective no rate meets halves from -target
// down to 1 operation per second, names each step and exits 99; a search
// beside --vary, or of a load, is refused.
func TestFindMax(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	common := []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=20", "--no-store"}
	dir := filepath.Join(t.TempDir(), "fm")
	r := mongobench(t, append([]string{"sweep"}, append(common, "-p", "operationcount=1000000", "-p", "maxexecutiontime=0.3",
		"-target", "4", "--find-max", "READ:p(99)<1ns", "--out-dir", dir)...)...)
	if r.code != ExitThresholds {
		t.Fatalf("exit %d, want %d: %s%s", r.code, ExitThresholds, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"   1  bracket    4.00  fail: READ intended latency p(99) was ",
		"   2  bracket    2.00  fail: ",
		"   3  bracket    1.00  fail: ",
		"find-max: sustains no rate tried: even 1 ops/s failed at READ:p(99)<1ns (achieved >= 95% of the target, median schedule lag <= 10 ms)\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "   4  b") || !strings.Contains(r.stderr, ": find-max over target × 1 trial;") || strings.Contains(r.stderr, "point 2/") || !strings.Contains(r.stderr, "mongobench: find-max: no rate tried met the objective\n") {
		t.Errorf("want three steps and the failure said:\n%s%s", r.stdout, r.stderr)
	}
	if res := readResults(t, filepath.Join(dir, "p02-target=2-t1.json")); res.Config["target"] != "2" || len(res.Extra.Thresholds) != 1 {
		t.Errorf("the second probe's results: target %q, thresholds %+v", res.Config["target"], res.Extra.Thresholds)
	}

	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--find-max", "READ:p(99)<10ms", "--vary", "threadcount=1,2"}, "--find-max searches -target itself"},
		{[]string{"--find-max", "READ:p(99)<10"}, `--find-max: threshold "READ:p(99)<10"`},
	} {
		r := mongobench(t, append([]string{"sweep"}, append(common, tc.args...)...)...)
		if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.says) {
			t.Errorf("%v: exit %d, %q", tc.args, r.code, r.stderr)
		}
	}
	if r := mongobench(t, "sweep", "load", "mongodb", "-p", "mongodb.url="+url, "--find-max", "INSERT:p(99)<10ms", "--no-store"); r.code != ExitBadInput || !strings.Contains(r.stderr, "use sweep run") {
		t.Errorf("a load's search: exit %d, %q", r.code, r.stderr)
	}
}
