package report

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// groupSummary describes parsed groups as "prefix|unit: a b c" lines.
func groupSummary(d *metricsData) []string {
	var out []string
	for _, g := range d.groups {
		var names []string
		for _, s := range g.series {
			names = append(names, s.name)
		}
		out = append(out, g.prefix+"|"+g.unit+": "+strings.Join(names, " "))
	}
	return out
}

// known is a present metrics value.
func known(v float64) metrics.Value { return metrics.Known(v) }

func TestParseMetrics(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		samples     []metricSample
		wantGroups  []string
		wantAbsent  []string
		wantSkipped int
	}{
		{
			// Nested figures are named by their path of JSON keys; the unit
			// comes from the field's name or, failing that, its parent's.
			name: "server",
			samples: serverSamples([]results.ServerSample{{T: 1, Server: &metrics.ServerInterval{
				Opcounters:  metrics.OpRates{Query: known(100), Insert: known(5)},
				Connections: metrics.Connections{Current: known(20)},
				Cache:       &metrics.CacheInterval{HitRatio: known(0.97), BytesInCache: known(1e9), ReadIntoMBPerSec: known(3)},
			}}}),
			wantGroups: []string{"server.connections|: current", "server.opcounters_per_s|/s: insert query",
				"server.wiredtiger_cache|bytes: bytes_in_cache", "server.wiredtiger_cache|ratio: hit_ratio", "server.wiredtiger_cache|MB/s: read_into_mb_per_s"},
		},
		{
			// A value absent from every sample is no series, as the file
			// leaves it out; a sample written as null is a field without
			// a value. Strings and booleans are not series.
			name: "absent and non-numbers",
			samples: serverSamples([]results.ServerSample{
				{T: 1, Server: &metrics.ServerInterval{Restarted: true, Connections: metrics.Connections{Current: known(3)}}},
				{T: 2, Server: &metrics.ServerInterval{Error: "timeout"}},
				{T: 3},
			}),
			wantGroups: []string{"server.connections|: current"},
			wantAbsent: []string{"server"},
		},
		{
			// Lists are keyed by their elements' names, or by index.
			name: "lists",
			samples: hostSamples([]results.HostSample{{T: 1, Host: &metrics.HostInterval{
				Disks: []metrics.DiskInterval{{Name: "sda", IOPS: known(10)}, {Name: "sdb", IOPS: known(20)}, {IOPS: known(30)}},
			}}}),
			wantGroups: []string{"host.disks.sda|/s: iops", "host.disks.sdb|/s: iops", "host.disks.2|/s: iops"},
		},
		{
			// Plain numbers of the types count too; a sample without a
			// finite time is left out.
			name: "numbers and times",
			samples: hostSamples([]results.HostSample{
				{T: 1, Host: &metrics.HostInterval{CPU: &metrics.CPUInterval{NumCPU: 4}, Load: &metrics.LoadAvg{Load1: 0.5}}},
				{T: math.NaN(), Host: &metrics.HostInterval{Load: &metrics.LoadAvg{Load1: 0.7}}},
			}),
			wantGroups:  []string{"host.cpu|: num_cpu", "host.load|: load1 load15 load5"},
			wantSkipped: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := parseMetrics(tc.samples)
			if got := groupSummary(d); !slices.Equal(got, tc.wantGroups) {
				t.Errorf("groups %q, want %q", got, tc.wantGroups)
			}
			if !slices.Equal(d.absent, tc.wantAbsent) {
				t.Errorf("absent %q, want %q", d.absent, tc.wantAbsent)
			}
			if d.skipped != tc.wantSkipped {
				t.Errorf("skipped %d, want %d", d.skipped, tc.wantSkipped)
			}
		})
	}
}

func TestParseMetricsValues(t *testing.T) {
	t.Parallel()
	// A figure missing from a sample is a gap, not a zero.
	cpu := func(user float64) *metrics.HostInterval {
		return &metrics.HostInterval{CPU: &metrics.CPUInterval{NumCPU: 2, UserPct: metrics.Known(user)}}
	}
	d := parseMetrics(hostSamples([]results.HostSample{{T: 1, Host: cpu(10)}, {T: 2, Host: cpu(math.NaN())}, {T: 3.5, Host: cpu(30)}}))
	var pts []tsPoint
	for _, g := range d.groups {
		for _, s := range g.series {
			if g.prefix == "host.cpu" && s.name == "user_pct" {
				pts = s.points
			}
		}
	}
	if len(pts) != 3 || pts[0] != (tsPoint{1, 10}) || pts[1].t != 2 || !math.IsNaN(pts[1].v) || pts[2] != (tsPoint{3.5, 30}) {
		t.Errorf("host.cpu.user_pct points %v, want (1,10) (2,NaN) (3.5,30); groups %q", pts, groupSummary(d))
	}
}

