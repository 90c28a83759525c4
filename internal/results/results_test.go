package results

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/measure"
)

var testMeta = Meta{
	Tool:    Tool{Name: "mongobench", Version: "0.1.0"},
	Command: []string{"mongobench", "run", "mongodb", "-s", "-P", "workloads/workloada", "-p", "mongodb.url=mongodb://user:***@h:27017/ycsb"},
	Label:   "trial-1",
	Phase:   PhaseRun,
	Config:  map[string]string{"threadcount": "16", "recordcount": "1000", "workload": "site.ycsb.workloads.CoreWorkload"},
	Extra:   &Extra{Client: &Client{HostCPUs: 2, AllowedCPUs: 2}},
}

func testResults(t *testing.T) *Results {
	t.Helper()
	r, err := NewResults(testSummary(t), testMeta)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func jsonOf(t *testing.T, r *Results) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestResultsGolden(t *testing.T) {
	t.Parallel()
	golden.Check(t, "results.golden.json", jsonOf(t, testResults(t)))
}

func TestResultsFigures(t *testing.T) {
	t.Parallel()
	r := testResults(t)
	if r.FormatVersion != FormatVersion || r.Phase != "run" || r.RuntimeMs != 40000 || r.Operations != 2005 || r.ThroughputOpsSec != 50.125 {
		t.Errorf("header: version %d phase %q runtime %d ops %d throughput %v",
			r.FormatVersion, r.Phase, r.RuntimeMs, r.Operations, r.ThroughputOpsSec)
	}
	if !r.Start.Equal(testStart) || r.End.Sub(r.Start) != 40*time.Second+987 {
		t.Errorf("start %v end %v", r.Start, r.End)
	}
	read := r.Measurements[0]
	if read.Name != "READ" || read.Op != "READ" || read.Failed {
		t.Fatalf("first measurement %+v, want READ", read)
	}
	s := read.Service
	want := map[string]int64{"50": 500, "90": 900, "95": 950, "99": 990, "99.9": 999, "99.99": 1000}
	if s.Count != 1000 || s.MeanUs != 500.5 || s.MinUs != 1 || s.MaxUs != 1000 || len(s.PercentilesUs) != len(want) {
		t.Errorf("READ service %+v", s)
	}
	for k, v := range want {
		if s.PercentilesUs[k] != v {
			t.Errorf("READ p%s = %d, want %d", k, s.PercentilesUs[k], v)
		}
	}
	if read.Intended == nil || read.Intended.MinUs != 101 {
		t.Errorf("READ intended %+v, want min 101", read.Intended)
	}
	// The all-failed INSERT keeps its (empty) section, without NaN.
	ins := r.Measurements[3]
	if ins.Name != "INSERT" || ins.Service.Count != 0 || ins.Service.MeanUs != 0 || ins.Service.Histogram == "" {
		t.Errorf("INSERT %+v", ins.Service)
	}
	if got := r.Status["READ"]; got["OK"] != 1000 || got["NOT_FOUND"] != 2 || got["ERROR"] != 1 || len(got) != 3 {
		t.Errorf("READ status %v", got)
	}
	if len(r.Intervals) != 2 || r.Intervals[1].StartS != 20 || r.Intervals[1].Operations != 1005 ||
		r.Intervals[0].Measurements[0].Service.PercentilesUs["50"] != 250 {
		t.Errorf("intervals %+v", r.Intervals)
	}
	if r.Intervals[0].Measurements[0].Service.Histogram != "" {
		t.Error("interval carries a whole histogram")
	}
}

// TestResultsRoundTrip reads a results file back: histograms decode to the
// very histograms recorded, and the text summary is the same.
func TestResultsRoundTrip(t *testing.T) {
	t.Parallel()
	orig := testSummary(t)
	r, err := ReadJSON(bytes.NewReader(jsonOf(t, testResults(t))))
	if err != nil {
		t.Fatal(err)
	}
	back, err := r.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Measurements) != len(orig.Measurements) {
		t.Fatalf("%d measurements, want %d", len(back.Measurements), len(orig.Measurements))
	}
	for i, m := range orig.Measurements {
		b := back.Measurements[i]
		if b.Name != m.Name || b.Op != m.Op || b.Failed != m.Failed {
			t.Errorf("measurement %d: %s/%v/%v, want %s/%v/%v", i, b.Name, b.Op, b.Failed, m.Name, m.Op, m.Failed)
		}
		if !b.Service.Equals(m.Service) || !b.Intended.Equals(m.Intended) {
			t.Errorf("%s: decoded histograms differ from the recorded ones", m.Name)
		}
	}
	if !back.ScheduleLag.Equals(orig.ScheduleLag) {
		t.Error("decoded schedule lag differs from the recorded one")
	}
	if back.Status != orig.Status || back.Operations != orig.Operations || back.Runtime() != orig.Runtime() {
		t.Error("status counts, operations or runtime differ")
	}
	opts := export.TextOptions{Service: true, Intended: true}
	if got, want := writeText(t, back, opts), writeText(t, orig, opts); got != want {
		t.Errorf("text summary from the results file differs:\n%s\nwant\n%s", got, want)
	}
	if got := jsonOf(t, mustResults(t, back, r)); !bytes.Equal(got, jsonOf(t, r)) {
		t.Error("results rebuilt from the read summary differ from the file")
	}
}

