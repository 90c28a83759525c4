package export

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/measure"
)

func writeText(t *testing.T, s *measure.Summary, opts TextOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, s, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// textLines indexes the lines "[metric], measurement, value" by metric and
// measurement.
func textLines(t *testing.T, text string) map[[2]string]string {
	t.Helper()
	m := map[[2]string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		parts := strings.SplitN(l, ", ", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[0], "[") || !strings.HasSuffix(parts[0], "]") {
			t.Fatalf("line %q is not [METRIC], measurement, value", l)
		}
		k := [2]string{strings.Trim(parts[0], "[]"), parts[1]}
		if _, dup := m[k]; dup {
			t.Fatalf("line %q appears twice", l)
		}
		m[k] = parts[2]
	}
	return m
}

func TestWriteTextGolden(t *testing.T) {
	t.Parallel()
	golden.Check(t, "text.golden", []byte(writeText(t, testSummary(t), TextOptions{Service: true, Intended: true})))
}

func TestWriteTextFigures(t *testing.T) {
	t.Parallel()
	lines := textLines(t, writeText(t, testSummary(t), TextOptions{Service: true, Intended: true}))
	tests := []struct {
		metric, measurement, want string
	}{
		{"OVERALL", "RunTime(ms)", "40000"},
		// 2005 operations (CLEANUP is not one) in 40 s.
		{"OVERALL", "Throughput(ops/sec)", "50.125"},
		// Reads of 1..1000 µs: every value has its own bucket.
		{"READ", "Operations", "1000"},
		{"READ", "AverageLatency(us)", "500.5"},
		{"READ", "MinLatency(us)", "1"},
		{"READ", "MaxLatency(us)", "1000"},
		{"READ", "50thPercentileLatency(us)", "500"},
		{"READ", "95thPercentileLatency(us)", "950"},
		{"READ", "99thPercentileLatency(us)", "990"},
		{"READ", "99.9PercentileLatency(us)", "999"},
		{"READ", "99.99PercentileLatency(us)", "1000"},
		{"READ", "Return=OK", "1000"},
		{"READ", "Return=NOT_FOUND", "2"},
		{"READ", "Return=ERROR", "1"},
		// 90000 lies in [89984, 90047]: Max is the top of its bucket. The
		// mean takes the middle of each bucket: 5002 of [5000, 5003], 7002
		// of [7000, 7003], 90016 of [89984, 90047].
		{"READ-FAILED", "MaxLatency(us)", "90047"},
		{"READ-FAILED", "AverageLatency(us)", "34006.666666666664"}, // 102020 / 3
		{"READ-FAILED", "50thPercentileLatency(us)", "7003"},
		{"READ-FAILED", "MinLatency(us)", "5000"},
		// Updates of 2000..2999: from 2048 up buckets are 2 wide.
		{"UPDATE", "MinLatency(us)", "2000"},
		{"UPDATE", "MaxLatency(us)", "2999"},
		{"UPDATE", "50thPercentileLatency(us)", "2499"},
		// 476 pairs (2k, 2k+1) from 2048 up both count as 2k+1: +476 µs.
		{"UPDATE", "AverageLatency(us)", "2499.976"},
		// Every insert failed: the section exists for the status counts,
		// with YCSB's figures for an empty histogram (HdrHistogram 2.1.12's
		// getMean, getMinValue and getMaxValue give 0 for one).
		{"INSERT", "Operations", "0"},
		{"INSERT", "AverageLatency(us)", "0.0"},
		{"INSERT", "MinLatency(us)", "0"},
		{"INSERT", "MaxLatency(us)", "0"},
		{"INSERT", "99thPercentileLatency(us)", "0"},
		{"INSERT", "Return=ERROR", "2"},
		{"INSERT-FAILED", "Operations", "2"},
		{"INSERT-FAILED", "AverageLatency(us)", "350.0"},
		{"CLEANUP", "Return=OK", "1"},
		// Intended latency: the same plus 100 µs.
		{"Intended-READ", "AverageLatency(us)", "600.5"},
		{"Intended-READ", "MinLatency(us)", "101"},
		{"Intended-READ", "MaxLatency(us)", "1100"},
		{"Intended-READ", "50thPercentileLatency(us)", "600"},
	}
	for _, tt := range tests {
		if got, ok := lines[[2]string{tt.metric, tt.measurement}]; !ok || got != tt.want {
			t.Errorf("[%s], %s = %q (present %v), want %q", tt.metric, tt.measurement, got, ok, tt.want)
		}
	}
	for _, absent := range [][2]string{
		{"READ-FAILED", "Return=NOT_FOUND"}, // status counts go under the op's own name
		{"Intended-READ", "Return=OK"},      // and only once
		{"INSERT-FAILED", "Return=ERROR"},
	} {
		if v, ok := lines[absent]; ok {
			t.Errorf("[%s], %s = %q, want no such line", absent[0], absent[1], v)
		}
	}
}

func TestWriteTextOrder(t *testing.T) {
	t.Parallel()
	text := writeText(t, testSummary(t), TextOptions{Service: true, Intended: true})
	var order []string
	for _, l := range strings.Split(text, "\n") {
		name, _, ok := strings.Cut(l, "], ")
		if !ok {
			continue
		}
		name = strings.TrimPrefix(name, "[")
		if len(order) == 0 || order[len(order)-1] != name {
			order = append(order, name)
		}
	}
	want := []string{"OVERALL", "READ", "READ-FAILED", "UPDATE", "INSERT", "INSERT-FAILED", "CLEANUP",
		"Intended-READ", "Intended-READ-FAILED", "Intended-UPDATE", "Intended-INSERT", "Intended-INSERT-FAILED", "Intended-CLEANUP"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("sections %v, want %v", order, want)
	}
	statusAt := strings.Index(text, "[READ], Return=OK")
	if statusAt < strings.Index(text, "[READ], 99.99PercentileLatency(us)") || statusAt > strings.Index(text, "[READ-FAILED]") {
		t.Error("READ's Return lines are not right after its percentiles")
	}
	if strings.Index(text, "Return=NOT_FOUND") < strings.Index(text, "Return=OK") {
		t.Error("Return lines are not in status order")
	}
}

func TestWriteTextIntendedOnly(t *testing.T) {
	t.Parallel()
	s := testSummary(t)
	for i := range s.Measurements {
		s.Measurements[i].Service = nil
	}
	lines := textLines(t, writeText(t, s, TextOptions{Intended: true}))
	// With measurement.interval=intended YCSB names the sections after the
	// operation, and the status counts follow them.
	for k, want := range map[[2]string]string{
		{"READ", "MinLatency(us)"}: "101",
		{"READ", "Return=OK"}:      "1000",
		{"INSERT", "Return=ERROR"}: "2",
	} {
		if got := lines[k]; got != want {
			t.Errorf("[%s], %s = %q, want %q", k[0], k[1], got, want)
		}
	}
	for k := range lines {
		if strings.HasPrefix(k[0], "Intended-") {
			t.Errorf("section %s: want no Intended- prefix", k[0])
		}
	}
}

func TestWriteTextPercentiles(t *testing.T) {
	t.Parallel()
	s := testSummary(t)
	lines := textLines(t, writeText(t, s, TextOptions{Percentiles: []float64{90, 1, 99.9}}))
	for k, want := range map[[2]string]string{
		{"READ", "90thPercentileLatency(us)"}: "900",
		{"READ", "1stPercentileLatency(us)"}:  "10",
		{"READ", "99.9PercentileLatency(us)"}: "999",
	} {
		if got := lines[k]; got != want {
			t.Errorf("[%s], %s = %q, want %q", k[0], k[1], got, want)
		}
	}
	if _, ok := lines[[2]string{"READ", "50thPercentileLatency(us)"}]; ok {
		t.Error("50th percentile printed though not asked for")
	}
	if _, ok := lines[[2]string{"Intended-READ", "Operations"}]; ok {
		t.Error("intended latency printed by default")
	}
}

// TestWriteTextStatusWithoutSection covers a summary that has status counts
// for an operation but no measurement of it.
func TestWriteTextStatusWithoutSection(t *testing.T) {
	t.Parallel()
	s := &measure.Summary{EndNs: 1e9}
	s.Status[db.Delete][db.NotFound] = 4
	lines := textLines(t, writeText(t, s, TextOptions{}))
	if got := lines[[2]string{"DELETE", "Return=NOT_FOUND"}]; got != "4" {
		t.Errorf("Return=NOT_FOUND = %q, want 4", got)
	}
	if got := lines[[2]string{"DELETE", "Operations"}]; got != "0" {
		t.Errorf("Operations = %q, want 0", got)
	}
}

// TestScheduleLagLines: p50, p99 and max of the lag, in that order; none
// without a lag (closed loop).
func TestScheduleLagLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		lag  *hdrhistogram.Histogram
		want []string
	}{
		{"closed loop", nil, nil},
		{"1..1000 µs", hist(t, span(1, 1000, 1)...), []string{
			"[CLIENT], ScheduleLagP50(us), 500",
			"[CLIENT], ScheduleLagP99(us), 990",
			"[CLIENT], ScheduleLagMax(us), 1000",
		}},
		{"no operation", hist(t), []string{
			"[CLIENT], ScheduleLagP50(us), 0",
			"[CLIENT], ScheduleLagP99(us), 0",
			"[CLIENT], ScheduleLagMax(us), 0",
		}},
	}
	for _, tc := range cases {
		got := ScheduleLagLines(&measure.Summary{ScheduleLag: tc.lag})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
