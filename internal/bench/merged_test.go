package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestWriteMergedSummary: the merged run's summary, then its parts'
// lines with the start skew to the microsecond.
func TestWriteMergedSummary(t *testing.T) {
	t.Parallel()
	res := resultstest.Results(t, resultstest.Spec{Throughput: 1000})
	if res.Extra == nil {
		res.Extra = &results.Extra{}
	}
	res.Extra.Merged = &results.Merged{RunID: "20260301-000000-ab12", Parts: 3, StartSkewMs: 12.3456}
	var out bytes.Buffer
	if err := WriteMergedSummary(&out, res); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"[OVERALL], Throughput(ops/sec), 1000.0\n",
		"[READ], Operations, 10000\n", "[READ], 99.99PercentileLatency(us), 1990\n",
		"[PARTS], Parts, 3\n[PARTS], StartSkew(ms), 12.346\n[PARTS], RunID, 20260301-000000-ab12\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "[PARTS], RunID, 20260301-000000-ab12\n") {
		t.Errorf("the parts' lines are not last:\n%s", got)
	}
}
