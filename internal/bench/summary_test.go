package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// TestWriteSummaryLines checks the lines after YCSB's, in their order:
// the error stop first, the client's lines with its warning said as they
// are written, the diagnosis, and a phase that found nothing last.
func TestWriteSummaryLines(t *testing.T) {
	t.Parallel()
	s := &measure.Summary{Operations: 100}
	s.Status[db.Read][db.NotFound] = 100
	clientCPU := &results.Diagnosis{Verdict: diagnosis.ClientCPU, Limits: []results.Limit{{Kind: diagnosis.ClientCPU,
		Evidence: []string{"the client used 90.0% of the 1 CPUs it may use, threshold 80.0%"}}}}
	oneCPU := selfmon.Limits{NumCPU: 1, GOMAXPROCS: 1, Allowed: 1}
	e := &Executed{
		Outcome: &Outcome{Summary: s, ErrorStop: &results.ErrorStop{Flag: "--max-error-rate", Limit: 0.25}},
		Observation: Observation{Client: &ClientReport{
			Usage: synthUsage(10*time.Second, 8*time.Second, time.Second, oneCPU, 0), Operations: 100}},
		Results: &results.Results{Extra: &results.Extra{Diagnosis: clientCPU}},
	}
	var b strings.Builder
	e.WriteSummaryLines(&b, func(w string) { b.WriteString("WARN " + w + "\n") })
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"[ERRORS], StoppedBy, --max-error-rate 0.25",
		"[CLIENT], CPUPerOperation(us), 90000.0",
		"[CLIENT], AllowedCPUs, 1",
		"[CLIENT], CPUUtilization(%), 90.0",
		"[CLIENT], ClientBound, true",
		"WARN the run was client-bound and the server figures are understated: the client used 90.0% of the 1 CPUs it may use, threshold 80.0%",
	}
	if len(got) < len(want)+2 {
		t.Fatalf("lines:\n%s", b.String())
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("line %d = %q, want %q", i, got[i], w)
		}
	}
	if !strings.HasPrefix(got[len(want)], "[DIAGNOSIS], ") {
		t.Errorf("after the client's lines %q, want the diagnosis", got[len(want)])
	}
	if last := got[len(got)-1]; !strings.HasPrefix(last, "[WARNING], AllNotFound, ") {
		t.Errorf("last line %q, want the phase that found nothing", last)
	}
}
