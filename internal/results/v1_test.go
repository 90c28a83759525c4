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
		// topology, sizes, server and host metrics.
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
	server, _ := r.Extra.ServerMetrics.([]ServerSample)
	if withMetrics == 0 || len(server) != withMetrics {
		t.Errorf("%d intervals with server metrics, %d samples in the series", withMetrics, len(server))
	}
}
