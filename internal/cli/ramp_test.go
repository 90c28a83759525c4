package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStages: a ramp does the operations its stages schedule, whatever
// operationcount says, open loop (intended latency measured); a ramp that
// schedules nothing, or beside -target, is bad input.
func TestStages(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	common := []string{"mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=50", "--no-store"}
	if r := mongobench(t, append([]string{"load"}, common...)...); r.code != 0 {
		t.Fatalf("load: exit %d: %s", r.code, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "ramp.json")
	// 0 → 100/s over 0.4 s (20 operations), 100/s for 0.2 s (20 more).
	r := mongobench(t, append([]string{"run"}, append(common, "-p", "operationcount=5", "--stages", "400ms:100,200ms:100", "--out", out)...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	if got := s.int(t, "READ", "Operations"); got != 40 {
		t.Errorf("READ operations %d, want the ramp's 40", got)
	}
	if _, ok := s["Intended-READ"]; !ok {
		t.Errorf("no intended latency in a ramp's summary")
	}
	res := readResults(t, out)
	if res.Config["stages"] != "400ms:100,200ms:100" || res.Operations != 40 || res.ScheduleLag == nil {
		t.Errorf("results: stages %q, %d operations, schedule lag %v", res.Config["stages"], res.Operations, res.ScheduleLag != nil)
	}
	// operationcount=0 (no limit) is no endless run: the ramp ends it.
	r = mongobench(t, append([]string{"run"}, append(common, "-p", "operationcount=0", "--stages", "200ms:100")...)...)
	if r.code != 0 || parseSummary(t, r.stdout).int(t, "READ", "Operations") != 10 {
		t.Errorf("operationcount=0 and a ramp of 10 operations: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--stages", "1s:0,2s:0"}, "every stage's rate is 0"},
		{[]string{"--stages", "1s"}, "has no ':'"},
		{[]string{"--stages", "-1s:10"}, "not a positive duration"},
		{[]string{"--stages", "1s:10", "-target", "10"}, "no -target beside it"},
	} {
		r := mongobench(t, append([]string{"run"}, append(common, tc.args...)...)...)
		if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.says) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", tc.args, r.code, r.stderr, tc.says)
		}
	}
}
