package report

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

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

func TestParseMetrics(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, tc := range []struct {
		name        string
		json        string
		wantGroups  []string
		wantAbsent  []string
		wantSkipped int
	}{
		{
			// Nested objects are flattened; the unit comes from the field's
			// name or, failing that, its parent's.
			name: "server",
			json: `[{"t": 1, "opcounters_per_s": {"query": 100, "insert": 5}, "connections": {"current": 20},
			         "wiredtiger_cache": {"hit_ratio": 0.97, "bytes_in_cache": 1e9, "read_into_mb_per_s": 3}}]`,
			wantGroups: []string{"connections|: current", "opcounters_per_s|/s: insert query",
				"wiredtiger_cache|bytes: bytes_in_cache", "wiredtiger_cache|ratio: hit_ratio", "wiredtiger_cache|MB/s: read_into_mb_per_s"},
		},
		{
			// Fields present but always null are what the server does not
			// report; strings and booleans are not series.
			name: "nulls and non-numbers",
			json: `[{"t": 1, "cache": {"hit_ratio": null}, "error": "x", "restarted": true, "cpu": {"user_pct": 5}},
			        {"t": 2, "cache": {"hit_ratio": null}, "cpu": {"user_pct": null}}]`,
			wantGroups: []string{"cpu|%: user_pct"},
			wantAbsent: []string{"cache.hit_ratio"},
		},
		{
			// Arrays of objects are keyed by name, or by index.
			name:       "arrays",
			json:       `[{"t": 1, "disks": [{"name": "sda", "iops": 10}, {"name": "sdb", "iops": 20}], "load": [0.5, 0.7]}]`,
			wantGroups: []string{"disks.sda|/s: iops", "disks.sdb|/s: iops", "load|: 0 1"},
		},
		{
			// Without "t", an RFC 3339 end time is placed against the run's
			// start; a sample with neither is skipped.
			name:        "times",
			json:        `[{"end": "2024-05-06T07:08:19Z", "elapsed_s": 10, "x": 1}, {"y": 2}, 5]`,
			wantGroups:  []string{"|: x"},
			wantSkipped: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := parseMetrics(decode(t, tc.json), start)
			if err != nil {
				t.Fatal(err)
			}
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
	// A field missing from a sample is a gap, not a zero; times come from
	// "t", or from "end" against the start.
	start := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	d, err := parseMetrics(decode(t, `[{"t": 1, "a": 1}, {"t": 2}, {"end": "2024-05-06T07:08:12.5Z", "a": 3}]`), start)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.groups) != 1 || len(d.groups[0].series) != 1 {
		t.Fatalf("groups %q", groupSummary(d))
	}
	pts := d.groups[0].series[0].points
	if len(pts) != 3 || pts[0] != (tsPoint{1, 1}) || pts[1].t != 2 || !math.IsNaN(pts[1].v) || pts[2] != (tsPoint{3.5, 3}) {
		t.Errorf("points %v, want (1,1) (2,NaN) (3.5,3)", pts)
	}
}

func TestParseMetricsTypes(t *testing.T) {
	t.Parallel()
	// The sampler's own Go values work as well as decoded JSON.
	type cpu struct {
		UserPct *float64 `json:"user_pct"`
	}
	type sample struct {
		T   float64 `json:"t"`
		CPU cpu     `json:"cpu"`
	}
	v := 12.5
	d, err := parseMetrics([]sample{{T: 1, CPU: cpu{&v}}, {T: 2, CPU: cpu{}}}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got := groupSummary(d); !slices.Equal(got, []string{"cpu|%: user_pct"}) {
		t.Errorf("groups %q", got)
	}
	// Go numbers and structs inside maps, as a caller may build them.
	type disk struct {
		Name string  `json:"name"`
		IOPS float64 `json:"iops"`
	}
	d, err = parseMetrics([]any{map[string]any{"t": 1, "n": int64(3), "disks": []disk{{"sda", 7}}, "mem": map[string]any{"used_bytes": uint64(1 << 20)}}}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := groupSummary(d), []string{"disks.sda|/s: iops", "mem|bytes: used_bytes", "|: n"}; !slices.Equal(got, want) {
		t.Errorf("Go values: groups %q, want %q", got, want)
	}
	// Not an array: an error naming what was wanted.
	if _, err := parseMetrics(map[string]any{"t": 1}, time.Time{}); err == nil || !strings.Contains(err.Error(), "want an array of samples") {
		t.Errorf("object: error %v", err)
	}
}

func TestParseMetricsLimits(t *testing.T) {
	t.Parallel()
	// Many fields: capped, and said so; charts hold a few series each.
	row := map[string]any{"t": 1.0}
	for i := range maxMetricSeries + 50 {
		row["f"+formatX(float64(i))+"_pct"] = float64(i)
	}
	d, err := parseMetrics([]any{row}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
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
	// Deep nesting stops at the depth limit instead of recursing on.
	deep := `{"v": 1}`
	for range 50 {
		deep = `{"a": ` + deep + `}`
	}
	d, err = parseMetrics(decode(t, `[{"t": 1, "x": `+deep+`}]`), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.groups) != 0 {
		t.Errorf("deep nesting gave groups %q", groupSummary(d))
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

// FuzzParseMetrics feeds arbitrary JSON to the metrics reader: it must
// never panic, and what it returns must be chartable.
func FuzzParseMetrics(f *testing.F) {
	f.Add(`[{"t": 1, "a": {"b": 2, "c": null}, "d": [{"name": "x", "e": 3}]}]`)
	f.Add(`[{"end": "2024-05-06T07:08:19Z", "x": 1e308}, {"t": -1, "x": -1e308}]`)
	f.Add(`[1, "a", null, [], {}]`)
	f.Add(`{"t": 1}`)
	start := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		d, err := parseMetrics(v, start)
		if err != nil {
			return
		}
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
		mv := metricsSection("m", "Metrics", "server", v, start)
		for _, fig := range mv.Figures {
			if err := wellFormed(string(fig.SVG)); err != nil {
				t.Fatalf("chart is not well-formed: %v", err)
			}
		}
	})
}