func mustResults(t *testing.T, s *measure.Summary, like *Results) *Results {
	t.Helper()
	r, err := NewResults(s, Meta{Tool: like.Tool, Command: like.Command, Label: like.Label, Phase: like.Phase,
		Config: like.Config, Partial: like.Partial, Extra: like.Extra})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewResultsRejectsPhase(t *testing.T) {
	t.Parallel()
	if _, err := NewResults(testSummary(t), Meta{Phase: "warmup"}); err == nil || !strings.Contains(err.Error(), "phase") {
		t.Errorf("err = %v, want an error naming the phase", err)
	}
}

// TestReadJSONErrors gives ReadJSON damaged and edited results files: each
// is refused when read, saying what is wrong, before any figure of it is
// used.
func TestReadJSONErrors(t *testing.T) {
	t.Parallel()
	valid := string(jsonOf(t, testResults(t)))
	// edited returns the valid file with its first measurement changed.
	edited := func(edit func(m *MeasurementResult)) string {
		r := testResults(t)
		edit(&r.Measurements[0])
		return string(jsonOf(t, r))
	}
	flip := func(enc string, at int) string {
		b := []byte(enc)
		if b[at] == 'A' {
			b[at] = 'B'
		} else {
			b[at] = 'A'
		}
		return string(b)
	}
	tests := []struct{ name, input, want string }{
		{"not JSON", "hello", "read results"},
		{"cut short", valid[:len(valid)/2], "unexpected EOF"},
		{"future version", strings.Replace(valid, `"format_version": 2`, `"format_version": 3`, 1), "format_version 3"},
		{"no version", `{"phase": "run"}`, "format_version 0"},
		{"unknown op (not a name a summary can print)", strings.Replace(valid, `"op": "UPDATE"`, `"op": "UP SERT"`, 1), `unknown operation "UP SERT"`},
		{"unknown status", strings.Replace(valid, `"NOT_FOUND": 2`, `"MISSING": 2`, 1), `unknown status "MISSING"`},
		{"negative status count", strings.Replace(valid, `"NOT_FOUND": 2`, `"NOT_FOUND": -2`, 1), "negative count"},
		{"negative operations", strings.Replace(valid, `"operations": `, `"operations": -`, 1), "negative operations"},
		{"histogram not base64", strings.Replace(valid, `"histogram": "`, `"histogram": "!!`, 1), "decode histogram"},
		{"histogram cut in half", edited(func(m *MeasurementResult) { m.Service.Histogram = m.Service.Histogram[:len(m.Service.Histogram)/2] }), "decode histogram"},
		{"histogram empty", edited(func(m *MeasurementResult) { m.Service.Histogram = "" }), "no histogram"},
		{"histogram's compressed bytes flipped", edited(func(m *MeasurementResult) { m.Service.Histogram = flip(m.Service.Histogram, 40) }), "histogram"},
		{"count disagrees", strings.Replace(valid, `"count": 1000,`, `"count": 999,`, 1), "count says 999"},
		{"min edited", edited(func(m *MeasurementResult) { m.Service.MinUs-- }), "figures say"},
		{"max edited", edited(func(m *MeasurementResult) { m.Service.MaxUs++ }), "figures say"},
		{"p99 edited", edited(func(m *MeasurementResult) { m.Service.PercentilesUs["99"] /= 2 }), "p99"},
		{"intended histogram of another measurement", edited(func(m *MeasurementResult) {
			other := testResults(t).Measurements[1].Service
			m.Intended = other
			m.Intended.Count = m.Service.Count
		}), "intended latency"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadJSON(strings.NewReader(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func FuzzReadJSON(f *testing.F) {
	var b bytes.Buffer
	s := &measure.Summary{EndNs: 1e9, Operations: 1}
	s.Status[0][0] = 1
	s.Measurements = []measure.Measurement{{Name: "READ", Service: measure.NewHistogram()}}
	_ = s.Measurements[0].Service.RecordValue(42)
	r, err := NewResults(s, Meta{Phase: PhaseRun})
	if err != nil {
		f.Fatal(err)
	}
	if err := WriteJSON(&b, r); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"format_version":1,"measurements":[{"name":"X","op":"READ","service":{"count":0,"histogram":"HISTFAAAAB"}}]}`))
	f.Add([]byte(`{"format_version":1,"status":{"READ":{"OK":-1}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		s, err := r.Summary()
		if err != nil {
			return
		}
		// Whatever a file holds, printing and re-encoding it must not panic.
		var out bytes.Buffer
		if err := export.WriteText(&out, s, export.TextOptions{Service: true, Intended: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := NewResults(s, Meta{Phase: PhaseRun}); err != nil && !strings.Contains(err.Error(), "histogram") {
			t.Fatal(err)
		}
	})
}
