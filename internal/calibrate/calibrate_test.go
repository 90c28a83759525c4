package calibrate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/workload"
)

// childEnv makes the test binary act as a child server: "server" serves the
// null server as "mongobench server --null" does; "garbage" prints a line
// that is no URI; "exit" fails at once.
const childEnv = "MONGOBENCH_CALIBRATE_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "server":
		s, err := nullserver.Start("127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(s.URI())
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		<-sig
		_ = s.Close()
		os.Exit(0)
	case "garbage":
		fmt.Println("listening, probably")
		time.Sleep(time.Minute)
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "cannot listen: address in use")
		os.Exit(3)
	}
}

func positive(t *testing.T, what string, f Figures) {
	t.Helper()
	if f.Operations <= 0 || f.Seconds <= 0 || f.OpsPerSec <= 0 || f.CPUPerOpUs <= 0 ||
		f.P50Us <= 0 || f.P99Us < f.P50Us || f.PeakRSSBytes <= 0 || f.Utilization <= 0 || f.Failed != 0 {
		t.Errorf("%s: figures not all positive (or failures): %+v", what, f)
	}
}

func TestRunInProcess(t *testing.T) {
	t.Parallel()
	var progress bytes.Buffer
	rep, err := Run(context.Background(), Options{
		Threads: []int{4, 1}, Operations: 2000, Server: ServerInProcess, Progress: &progress,
		Overrides: map[string]string{"fieldcount": "4"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Server != ServerInProcess || !strings.HasPrefix(rep.ServerURI, "mongodb://127.0.0.1:") || rep.Partial {
		t.Errorf("server %q at %q, partial %v", rep.Server, rep.ServerURI, rep.Partial)
	}
	if rep.Workload != "workloadc" || rep.Operations != 2000 || rep.RecordCount != DefaultRecordCount || rep.FieldCount != 4 || rep.FieldLength != 100 || rep.Repeats != 1 {
		t.Errorf("report header %+v", rep)
	}
	// The reference thread count joins the sweep for the extra points.
	var threads []int
	for _, p := range rep.Sweep {
		threads = append(threads, p.Threads)
		positive(t, fmt.Sprintf("%s at %d mongobench", p.Name, p.Threads), p.Mongobench)
		if p.Bare == nil || p.OverheadPct == nil || len(p.BareTrials) != 1 || len(p.MongobenchTrials) != 1 {
			t.Fatalf("%d threads: no bare figures or overhead: %+v", p.Threads, p)
		}
		positive(t, fmt.Sprintf("bare at %d", p.Threads), *p.Bare)
		want := 100 * (p.Mongobench.CPUPerOpUs/p.Bare.CPUPerOpUs - 1)
		if math.Abs(*p.OverheadPct-want) > 1e-9 {
			t.Errorf("%d threads: overhead %g%%, want %g%%", p.Threads, *p.OverheadPct, want)
		}
		if p.Phase != "run" || p.Mongobench.Operations != 2000 {
			t.Errorf("%d threads: phase %q, %d operations", p.Threads, p.Phase, p.Mongobench.Operations)
		}
		if p.Lean == nil || p.LeanOverheadPct == nil || len(p.LeanTrials) != 1 || p.Lean.Operations != 2000 {
			t.Fatalf("%d threads: no lean path figures: %+v", p.Threads, p)
		}
		positive(t, fmt.Sprintf("%s at %d lean", p.Name, p.Threads), *p.Lean)
		if want := 100 * (p.Lean.CPUPerOpUs/p.Bare.CPUPerOpUs - 1); math.Abs(*p.LeanOverheadPct-want) > 1e-9 {
			t.Errorf("%d threads: lean overhead %g%%, want %g%%", p.Threads, *p.LeanOverheadPct, want)
		}
	}
	if len(rep.LeanFallbacks) != 1 || !strings.HasPrefix(rep.LeanFallbacks[0], "scan:") {
		t.Errorf("lean fallbacks %q, want scans only", rep.LeanFallbacks)
	}
	if !slices.Equal(threads, []int{1, 4, RefThreads}) {
		t.Errorf("sweep threads %v, want [1 4 %d]", threads, RefThreads)
	}
	var names []string
	for _, p := range rep.Extras {
		names = append(names, p.Name)
		positive(t, p.Name, p.Mongobench)
		if p.Lean == nil {
			t.Errorf("extra %s: no lean path figures", p.Name)
		} else {
			positive(t, p.Name+" lean", *p.Lean)
		}
		if p.Threads != RefThreads || p.Bare != nil || p.VsRef == nil || *p.VsRef <= 0 {
			t.Errorf("extra %s: %+v", p.Name, p)
		}
	}
	if !slices.Equal(names, []string{"workloada", "load batchsize=1", "load batchsize=100"}) {
		t.Errorf("extras %v", names)
	}
	if rep.Extras[2].BatchSize != 100 || rep.Extras[2].Phase != "load" || rep.Extras[2].Mongobench.Operations != 2000 {
		t.Errorf("load batch point %+v: want 2000 records in batches of 100", rep.Extras[2])
	}
	ol := rep.OpenLoop
	if ol == nil {
		t.Fatal("no open loop measured")
	}
	if ol.Threads != OpenThreads || ol.Target != OpenTarget || ol.Operations != 2000 || len(ol.OpenTrials) != 1 || len(ol.ClosedTrials) != 1 {
		t.Errorf("open loop %+v", ol)
	}
	positive(t, "closed loop", ol.Closed)
	positive(t, "open loop", ol.Open)
	if ol.Closed.LagP50Us != 0 || ol.Closed.LagP99Us != 0 {
		t.Errorf("closed loop with a schedule lag: %+v", ol.Closed)
	}
	if ol.Open.LagP99Us < ol.Open.LagP50Us || ol.Open.LagP99Us <= 0 {
		t.Errorf("open loop lag p50 %d µs, p99 %d µs", ol.Open.LagP50Us, ol.Open.LagP99Us)
	}
	if want := ol.Open.CPUPerOpUs / ol.Closed.CPUPerOpUs; ol.Ratio != want {
		t.Errorf("open loop ratio %v, want %v", ol.Ratio, want)
	}
	measured := 0
	for _, g := range rep.Goals {
		if g.Measured {
			measured++
			if strings.HasPrefix(g.Name, "schedule lag") {
				continue // a lag of 0 µs is a figure too
			}
			if g.Value <= 0 || g.Limit <= 0 {
				t.Errorf("goal %q measured without figures: %+v", g.Name, g)
			}
		}
	}
	// 16 and 1 thread against the bare loop on each path, workload a, two
	// loads, the open loop's cost and lag; the three memory goals and
	// flatness need 1000 threads.
	if measured != 10 || len(rep.Goals) != 14 {
		t.Errorf("%d goals, %d measured; want 14 and 10: %+v", len(rep.Goals), measured, rep.Goals)
	}
	// Three sweep points on three paths, three extras on two, the open and
	// the closed loop.
	if got := strings.Count(progress.String(), "\n"); got != 3*3+3*2+2 {
		t.Errorf("%d progress lines, want one per measurement (17):\n%s", got, progress.String())
	}
	var out bytes.Buffer
	if err := WriteReport(&out, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"workloadc, 2,000 operations", "load batchsize=100", "goals:", "in-process", "the open loop at -target 2,000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunChildServer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(childEnv, "server")
	rep, err := Run(context.Background(), Options{
		Threads: []int{2}, Operations: 1000, Repeats: 3, SkipExtras: true, ServerCommand: []string{exe},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Server != ServerChild || len(rep.Sweep) != 1 || len(rep.Extras) != 0 {
		t.Fatalf("server %q, %d sweep points, %d extras", rep.Server, len(rep.Sweep), len(rep.Extras))
	}
	p := rep.Sweep[0]
	if len(p.MongobenchTrials) != 3 || len(p.BareTrials) != 3 {
		t.Fatalf("%d and %d trials, want 3 each", len(p.MongobenchTrials), len(p.BareTrials))
	}
	positive(t, "mongobench", p.Mongobench)
	positive(t, "bare", *p.Bare)
}

func TestChildServerFailures(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cases := []struct {
		name, mode string
		cmd        []string
		want       string
	}{
		{"no uri", "garbage", []string{exe}, `printed "listening, probably" instead of its URI`},
		{"exits", "exit", []string{exe}, "exited before it was ready: exit status 3: cannot listen: address in use"},
		{"missing", "exit", []string{filepath.Join(t.TempDir(), "no-such-mongobench")}, "cannot start the null server"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(childEnv, c.mode)
			_, err := Run(context.Background(), Options{Threads: []int{1}, Operations: 10, SkipExtras: true, ServerCommand: c.cmd})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestRunCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, Options{Threads: []int{1}, Operations: 100, SkipExtras: true, Server: ServerInProcess})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if rep == nil || !rep.Partial || len(rep.Sweep) != 0 {
		t.Fatalf("report %+v: want an empty partial report", rep)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		opts    Options
		threads []int
		wantErr string
	}{
		// Defaults: the sweep already holds the reference count.
		{"defaults", Options{}, []int{1, 16, 64}, ""},
		// Sorted, deduplicated, and 16 added for the extras.
		{"unsorted", Options{Threads: []int{64, 1, 64}}, []int{1, 16, 64}, ""},
		{"no extras", Options{Threads: []int{8}, SkipExtras: true}, []int{8}, ""},
		{"zero threads", Options{Threads: []int{0}}, nil, "threads 0 is invalid"},
		{"negative operations", Options{Operations: -1}, nil, "operationcount=-1 is invalid"},
		{"negative records", Options{RecordCount: -5}, nil, "recordcount=-5 is invalid"},
		{"repeats", Options{Repeats: -2}, nil, "repeat -2 is invalid"},
		{"server mode", Options{Server: "remote"}, nil, `server "remote" is invalid`},
		{"external without uri", Options{Server: ServerExternal}, nil, "needs its URI"},
		{"bad uri", Options{ServerURI: "mongodb://h:notaport"}, nil, "is invalid"},
		{"url options", Options{URLOptions: "?retryReads=false"}, nil, "url options"},
		{"url option value", Options{URLOptions: "maxPoolSize=lots"}, nil, `url options "maxPoolSize=lots"`},
		{"bad property", Options{Overrides: map[string]string{"readproportion": "lots"}}, nil, "readproportion"},
		{"bad workload", Options{Properties: props(t, "requestdistribution", "bell")}, nil, "requestdistribution"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := c.opts
			err := o.Validate()
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("Validate() = %v, want an error containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(o.Threads, c.threads) || o.Operations != DefaultOperations || o.Repeats != 1 || o.Server != ServerChild || o.Workload != DefaultWorkload {
				t.Errorf("after Validate: %+v", o)
			}
		})
	}
}

func props(t *testing.T, kv ...string) *workload.Properties {
	t.Helper()
	p := workload.NewProperties()
	for i := 0; i < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "test")
	}
	p.Set("readproportion", "1", "test")
	return p
}

func TestSpecSizes(t *testing.T) {
	t.Parallel()
	o := Options{Operations: 5000, RecordCount: 300, Overrides: map[string]string{"threadcount": "7", "fieldlength": "10", "insertcount": "3"}}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		pt                point
		records, inserts  int64
		transactions      bool
		proportionOfReads float64
	}{
		// The sweep: calibrate's key space, workloadc's reads only.
		{point{name: "workloadc"}, 300, 3, true, 1},
		// Workload a keeps its own mix.
		{point{name: "workloada", workload: "workloada"}, 300, 3, true, 0.5},
		// A load inserts Operations records, whatever insertcount says.
		{point{name: "load", load: true, batchSize: 100}, 5000, 5000, false, 1},
	}
	for _, c := range cases {
		s, err := o.spec(c.pt, 12)
		if err != nil {
			t.Fatal(err)
		}
		if s.Threads != 12 || s.OperationCount != 5000 || s.RecordCount != c.records || s.InsertCount != c.inserts ||
			s.Transactions != c.transactions || s.FieldLength != 10 || s.Proportions[workload.TxRead] != c.proportionOfReads {
			t.Errorf("%s: threads %d, operations %d, records %d, inserts %d, transactions %v, fieldlength %d, reads %g",
				c.pt.name, s.Threads, s.OperationCount, s.RecordCount, s.InsertCount, s.Transactions, s.FieldLength, s.Proportions[workload.TxRead])
		}
	}
}

func TestWithOptions(t *testing.T) {
	t.Parallel()
	cases := []struct{ uri, opts, want string }{
		{"mongodb://127.0.0.1:1/?directConnection=true", "", "mongodb://127.0.0.1:1/?directConnection=true"},
		{"mongodb://127.0.0.1:1/?directConnection=true", "retryReads=false", "mongodb://127.0.0.1:1/?directConnection=true&retryReads=false"},
		{"mongodb://h:1/ycsb", "&maxPoolSize=5&", "mongodb://h:1/ycsb?maxPoolSize=5"},
		{"mongodb://h:1", "compressors=zlib", "mongodb://h:1/?compressors=zlib"},
	}
	for _, c := range cases {
		if got := withOptions(c.uri, c.opts); got != c.want {
			t.Errorf("withOptions(%q, %q) = %q, want %q", c.uri, c.opts, got, c.want)
		}
	}
}

func TestMedianFigures(t *testing.T) {
	t.Parallel()
	trials := []Figures{
		{Operations: 100, OpsPerSec: 30, CPUPerOpUs: 9, P99Us: 400},
		{Operations: 100, OpsPerSec: 10, CPUPerOpUs: 7, P99Us: 100},
		{Operations: 100, OpsPerSec: 20, CPUPerOpUs: 8, P99Us: 900},
	}
	got := medianFigures(trials)
	// Each figure is its own median, not the figures of one trial.
	want := Figures{Operations: 100, OpsPerSec: 20, CPUPerOpUs: 8, P99Us: 400}
	if got != want {
		t.Errorf("medianFigures = %+v, want %+v", got, want)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of 1..4 = %g, want 2.5", m)
	}
	if m := median(nil); m != 0 {
		t.Errorf("median of nothing = %g", m)
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	cases := map[float64]string{0: "0", 999.4: "999", 1000: "1,000", 1234567.8: "1,234,568", -45210: "-45,210"}
	for v, want := range cases {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%g) = %q, want %q", v, got, want)
		}
	}
}
