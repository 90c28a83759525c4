package promsink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/runner"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/internal/workload/workloadtest"
)

func TestMain(m *testing.M) { embeddedtest.Main(m) }

// families is one scrape, by metric name.
type families map[string]*dto.MetricFamily

// scrape reads url in the protobuf format, the one that carries native
// histograms.
func scrape(url string) (families, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", string(expfmt.NewFormat(expfmt.TypeProtoDelim)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	dec := expfmt.NewDecoder(resp.Body, expfmt.ResponseFormat(resp.Header))
	out := families{}
	for {
		mf := &dto.MetricFamily{}
		if err := dec.Decode(mf); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		out[mf.GetName()] = mf
	}
}

// find returns the series of name whose labels include want.
func (f families) find(name string, want map[string]string) *dto.Metric {
	mf := f[name]
	if mf == nil {
		return nil
	}
	for _, m := range mf.GetMetric() {
		matched := 0
		for _, lp := range m.GetLabel() {
			if v, ok := want[lp.GetName()]; ok && v == lp.GetValue() {
				matched++
			}
		}
		if matched == len(want) {
			return m
		}
	}
	return nil
}

// counts maps "command op status" to each operations_total series.
func (f families) counts() map[string]float64 {
	out := map[string]float64{}
	for _, m := range f[OperationsName].GetMetric() {
		l := labels(m)
		out[l["command"]+" "+l["op"]+" "+l["status"]] = m.GetCounter().GetValue()
	}
	return out
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, lp := range m.GetLabel() {
		out[lp.GetName()] = lp.GetValue()
	}
	return out
}

// statusCounts maps "command op status" to the counts of status, as
// counts does.
func statusCounts(command string, status *[db.MaxOps][db.NumStatuses]int64) map[string]float64 {
	out := map[string]float64{}
	for op := range status {
		for st, n := range status[op] {
			if n > 0 {
				out[command+" "+db.Op(op).String()+" "+db.Status(st).String()] = float64(n)
			}
		}
	}
	return out
}

// scraper is a sink fed after the endpoint's. The feed hands each interval
// to the sinks in order, so when the scraper gets interval k the endpoint
// has added it: each scrape must show the intervals so far, exactly, with
// no timing involved.
type scraper struct {
	t       *testing.T
	url     string
	command string
	mu      sync.Mutex
	seen    [db.MaxOps][db.NumStatuses]int64
	during  int // scrapes taken while the phase ran
}

func (s *scraper) Open(p bench.Phase) error {
	s.command = p.Command
	return nil
}

func (s *scraper) Interval(u bench.Update) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for op := range u.Interval.Status {
		for st, n := range u.Interval.Status[op] {
			s.seen[op][st] += n
		}
	}
	f, err := scrape(s.url)
	if err != nil {
		s.t.Errorf("scrape during the %s phase: %v", s.command, err)
		return err
	}
	got := map[string]float64{}
	for k, v := range f.counts() {
		if strings.HasPrefix(k, s.command+" ") {
			got[k] = v
		}
	}
	if want := statusCounts(s.command, &s.seen); !sameCounts(got, want) {
		s.t.Errorf("interval %d of %s: the endpoint counts %v, the intervals so far %v", u.Interval.Index, s.command, got, want)
	}
	if r := f.find(RunningName, map[string]string{"command": s.command}); r.GetGauge().GetValue() != 1 {
		s.t.Errorf("interval %d of %s: %s = %v while the phase runs, want 1", u.Interval.Index, s.command, RunningName, r.GetGauge().GetValue())
	}
	s.during++
	return nil
}

func (s *scraper) Close(bool) error { return nil }

