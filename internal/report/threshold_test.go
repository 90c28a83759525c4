package report

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

// TestThresholds: each threshold of a run is a row of its section with
// the figure observed and its outcome; failures are named in a banner,
// and a run that a threshold ended says so rather than that a signal did.
func TestThresholds(t *testing.T) {
	t.Parallel()
	p99, tput := 7213.0, 1834.56
	in := singleInput(t)
	r := in.Runs[0]
	r.Extra.Thresholds = []results.Threshold{
		{Threshold: "READ:p(99)<5ms", Latency: "intended", Observed: &p99, Unit: "us", Reason: "READ intended latency p(99) was 7.213ms, not <5ms"},
		{Threshold: "OVERALL:throughput>1000", Observed: &tput, Unit: "ops/s", Pass: true},
		{Threshold: "SCAN:p(99)<1s", Latency: "intended", Unit: "us", Reason: "SCAN intended latency p(99): the run has no data for it, which fails a threshold", AbortedAtS: 4},
	}
	r.Partial = true
	page := render(t, in)
	for _, want := range []string{
		"<h3>Thresholds</h3>",
		`<tr><td class="text"><code>READ:p(99)&lt;5ms</code></td><td class="text">intended</td><td>7.213ms</td><td class="text"><span class="worse">fail</span> READ intended latency p(99) was 7.213ms, not &lt;5ms</td></tr>`,
		`<tr><td class="text"><code>OVERALL:throughput&gt;1000</code></td><td class="text"></td><td>1834.6 ops/s</td><td class="text"><span class="better">pass</span></td></tr>`,
		`<td>no data</td>`,
		"failed 2 of its 3 thresholds: READ:p(99)&lt;5ms, SCAN:p(99)&lt;1s.",
		"was ended after 4 s by a threshold with abortOnFail",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "was interrupted before its end") {
		t.Error("the page says a run ended by a threshold was interrupted")
	}
}
