package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// generic is a JSON document as a reader without the types sees it.
func generic(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestReadVersion1 reads results files that version 1 of the format wrote
// (testdata/v1, made by the binary of that version): every section of
// their extra object lands in its typed field, and written out again the
// file says what it said, key for key and value for value, but for its
// version.
func TestReadVersion1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		// check looks at typed fields against the values in the file.
		check func(t *testing.T, r *Results, extra map[string]any)
	}{
		// A load against the embedded server: runner counts, client,
		// topology, sizes, server and host metrics, the series typed.
		{"load.json", func(t *testing.T, r *Results, extra map[string]any) {
			x := r.Extra
			if x.Runner == nil || float64(x.MeasuredOperations) != extra["measured_operations"] || float64(x.OperationsStarted) != extra["operations_started"] {
				t.Errorf("runner %+v, file says %v", x.Runner, extra)
			}
			if x.Topology == nil || x.Topology.Kind != extra["topology"].(map[string]any)["kind"] {
				t.Errorf("topology %+v", x.Topology)
			}
			if x.Sizes == nil || x.Sizes.End == nil {
				t.Errorf("sizes %+v", x.Sizes)
			}
			if x.Client == nil || float64(x.Client.HostCPUs) != extra["host_cpus"] || x.Client.IncludesEmbeddedServer != extra["client_includes_embedded_server"] {
				t.Errorf("client %+v", x.Client)
			}
			checkSeries(t, r, extra)
		}},
		// A run at -target: late starts and the client's CPU per operation.
		{"run-target.json", func(t *testing.T, r *Results, extra map[string]any) {
			x := r.Extra
			if x.Runner == nil || float64(x.LateStarts) != extra["late_starts"] || x.StoppedByTime != extra["stopped_by_time"] {
				t.Errorf("runner %+v, file says %v", x.Runner, extra)
			}
			if x.Client == nil || x.Client.CPUPerOpUs == nil || *x.Client.CPUPerOpUs != extra["client_cpu_per_op_us"] {
				t.Errorf("client %+v", x.Client)
			}
			if r.ScheduleLag == nil {
				t.Error("no schedule lag")
			}
			checkSeries(t, r, extra)
		}},
		// A trial of a sweep: its place in the sweep.
		{"sweep-trial.json", func(t *testing.T, r *Results, extra map[string]any) {
			mark := extra["sweep"].(map[string]any)
			if s := r.Extra.Sweep; s == nil || s.ID != mark["id"] || float64(s.Trial) != mark["trial"] || s.Point["threadcount"] != "2" || s.Label() != "threadcount=2" {
				t.Errorf("sweep mark %+v, file says %v", r.Extra.Sweep, mark)
			}
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("testdata", "v1", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			want := generic(t, raw)
			if want["format_version"] != 1.0 {
				t.Fatalf("testdata/v1/%s is not a version-1 file", tc.file)
			}
			r, err := ReadJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if r.FormatVersion != FormatVersion || r.Extra == nil {
				t.Fatalf("read as version %d, extra %v", r.FormatVersion, r.Extra)
			}
			tc.check(t, r, want["extra"].(map[string]any))
			var b bytes.Buffer
			if err := WriteJSON(&b, r); err != nil {
				t.Fatal(err)
			}
			got := generic(t, b.Bytes())
			want["format_version"] = float64(FormatVersion)
			for k := range want {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%q differs once read and written again:\n got %v\nwant %v", k, got[k], want[k])
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("%q added", k)
				}
			}
		})
	}
}

// checkSeries compares the typed metrics series of r with the file's: as
// many samples, at the same times, with the same CPU and disk figures.
func checkSeries(t *testing.T, r *Results, extra map[string]any) {
	t.Helper()
	server, _ := extra["server_metrics"].([]any)
	host, _ := extra["host_metrics"].([]any)
	if len(server) == 0 || len(host) == 0 {
		t.Fatalf("the file has %d server and %d host samples: the test needs both", len(server), len(host))
	}
	if len(r.Extra.ServerMetrics) != len(server) || len(r.Extra.HostMetrics) != len(host) {
		t.Fatalf("%d server and %d host samples read, the file has %d and %d", len(r.Extra.ServerMetrics), len(r.Extra.HostMetrics), len(server), len(host))
	}
	for i, s := range r.Extra.ServerMetrics {
		if want := server[i].(map[string]any); s.T != want["t"] || s.Server == nil {
			t.Errorf("server sample %d = %+v, file says %v", i, s, want)
		}
	}
	for i, h := range r.Extra.HostMetrics {
		want := host[i].(map[string]any)
		wantHost := want["host"].(map[string]any)
		wantCPU := wantHost["cpu"].(map[string]any)
		wantDisk := wantHost["disks"].([]any)[0].(map[string]any)
		if h.T != want["t"] || h.Host == nil || h.Host.CPU == nil || len(h.Host.Disks) == 0 {
			t.Fatalf("host sample %d = %+v, file says %v", i, h, want)
		}
		if v, ok := h.Host.CPU.UserPct.Get(); !ok || v != wantCPU["user_pct"] || float64(h.Host.CPU.NumCPU) != wantCPU["num_cpu"] {
			t.Errorf("host sample %d: cpu %+v, file says %v", i, h.Host.CPU, wantCPU)
		}
		if d := h.Host.Disks[0]; d.Name != wantDisk["name"] || d.IOPS.V != wantDisk["iops"] || h.Host.DescribesServer != wantHost["describes_server"] {
			t.Errorf("host sample %d: disk %+v, file says %v", i, d, wantDisk)
		}
	}
}

// TestReadVersion1Journal rebuilds the results of a run killed with
// SIGKILL from the journal version 1 wrote: partial, its intervals and
// their server and host metrics back, the metrics series in the extra
// object.
func TestReadVersion1Journal(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join("testdata", "v1", "killed.json"+JournalSuffix))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ReadJournal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || r.Label != "v1-killed" || len(r.Intervals) == 0 || r.Operations == 0 {
		t.Fatalf("partial %v label %q, %d intervals, %d operations", r.Partial, r.Label, len(r.Intervals), r.Operations)
	}
	withMetrics := 0
	for _, iv := range r.Intervals {
		if iv.Metrics != nil && iv.Metrics.Server != nil {
			withMetrics++
		}
	}
	server := r.Extra.ServerMetrics
	if withMetrics == 0 || len(server) != withMetrics {
		t.Errorf("%d intervals with server metrics, %d samples in the series", withMetrics, len(server))
	}
}
