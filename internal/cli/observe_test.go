package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// TestMetricsTimeSeries checks that a run's results carry server and host
// metrics on the latency intervals' timeline, and the summary the
// server / host block.
func TestMetricsTimeSeries(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	out := filepath.Join(t.TempDir(), "m.json")
	r := mongobench(t, "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=0", "-p", "maxexecutiontime=3", "-p", "status.interval=1", "--out", out)
	if r.code != 0 {
		t.Fatalf("run: %s", r.stderr)
	}
	for _, want := range []string{"[SERVER], WiredTigerCache, not reported by this server",
		"[SERVER], Network, not reported by this server", "[SERVER], Connections, not reported by this server", "[HOST], CPUs, ", "[SERVER], CollectionDocuments, 100", "[HOST], ServerIsLocal, true"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
	res := readResults(t, out)
	if len(res.Intervals) < 3 {
		t.Fatalf("%d intervals in a 3 s run at 1 s", len(res.Intervals))
	}
	for i, iv := range res.Intervals {
		// On a busy machine the sample due at the end of the last whole
		// interval can come after the phase's stop: the closing sample
		// then covers both, and the short last interval has none.
		if iv.Metrics == nil && i == len(res.Intervals)-1 && i > 0 {
			continue
		}
		raw, err := json.Marshal(iv.Metrics)
		if err != nil {
			t.Fatal(err)
		}
		var m metrics.IntervalMetrics
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("interval %d metrics: %v", iv.Index, err)
		}
		if m.Server == nil || m.Host == nil || m.Host.CPU == nil {
			t.Errorf("interval %d: server %v, host %v: both must be present (fields inside may be absent)", iv.Index, m.Server != nil, m.Host != nil)
		}
		// FerretDB 1.24's serverStatus has none of these sections:
		// absent, never zero.
		if s := m.Server; s != nil {
			if s.Cache != nil || s.OpLatencies != nil || s.Opcounters != (metrics.OpRates{}) ||
				s.Network != (metrics.NetworkRates{}) || s.Connections != (metrics.Connections{}) {
				t.Errorf("interval %d reports figures FerretDB does not have: %s", iv.Index, raw)
			}
			for _, key := range []string{`"wiredtiger_cache"`, `"opcounters_per_s"`, `"network"`, `"connections"`} {
				if strings.Contains(string(raw), key) {
					t.Errorf("interval %d writes %s for FerretDB: %s", iv.Index, key, raw)
				}
			}
		}
	}
	if res.Extra == nil || res.Extra.Topology == nil {
		t.Error("no topology in the results")
	}

	// The journal, read back as report and compare read a killed run's,
	// has the same metrics on every interval as the results file, and the
	// same time series for the report's charts.
	f, err := os.Open(out + results.JournalSuffix)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jres, err := results.ReadJournal(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(jres.Intervals) != len(res.Intervals) {
		t.Fatalf("journal: %d intervals, results file %d", len(jres.Intervals), len(res.Intervals))
	}
	for i, iv := range jres.Intervals {
		lastWithout := iv.Metrics == nil && i == len(jres.Intervals)-1 && i > 0
		if (iv.Metrics == nil && !lastWithout) || !reflect.DeepEqual(iv.Metrics, res.Intervals[i].Metrics) {
			t.Errorf("interval %d: journal metrics %v, results file %v", iv.Index, iv.Metrics, res.Intervals[i].Metrics)
		}
	}
	// The journal's series are the sampler's types, the file's decoded
	// JSON: count them as the file holds them.
	samples := func(v any) int {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var rows []any
		if err := json.Unmarshal(b, &rows); err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	for _, s := range []struct {
		name      string
		got, want any
	}{
		{"server_metrics", jres.Extra.ServerMetrics, res.Extra.ServerMetrics},
		{"host_metrics", jres.Extra.HostMetrics, res.Extra.HostMetrics},
	} {
		if got, want := samples(s.got), samples(s.want); got == 0 || got != want {
			t.Errorf("%s: %d samples in the journal, %d in the results file", s.name, got, want)
		}
	}
}

// TestSizesGrowWithRecordcount loads two sizes of data set and checks the
// sizes the results record.
func TestSizesGrowWithRecordcount(t *testing.T) {
	t.Parallel()
	docs := func(records string) (float64, float64) {
		url := freshURL(t)
		out := filepath.Join(t.TempDir(), "load.json")
		r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount="+records, "-p", "batchsize=50", "--out", out)
		if r.code != 0 {
			t.Fatalf("load: %s", r.stderr)
		}
		res := readResults(t, out)
		if res.Extra == nil || res.Extra.Sizes == nil || res.Extra.Sizes.End == nil {
			t.Fatalf("no sizes in the results: %+v", res.Extra)
		}
		sizes := res.Extra.Sizes
		n, _ := sizes.End.Coll.Documents.Get()
		d, _ := sizes.End.Coll.DataSize.Get()
		return n, d
	}
	n1, d1 := docs("100")
	n2, d2 := docs("400")
	if n1 != 100 || n2 != 400 {
		t.Errorf("documents after loading 100 and 400 records: %v, %v", n1, n2)
	}
	if !(d2 > 3*d1) {
		t.Errorf("data size %v for 400 records is not about 4× %v for 100", d2, d1)
	}
}
