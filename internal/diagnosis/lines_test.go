package diagnosis

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
)

func TestSummaryLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		d    *results.Diagnosis
	}{
		{"several", &results.Diagnosis{
			Verdict: "server CPU",
			Limits: []results.Limit{
				{Kind: "server CPU", Severity: 1.1, Evidence: []string{
					"the server's host CPUs were 98.7% busy (user 70.1%, system 26.0%, steal 2.6%; iowait 0.4% and idle 0.9%), threshold 90.0%",
					"the client and the embedded server, one process, used 61.0% of the 2 CPUs it may use and waited for a CPU 80.2% of the time",
				}},
				{Kind: "disk", Borderline: true, Severity: 0.9, Evidence: []string{"vda was busy 80.0% of the time (threshold 90.0%) with 0.40 requests in flight on average (threshold 2.0), 1121 IOPS at 0.25 ms each"}},
			},
			CannotJudge: []string{"lock queues, WiredTiger cache, connections, network: not reported by this server"},
		}},
		{"none", &results.Diagnosis{
			Verdict: results.NoLimitFound,
			Notes:   []string{"in a closed loop each of the 16 threads waits for its operation: throughput is threads ÷ latency, so more threads would go faster"},
		}},
		{"target", &results.Diagnosis{
			Verdict: Target,
			Limits: []results.Limit{{Kind: Target, Severity: 1.05, Evidence: []string{
				"the run held its -target of 50 ops/s: 50.0 ops/s, 100.0% of it (threshold 95.0%); 0 of 500 operations (0.0%) started over 1 ms late, threshold 50.0%"}}},
			Notes: []string{"host busy with other processes near its limit though the run held its target: the server's host CPUs were 99.6% busy"},
		}},
		{"borderline", &results.Diagnosis{
			Verdict: "server CPU (borderline)",
			Limits:  []results.Limit{{Kind: "server CPU", Borderline: true, Severity: 0.94, Evidence: []string{"the server's host CPUs were 85.0% busy"}}},
		}},
	}
	var all strings.Builder
	for _, tt := range tests {
		all.WriteString("# " + tt.name + "\n")
		for _, l := range SummaryLines(tt.d) {
			all.WriteString(l + "\n")
		}
	}
	golden.Check(t, "diagnosis.golden", all.String())
	if SummaryLines(nil) != nil {
		t.Error("no diagnosis prints lines")
	}
}
