package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mongobench/mongobench/internal/pagecheck"
	"github.com/mongobench/mongobench/internal/results"
)

// The rendering check opens a report in headless Chromium, as a reader
// would (see the pagecheck package).
func TestChromiumRendersReport(t *testing.T) {
	t.Parallel()
	bin := pagecheck.Browser(t)
	// One browser at a time: each is several processes, and CI machines
	// are small.
	t.Run("synthetic", func(t *testing.T) {
		// Everything a report can hold: a sweep with a knee, a comparison, a
		// partial run, and a run with intended latency, failures and metrics.
		in := sweepInput(t)
		in.Runs = append(in.Runs, singleInput(t).Runs[0])
		pagecheck.Check(t, bin, render(t, in), "report-screenshot.png")
	})
	t.Run("real run", func(t *testing.T) {
		// What a real run writes, which fixtures may miss: testdata/real-run.json
		// is the results file of
		//   mongobench run -P workloada -p recordcount=2000 -p operationcount=100000000 \
		//     -p maxexecutiontime=6 -p status.interval=1 -threads 4 -l real-run --out real-run.json --no-store
		// against the embedded server, with its host metrics.
		f, err := os.Open(filepath.Join("testdata", "real-run.json"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		res, err := results.ReadJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Intervals) < 5 || res.Extra == nil || res.Extra.HostMetrics == nil {
			t.Fatalf("testdata/real-run.json has %d intervals and host metrics %t: regenerate it as above", len(res.Intervals), res.Extra != nil && res.Extra.HostMetrics != nil)
		}
		pagecheck.Check(t, bin, render(t, &Input{Runs: []*results.Results{res}, Generated: fixedGenerated}), "real-run-screenshot.png")
	})
}