// TestParseMetricsAsWritten: the series of the samples are those of the
// samples' JSON, the form the results file keeps: every number under its
// path of keys, and only those.
func TestParseMetricsAsWritten(t *testing.T) {
	t.Parallel()
	res := realRun(t)
	for _, tc := range []struct {
		name    string
		samples []metricSample
		written any
	}{
		// The real run's server samples are empty: FerretDB reports none
		// of these figures.
		{"host", hostSamples(res.Extra.HostMetrics), res.Extra.HostMetrics},
		{"fixture server", serverSamples(serverMetrics(3, 100)), serverMetrics(3, 100)},
		{"fixture host", hostSamples(hostMetrics(3)), hostMetrics(3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tc.written)
			if err != nil {
				t.Fatal(err)
			}
			var rows []map[string]any
			if err := json.Unmarshal(b, &rows); err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			var walk func(name string, v any)
			walk = func(name string, v any) {
				switch x := v.(type) {
				case map[string]any:
					for k, el := range x {
						walk(name+"."+k, el)
					}
				case []any:
					for i, el := range x {
						key := strconv.Itoa(i)
						if m, ok := el.(map[string]any); ok && m["name"] != nil && m["name"] != "" {
							key = m["name"].(string)
						}
						walk(name+"."+key, el)
					}
				case float64:
					want[name[1:]] = true
				}
			}
			for _, row := range rows {
				delete(row, "t")
				walk("", row)
			}
			got := map[string]bool{}
			for _, g := range parseMetrics(tc.samples).groups {
				for _, s := range g.series {
					got[joinName(g.prefix, s.name)] = true
				}
			}
			if len(want) == 0 || !maps.Equal(got, want) {
				t.Errorf("series %v, the JSON's numbers %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
			}
		})
	}
}

func TestParseMetricsLimits(t *testing.T) {
	t.Parallel()
	// Many fields (a machine with many disks): capped, and said so; charts
	// hold a few series each.
	var disks []metrics.DiskInterval
	for i := range maxMetricSeries + 50 {
		disks = append(disks, metrics.DiskInterval{Name: "d" + strconv.Itoa(i), UtilPct: known(float64(i))})
	}
	d := parseMetrics(hostSamples([]results.HostSample{{T: 1, Host: &metrics.HostInterval{Disks: disks}}}))
	n := 0
	for _, g := range d.groups {
		if len(g.series) > maxSeriesPerChart {
			t.Errorf("group %s has %d series", g.prefix, len(g.series))
		}
		n += len(g.series)
	}
	if n != maxMetricSeries || !d.truncated {
		t.Errorf("%d series, truncated %v; want %d, true", n, d.truncated, maxMetricSeries)
	}
}

func TestUnitOf(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"user_pct":               "%",
		"hit_ratio":              "ratio",
		"r_mb_per_s":             "MB/s",
		"bytes_in_per_s":         "bytes/s",
		"requests_per_s":         "/s",
		"iops":                   "/s",
		"reads_mean_us":          "µs",
		"r_await_ms":             "ms",
		"max_bytes":              "bytes",
		"current":                "",
		"opcounters_per_s.query": "/s",
		"disks.sda.util_pct":     "%",
	} {
		if got := unitOfPath(name); got != want {
			t.Errorf("unitOfPath(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzParseMetrics feeds arbitrary JSON, read as a results file's series,
// to the metrics charts: they must never panic, and what they read must be
// chartable.
func FuzzParseMetrics(f *testing.F) {
	f.Add(`[{"t": 1, "server": {"opcounters_per_s": {"query": 2}, "wiredtiger_cache": {"hit_ratio": null}}}]`)
	f.Add(`[{"t": 1, "host": {"disks": [{"name": "x", "iops": 3}, {"iops": 1e308}]}}, {"t": -1, "host": null}]`)
	f.Add(`[{}, {"t": 2}]`)
	f.Fuzz(func(t *testing.T, s string) {
		var server []results.ServerSample
		var host []results.HostSample
		for _, samples := range [][]metricSample{
			func() []metricSample {
				if json.Unmarshal([]byte(s), &server) != nil {
					return nil
				}
				return serverSamples(server)
			}(),
			func() []metricSample {
				if json.Unmarshal([]byte(s), &host) != nil {
					return nil
				}
				return hostSamples(host)
			}(),
		} {
			d := parseMetrics(samples)
			seen := map[string]bool{}
			for _, g := range d.groups {
				if len(g.series) == 0 || len(g.series) > maxSeriesPerChart {
					t.Fatalf("group %q has %d series", g.prefix, len(g.series))
				}
				for _, s := range g.series {
					name := joinName(g.prefix, s.name)
					if seen[name] {
						t.Fatalf("series %q twice", name)
					}
					seen[name] = true
					for _, p := range s.points {
						if !isFinite(p.t) {
							t.Fatalf("series %q has time %g", name, p.t)
						}
					}
				}
			}
			if len(seen)+len(d.absent) > maxMetricSeries {
				t.Fatalf("%d fields, limit %d", len(seen)+len(d.absent), maxMetricSeries)
			}
			// Whatever was read renders.
			for _, fig := range metricsSection("m", "Metrics", "server", samples).Figures {
				if err := wellFormed(string(fig.SVG)); err != nil {
					t.Fatalf("chart is not well-formed: %v", err)
				}
			}
		}
	})
}
