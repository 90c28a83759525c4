package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// TestWarmup runs with a warm-up: its operations are reported apart and the
// summary holds exactly operationcount operations.
func TestWarmup(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadd", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	out := filepath.Join(t.TempDir(), "w.json")
	r := mongobench(t, "run", "mongodb", "-P", "workloadd", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=300", "--warmup", "1s", "--out", out)
	if r.code != 0 {
		t.Fatalf("run: %s", r.stderr)
	}
	s := parseSummary(t, r.stdout)
	reads, inserts := s.int(t, "READ", "Operations"), s.int(t, "INSERT", "Operations")
	if reads+inserts != 300 {
		t.Errorf("summary: %d reads + %d inserts, want 300 operations after the warm-up", reads, inserts)
	}
	res := readResults(t, out)
	if res.Extra == nil || res.Extra.Warmup == nil || res.Extra.Warmup.Operations == 0 || res.Extra.Warmup.Seconds < 0.9 {
		t.Fatalf("results extra %+v: want a warm-up of operations > 0 over about 1 s", res.Extra)
	}
	w := res.Extra.Warmup
	// The stderr line says what the results file holds.
	var parts []string
	for _, op := range []string{"READ", "INSERT"} {
		if p99, ok := w.P99us[op]; ok {
			parts = append(parts, fmt.Sprintf("%s p99 %d us", op, p99))
		}
	}
	line := fmt.Sprintf("mongobench: warm-up: %d operations in %.1f s (%.0f ops/s; %s), left out of the summary\n",
		w.Operations, w.Seconds, float64(w.Operations)/w.Seconds, strings.Join(parts, ", "))
	if len(parts) == 0 || !strings.Contains(r.stderr, line) {
		t.Errorf("stderr lacks the warm-up line %q:\n%s", line, r.stderr)
	}
	// Inserts of the measured phase continue after the warm-up's: every
	// insert of both phases succeeded, none collided.
	if s.int(t, "INSERT", "Return=OK") != inserts {
		t.Errorf("inserts after the warm-up collided: %d OK of %d", s.int(t, "INSERT", "Return=OK"), inserts)
	}
}

// TestWarmupCountsAddUp checks, against the server's own count, that every
// operation is either the warm-up's or the summary's, and that the HDR
// interval logs hold exactly the summary's histogram, warm-up left out. All
// operations are inserts, so the collection counts them.
func TestWarmupCountsAddUp(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadd", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	dir := t.TempDir()
	out, prefix := filepath.Join(dir, "w.json"), filepath.Join(dir, "hdr-")
	r := mongobench(t, "run", "mongodb", "-P", "workloadd", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "readproportion=0", "-p", "insertproportion=1", "-p", "operationcount=400", "-p", "status.interval=1",
		"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+prefix, "--warmup", "1s", "--out", out)
	if r.code != 0 {
		t.Fatalf("run: %s", r.stderr)
	}
	res := readResults(t, out)
	if res.Extra == nil || res.Extra.Warmup == nil || res.Extra.Warmup.Operations == 0 {
		t.Fatalf("results extra %+v: want a warm-up of operations > 0", res.Extra)
	}
	w := res.Extra.Warmup
	if res.Extra.Sizes == nil || res.Extra.Sizes.End == nil {
		t.Fatalf("no sizes in the results: %+v", res.Extra)
	}
	sizes := res.Extra.Sizes
	// An insert cut short when the warm-up's time ran out is counted
	// nowhere, though the server may have done it.
	docs, ok := sizes.End.Coll.Documents.Get()
	if want := float64(100 + w.Operations + 400); !ok || docs < want || docs > want+float64(w.Abandoned) {
		t.Errorf("collection holds %v documents (reported %v); want 100 loaded + %d warm-up + 400 measured = %v, plus up to %d abandoned at the warm-up's end",
			docs, ok, w.Operations, want, w.Abandoned)
	}

	var insert *results.MeasurementResult
	for i := range res.Measurements {
		if res.Measurements[i].Name == "INSERT" {
			insert = &res.Measurements[i]
		}
	}
	if insert == nil || insert.Service == nil || insert.Service.Count != 400 {
		t.Fatalf("results INSERT measurement %+v: want 400 operations", insert)
	}
	summary, err := hdrhistogram.Decode([]byte(insert.Service.Histogram))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(prefix + "INSERT.hdr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	logged := measure.NewHistogram()
	reader := hdrhistogram.NewHistogramLogReader(f)
	intervals := 0
	for {
		h, err := reader.NextIntervalHistogram()
		if err == io.EOF || (err == nil && h == nil) {
			break
		}
		if err != nil {
			t.Fatalf("INSERT.hdr: %v", err)
		}
		logged.Merge(h)
		intervals++
	}
	if intervals == 0 || !logged.Equals(summary) {
		t.Errorf("INSERT.hdr: %d intervals add up to %d values (p99 %d us, max %d us); the summary has %d (p99 %d us, max %d us)",
			intervals, logged.TotalCount(), logged.ValueAtQuantile(99), logged.Max(),
			summary.TotalCount(), summary.ValueAtQuantile(99), summary.Max())
	}
	if p99 := parseSummary(t, r.stdout).int(t, "INSERT", "99thPercentileLatency(us)"); p99 != logged.ValueAtQuantile(99) {
		t.Errorf("summary p99 %d us, the HDR log's %d us", p99, logged.ValueAtQuantile(99))
	}
}