func sameCounts(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestEndpointMatchesSummary scrapes the endpoint while a load and then a
// throttled run go against the embedded server, and once each is over:
// every counter and histogram the endpoint serves equals the phase's
// summary.
func TestEndpointMatchesSummary(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", Options{Part: 2, Parts: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	url := embeddedtest.Server().URI() + "promsink"
	client, err := mongo.Open(context.Background(), mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close(context.Background())

	const target = 1000
	props := []string{"recordcount=200", "operationcount=400", "threadcount=4", "readproportion=0.5",
		"updateproportion=0.5", "fieldcount=2", "fieldlength=10", "status.interval=0.1"}
	for _, ph := range []struct {
		command string
		ops     int64
		target  float64
	}{
		{"load", 200, 0},
		{"run", 400, target},
	} {
		extra := []string{}
		if ph.target > 0 {
			extra = append(extra, fmt.Sprintf("target=%v", ph.target))
		}
		s := workloadtest.Spec(t, ph.command == "run", append(props, extra...)...)
		core, err := workload.NewCore(s, s.RecordCount, 1)
		if err != nil {
			t.Fatal(err)
		}
		sc := &scraper{t: t, url: srv.URL()}
		out, err := bench.Run(context.Background(), bench.Config{
			Command: ph.command, Core: core, Spec: s, Client: client, Seed: 1,
			BatchSize: 1, Operations: ph.ops,
		}, srv.Sink(), sc)
		if err != nil {
			t.Fatalf("%s: %v", ph.command, err)
		}
		if len(out.SinkErrors) > 0 {
			t.Errorf("%s: sink errors %v", ph.command, out.SinkErrors)
		}
		if sc.during == 0 {
			t.Errorf("%s: never scraped during the phase", ph.command)
		}
		f, err := scrape(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		checkFinal(t, ph.command, f, out.Summary, ph.target)
	}
}

// checkFinal compares a scrape after a phase with its summary.
func checkFinal(t *testing.T, command string, f families, s *measure.Summary, target float64) {
	t.Helper()
	got := map[string]float64{}
	for k, v := range f.counts() {
		if strings.HasPrefix(k, command+" ") {
			got[k] = v
		}
	}
	if want := statusCounts(command, &s.Status); !sameCounts(got, want) {
		t.Errorf("%s: the endpoint counts %v, the summary %v", command, got, want)
	}
	for _, m := range s.Measurements {
		outcome := "ok"
		if m.Failed {
			outcome = "failed"
		}
		l := map[string]string{"command": command, "op": m.Op.String(), "outcome": outcome}
		checkHistogram(t, command+" "+m.Name+" service", f.find(LatencyName, l), m.Service)
		checkHistogram(t, command+" "+m.Name+" intended", f.find(IntendedLatencyName, l), m.Intended)
	}
	checkHistogram(t, command+" schedule lag", f.find(ScheduleLagName, map[string]string{"command": command}), s.ScheduleLag)
	gauges := []struct {
		name string
		want float64
	}{
		{RunningName, 0},
		{InFlightName, 0},
		{TargetRateName, target},
	}
	for _, g := range gauges {
		if m := f.find(g.name, map[string]string{"command": command}); m == nil || m.GetGauge().GetValue() != g.want {
			t.Errorf("%s: %s = %v, want %v", command, g.name, m.GetGauge().GetValue(), g.want)
		}
	}
	if m := f.find(PartName, map[string]string{"part": "2"}); m.GetGauge().GetValue() != 2 {
		t.Errorf("%s = %v, want 2", PartName, m.GetGauge().GetValue())
	}
	if m := f.find(PartsName, map[string]string{"part": "2"}); m.GetGauge().GetValue() != 4 {
		t.Errorf("%s = %v, want 4", PartsName, m.GetGauge().GetValue())
	}
}

// checkHistogram compares an exposed histogram with the summary's HDR
// histogram: same count, same sum, and the native bucket of each
// percentile holds the HDR histogram's value for it.
func checkHistogram(t *testing.T, what string, m *dto.Metric, want *hdrhistogram.Histogram) {
	t.Helper()
	if want == nil || want.TotalCount() == 0 {
		if m != nil {
			t.Errorf("%s: served, but the summary has none", what)
		}
		return
	}
	if m == nil {
		t.Errorf("%s: not served; the summary has %d values", what, want.TotalCount())
		return
	}
	h := m.GetHistogram()
	if h.GetSampleCount() != uint64(want.TotalCount()) {
		t.Errorf("%s: count %d, summary %d", what, h.GetSampleCount(), want.TotalCount())
	}
	if s := want.Mean() * float64(want.TotalCount()) / 1e6; math.Abs(h.GetSampleSum()-s) > 1e-9*s {
		t.Errorf("%s: sum %v s, summary %v s", what, h.GetSampleSum(), s)
	}
	native := decodeNative(h)
	keys := slices.Sorted(func(yield func(int) bool) {
		for k := range native {
			if !yield(k) {
				return
			}
		}
	})
	for _, q := range []float64{50, 90, 99, 100} {
		v := want.ValueAtQuantile(q)
		// The rank HDR's ValueAtQuantile takes: rounded, at least 1.
		rank := max(int64(q/100*float64(want.TotalCount())+0.5), 1)
		cum := int64(h.GetZeroCount())
		bucket := math.MinInt
		if cum < rank {
			for _, k := range keys {
				cum += native[k]
				if cum >= rank {
					bucket = k
					break
				}
			}
		}
		if v == 0 && bucket != math.MinInt || v > 0 && bucket != nativeIndex(float64(v)/1e6) {
			t.Errorf("%s: p%v is %d µs, in native bucket %d; the served buckets put it in %d", what, q, v, nativeIndex(float64(v)/1e6), bucket)
		}
	}
}

// TestTextExposition: the text format, the one every Prometheus reads,
// of a sink fed two hand-made intervals; golden.
func TestTextExposition(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range gather(t, fedSink(t)) {
		if err := enc.Encode(mf); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, "exposition.txt", buf.String())
}

// fedSink is a sink fed two hand-made intervals of a throttled run, with
// every kind of series: successes and failures, service and intended
// latency, schedule lag.
// fedOptions name the run fedSink's series belong to.
var fedOptions = Options{Part: 1, Parts: 3, RunID: "20261126T020000Z-3f9a", Label: "wiredtiger 8.0", Workload: "workloada"}

func fedSink(t *testing.T) *Sink {
	t.Helper()
	s := New(fedOptions)
	var progress runner.Progress
	if err := s.Open(bench.Phase{Command: "run", Target: 500, Progress: &progress}); err != nil {
		t.Fatal(err)
	}
	hist := func(us ...int64) *hdrhistogram.Histogram {
		h := measure.NewHistogram()
		for _, v := range us {
			_ = h.RecordValue(v)
		}
		return h
	}
	ivs := []*measure.Interval{
		{Index: 0, StartNs: 0, EndNs: int64(time.Second), Operations: 3, Failed: 1,
			Measurements: []measure.Measurement{
				{Name: "READ", Op: db.Read, Service: hist(150, 900), Intended: hist(160, 1200)},
				{Name: "UPDATE-FAILED", Op: db.Update, Failed: true, Service: hist(30_000), Intended: hist(31_000)},
			},
			ScheduleLag: hist(10, 20, 300),
		},
		{Index: 1, StartNs: int64(time.Second), EndNs: int64(1500 * time.Millisecond), Operations: 1,
			Measurements: []measure.Measurement{
				{Name: "READ", Op: db.Read, Service: hist(4000), Intended: hist(4100)},
			},
			ScheduleLag: hist(100),
		},
	}
	ivs[0].Status[db.Read][db.OK] = 2
	ivs[0].Status[db.Update][db.Error] = 1
	ivs[1].Status[db.Read][db.OK] = 1
	for _, iv := range ivs {
		if err := s.Interval(bench.Update{Interval: iv}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// gather is what a registry holding only s serves, checked as strictly
// as the library checks anything.
func gather(t *testing.T, s *Sink) []*dto.MetricFamily {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(s)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	return mfs
}

// TestSeriesNameTheirRun: every series the endpoint serves carries the
// run id, label, workload and part of the run it belongs to, so that one
// Prometheus can hold several runs and a dashboard pick one.
func TestSeriesNameTheirRun(t *testing.T) {
	t.Parallel()
	want := map[string]string{RunIDLabel: fedOptions.RunID, LabelLabel: fedOptions.Label,
		WorkloadLabel: fedOptions.Workload, PartLabel: "1"}
	families := gather(t, fedSink(t))
	series := 0
	for _, mf := range families {
		for _, m := range mf.GetMetric() {
			series++
			got := map[string]string{}
			for _, lp := range m.GetLabel() {
				got[lp.GetName()] = lp.GetValue()
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s %v: label %s is %q, want %q", mf.GetName(), got, k, got[k], v)
				}
			}
		}
	}
	if len(families) < 8 || series < 10 {
		t.Fatalf("only %d families, %d series served", len(families), series)
	}
}
