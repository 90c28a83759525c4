package calibrate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/golden"
)

// fixedReport is a calibration as Run would return it, with figures chosen
// so that one goal holds, one does not and the rest are not measured.
func fixedReport() *Report {
	fig := func(ops, cpu, user, server float64, p50, p99 int64, rssMiB, util float64) Figures {
		return Figures{
			Operations: 100_000, Seconds: 100_000 / ops, OpsPerSec: ops,
			CPUPerOpUs: cpu, UserPerOpUs: user, SystemPerOpUs: cpu - user, ServerCPUPerOpUs: server,
			P50Us: p50, P99Us: p99, PeakRSSBytes: int64(rssMiB * (1 << 20)), Utilization: util,
		}
	}
	r := &Report{
		Workload: "workloadc", Operations: 100_000, RecordCount: 20_000, FieldCount: 10, FieldLength: 100, Repeats: 3,
		Server: ServerChild, ServerURI: "mongodb://127.0.0.1:40123/?directConnection=true",
		Host:  Host{CPUs: 2, GOMAXPROCS: 2, AllowedCPUs: 2, GoVersion: "go1.26.0", OS: "linux", Arch: "amd64", DriverVersion: "v2.9.3"},
		Start: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		End:   time.Date(2025, 3, 1, 12, 1, 30, 0, time.UTC),
	}
	for _, s := range []struct {
		threads        int
		mb, lean, bare Figures
	}{
		{1, fig(9306, 62.5, 40.1, 30.2, 95, 180, 28.1, 0.45), fig(20100, 20, 12, 30.1, 45, 90, 20.5, 0.4), fig(11002, 50, 31, 29.9, 80, 150, 22.4, 0.42)},
		{16, fig(41234.6, 25.4, 17, 18.5, 350, 1200, 35.2, 0.97), fig(80000, 12.1, 8, 18.2, 180, 600, 26, 0.98), fig(43001, 23.1, 15.2, 18.1, 330, 1100, 30, 0.96)},
	} {
		mb, lean, bare := s.mb, s.lean, s.bare
		pct := 100 * (mb.CPUPerOpUs/bare.CPUPerOpUs - 1)
		lpct := 100 * (lean.CPUPerOpUs/bare.CPUPerOpUs - 1)
		r.Sweep = append(r.Sweep, Point{
			Name: "workloadc", Phase: "run", Threads: s.threads, Mongobench: mb, Lean: &lean, Bare: &bare,
			OverheadPct: &pct, LeanOverheadPct: &lpct,
			MongobenchTrials: []Figures{mb}, LeanTrials: []Figures{lean}, BareTrials: []Figures{bare},
		})
	}
	r.LeanFallbacks = []string{"scan: a cursor over several batches is the driver's"}
	wa := fig(30500, 31.2, 20, 22, 420, 1500, 36, 0.98)
	wa.Failed = 3
	load := fig(20100, 44.9, 30, 25, 700, 2500, 40, 0.99)
	r.Extras = []Point{
		{Name: "workloada", Phase: "run", Threads: 16, Mongobench: wa, MongobenchTrials: []Figures{wa}},
		{Name: "load batchsize=1", Phase: "load", Threads: 16, BatchSize: 1, Mongobench: load, MongobenchTrials: []Figures{load}},
	}
	closed := fig(38000, 40, 26, 20, 95, 300, 30, 0.9)
	closed.Operations, closed.Seconds = 20_000, 20_000.0/38000
	open := fig(2000, 52, 33, 21, 80, 250, 30, 0.05)
	open.Operations, open.Seconds, open.LagP50Us, open.LagP99Us = 20_000, 10, 12, 410
	r.OpenLoop = &OpenLoop{
		Threads: 4, Target: 2000, Operations: 20_000, Path: "driver", Closed: closed, Open: open, Ratio: 52.0 / 40,
		ClosedTrials: []Figures{closed}, OpenTrials: []Figures{open},
	}
	r.finish()
	r.End = time.Date(2025, 3, 1, 12, 1, 30, 0, time.UTC)
	return r
}

func TestWriteReportGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteReport(&b, fixedReport()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "report.golden", b.Bytes())
}

func TestWriteJSONGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteJSON(&b, fixedReport()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "report.golden.json", b.Bytes())
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Sweep) != 2 || *back.Sweep[1].OverheadPct != *fixedReport().Sweep[1].OverheadPct {
		t.Errorf("JSON does not read back: %+v", back)
	}
}

