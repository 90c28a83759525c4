package report

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

// measured is a run that counted n operations of each op given.
func measured(ops ...string) *results.Results {
	r := &results.Results{Phase: results.PhaseRun}
	for _, op := range ops {
		r.Measurements = append(r.Measurements, results.MeasurementResult{Name: op, Op: op, Service: &results.LatencyResult{Count: 10}})
	}
	return r
}

func TestRateUnitOf(t *testing.T) {
	t.Parallel()
	failedRead := measured("INSERT")
	failedRead.Measurements = append(failedRead.Measurements, results.MeasurementResult{Name: "READ-FAILED", Op: "READ", Failed: true, Service: &results.LatencyResult{Count: 3}})
	for _, tc := range []struct {
		name string
		runs []*results.Results
		want rateUnit
	}{
		{"loads, one by one and batched", []*results.Results{measured("INSERT"), measured("INSERT", "INSERT-BATCH")}, docsUnit},
		{"a load beside a run of reads", []*results.Results{measured("INSERT"), measured("READ")}, opsUnit},
		{"a mix with inserts", []*results.Results{measured("READ", "INSERT")}, opsUnit},
		{"failed reads beside inserts count no read", []*results.Results{failedRead}, docsUnit},
		{"no runs", nil, opsUnit},
	} {
		if got := rateUnitOf(tc.runs); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := docsUnit.format(1234.4); got != "1,234 docs/s" {
		t.Errorf("docs/s formatted as %q", got)
	}
}

// TestStudyOfInsertsInDocs: an insert study (002's sessions × goroutines
// matrix) states its throughput in documents per second on the chart,
// its caption and the pivot table, as the field report does; any other
// study in operations per second.
func TestStudyOfInsertsInDocs(t *testing.T) {
	t.Parallel()
	in := studyInput()
	for _, s := range in.Study.Series {
		for _, p := range s.Points {
			for _, r := range p.Runs {
				*r = *measured("INSERT", "INSERT-BATCH")
			}
		}
	}
	page := section(render(t, in), "study")
	for _, want := range []string{">documents per second<", "Throughput (docs/s)", " docs/s, "} {
		if !strings.Contains(page, want) {
			t.Errorf("the insert study lacks %q", want)
		}
	}
	if strings.Contains(page, "ops/s") || strings.Contains(page, "operations per second") {
		t.Errorf("the insert study speaks of operations")
	}
	if page := section(render(t, studyInput()), "study"); !strings.Contains(page, "Throughput (ops/s)") || strings.Contains(page, "docs/s") {
		t.Errorf("a study of reads speaks of documents")
	}
}
