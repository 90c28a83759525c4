package cli

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/texttable"
)

// TestHistoryChanges: history --changes names the run where a step of
// 10% in throughput began, and how far it moved, in a configuration whose
// runs carry 5% noise; another configuration in the same store (other
// work: another read share), flat, gives none; a partial run is left out.
func TestHistoryChanges(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 42))
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var runs []*results.Results
	add := func(label string, tp float64, readprop string, partial bool) {
		r := resultstest.Results(t, resultstest.Spec{Label: label, Throughput: tp, Config: map[string]string{"threadcount": "1", "readproportion": readprop}})
		r.Start = start.Add(time.Duration(len(runs)) * time.Hour)
		r.End = r.Start.Add(10 * time.Second)
		r.Partial = partial
		runs = append(runs, r)
	}
	noisy := func(level float64) float64 { return level * (1 + 0.05*(2*rng.Float64()-1)) }
	// Ids: nightly runs are 1..30 at odd-even turns with flat runs, so
	// the nightly series' 16th run (the first at 900) is id 31.
	for i := range 30 {
		level := 1000.0
		if i >= 15 {
			level = 900
		}
		add("nightly", noisy(level), "0.5", false)
		add("flat", noisy(1000), "0.95", false)
	}
	add("nightly", 10, "0.5", true) // cut short: not a change
	path := filepath.Join(t.TempDir(), "h.db")
	saveRuns(t, path, runs...)

	r := mongobench(t, "history", "--changes", "--store", path)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	sections := strings.Split(r.stdout, "\n\n")
	if len(sections) != 2 {
		t.Fatalf("want one section per configuration:\n%s", r.stdout)
	}
	nightly, flat := sections[0], sections[1]
	if !strings.HasPrefix(nightly, "run phase, label nightly (readproportion=0.5): 30 runs, run 1 (2026-03-01 00:00) to run 59 (2026-03-03 10:00)\n") {
		t.Errorf("nightly heading:\n%s", nightly)
	}
	lines := strings.Split(nightly, "\n")
	var found []string
	for _, l := range lines {
		if strings.HasPrefix(l, "throughput") || strings.HasPrefix(l, "READ") {
			found = append(found, strings.Join(strings.Fields(l), " "))
		}
	}
	// The 16th nightly run is id 31; before and after are the means of
	// the nightly runs on either side.
	var before, after float64
	for i := 0; i < 60; i += 2 {
		if i < 30 {
			before += runs[i].ThroughputOpsSec / 15
		} else {
			after += runs[i].ThroughputOpsSec / 15
		}
	}
	want := strings.Join([]string{"throughput run 31", texttable.Figure(before, "ops/s"), texttable.Figure(after, "ops/s"), texttable.Percent(after/before - 1), "0.005"}, " ")
	if len(found) != 1 || found[0] != want {
		t.Errorf("nightly changes %q, want %q:\n%s", found, want, nightly)
	}
	if rel := after/before - 1; rel > -0.07 || rel < -0.13 {
		t.Errorf("the step measured %+.3f: the series is not the 10%% step it was built as", rel)
	}
	if !strings.Contains(nightly, "no significant change in: READ p99 (us)") {
		t.Errorf("nightly: the steady p99 not named:\n%s", nightly)
	}
	if !strings.Contains(flat, "no significant change in: throughput, READ p99 (us)") || strings.Contains(flat, "change at") {
		t.Errorf("flat configuration:\n%s", flat)
	}
	if !strings.Contains(r.stderr, "1 run left out: partial runs") {
		t.Errorf("stderr: %s", r.stderr)
	}

	// A label selects one configuration; --limit the newest runs of it.
	r = mongobench(t, "history", "--changes", "--store", path, "--label", "flat", "--limit", "8")
	if r.code != 0 || strings.Contains(r.stdout, "nightly") || !strings.Contains(r.stdout, "8 runs") || !strings.Contains(r.stdout, "note: 8 runs are too few") {
		t.Errorf("--label flat --limit 8: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