func TestGoals(t *testing.T) {
	t.Parallel()
	r := fixedReport()
	verdicts := map[string]string{}
	for _, g := range r.Goals {
		v := "not measured"
		if g.Measured {
			v = map[bool]string{true: "holds", false: "does not hold"}[g.Holds]
		}
		verdicts[g.Name] = v
	}
	want := map[string]string{
		// 25.4 / 23.1 = 1.10
		"CPU/op at 16 threads ≤ 1.2× the bare driver loop": "holds",
		// 62.5 / 50 = 1.25
		"CPU/op at 1 thread ≤ 1.2× the bare driver loop": "does not hold",
		// 31.2 / 25.4 = 1.23
		"workloada CPU/op at 16 threads ≤ 1.5× the 16-thread workloadc figure": "holds",
		// 44.9 / 25.4 = 1.77
		"load batchsize=1 CPU/op at 16 threads ≤ 1.5× the 16-thread workloadc figure": "does not hold",
		"peak RSS ≤ 100 MiB at 1000 threads":                                          "not measured",
		// 12.1 / 23.1 = 0.52
		"lean path CPU/op at 16 threads ≤ 0.5× the bare driver loop": "does not hold",
		// 20 / 50 = 0.40
		"lean path CPU/op at 1 thread ≤ 0.5× the bare driver loop":           "holds",
		"driver path peak RSS at 1000 threads ≤ 1.1× the bare driver loop's": "not measured",
		"lean path peak RSS at 1000 threads ≤ 1.1× the bare driver loop's":   "not measured",
		"memory flat (±10%) from 10^5 to 10^7 operations":                    "not measured",
		// 52 / 40 = 1.30
		"CPU/op at -target 2000 with 4 threads ≤ 1.2× the closed loop's at 4 threads": "does not hold",
		"schedule lag p50 ≤ 50 µs at -target 2000":                                    "holds",
		"schedule lag p99 ≤ 300 µs at -target 2000":                                   "does not hold",
	}
	for name, v := range want {
		if verdicts[name] != v {
			t.Errorf("goal %q: %q, want %q (all: %v)", name, verdicts[name], v, verdicts)
		}
	}
	if len(verdicts) != len(want) {
		t.Errorf("goals %v, want %v", verdicts, want)
	}

	// A sweep with 1000 threads judges the memory goals: 120 MiB is over
	// 100 MiB and 1.2× the bare loop's 100 MiB; the lean path's 105 MiB is
	// 1.05× it.
	big := fixedReport()
	big.Sweep = append(big.Sweep, Point{Name: "workloadc", Threads: 1000, Mongobench: Figures{PeakRSSBytes: 120 << 20},
		Lean: &Figures{PeakRSSBytes: 105 << 20}, Bare: &Figures{PeakRSSBytes: 100 << 20}})
	big.finish()
	judged := 0
	for _, g := range big.Goals {
		switch {
		case strings.HasPrefix(g.Name, "peak RSS"):
			judged++
			if !g.Measured || g.Holds || g.Value != 120 {
				t.Errorf("memory goal at 120 MiB: %+v", g)
			}
		case strings.HasPrefix(g.Name, "driver path peak RSS"):
			judged++
			if !g.Measured || g.Holds || g.Value != 1.2 {
				t.Errorf("driver path memory goal at 1.2×: %+v", g)
			}
		case strings.HasPrefix(g.Name, "lean path peak RSS"):
			judged++
			if !g.Measured || !g.Holds || g.Value != 1.05 {
				t.Errorf("lean path memory goal at 1.05×: %+v", g)
			}
		}
	}
	if judged != 3 {
		t.Errorf("%d memory goals judged, want 3", judged)
	}
}

// TestOpenLoopGoals: each of the open loop's goals is judged against its
// own limit, at the limit and past it, and none is judged when the open
// loop was not measured.
func TestOpenLoopGoals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name             string
		ol               *OpenLoop
		cost, p50, p99   string
		costValue, p99At float64
	}{
		{"not measured", nil, "not measured", "not measured", "not measured", 0, 0},
		{"at the limits", &OpenLoop{Closed: Figures{CPUPerOpUs: 40}, Open: Figures{Operations: 10, CPUPerOpUs: 48, LagP50Us: 50, LagP99Us: 300}, Ratio: 1.2},
			"holds", "holds", "holds", 1.2, 300},
		{"past them", &OpenLoop{Closed: Figures{CPUPerOpUs: 40}, Open: Figures{Operations: 10, CPUPerOpUs: 49, LagP50Us: 51, LagP99Us: 301}, Ratio: 49.0 / 40},
			"does not hold", "does not hold", "does not hold", 49.0 / 40, 301},
		{"no closed CPU", &OpenLoop{Open: Figures{Operations: 10, CPUPerOpUs: 49, LagP50Us: 5, LagP99Us: 30}},
			"not measured", "holds", "holds", 0, 30},
	} {
		gs := openLoopGoals(tc.ol)
		if len(gs) != 3 {
			t.Fatalf("%s: %d goals, want 3", tc.name, len(gs))
		}
		for i, want := range []string{tc.cost, tc.p50, tc.p99} {
			g := gs[i]
			got := "not measured"
			if g.Measured {
				got = map[bool]string{true: "holds", false: "does not hold"}[g.Holds]
			}
			if got != want {
				t.Errorf("%s: goal %q %s, want %s (%s)", tc.name, g.Name, got, want, g.Detail)
			}
		}
		if gs[0].Value != tc.costValue || gs[2].Value != tc.p99At {
			t.Errorf("%s: values %v and %v, want %v and %v", tc.name, gs[0].Value, gs[2].Value, tc.costValue, tc.p99At)
		}
	}
}
