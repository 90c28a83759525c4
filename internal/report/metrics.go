package report

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Limits on what a metrics section may hold, so that a results file from a
// sampler gone wrong (or from anyone) cannot make a report of gigabytes.
const (
	maxMetricSeries   = 400
	maxMetricDepth    = 8
	maxSeriesPerChart = 8
)

// metricSeries is one numeric field of the samples over time; NaN where a
// sample lacked it.
type metricSeries struct {
	name   string
	points []tsPoint
}

// metricGroup is the series of one chart: fields sharing a name prefix and
// a unit.
type metricGroup struct {
	prefix string
	unit   string
	series []metricSeries
}

// metricsData is one metrics section (server or host) read generically.
type metricsData struct {
	groups []metricGroup
	// absent lists the fields that were present in the samples but never
	// had a value: what the server or host does not report.
	absent []string
	// skipped counts samples without a usable time.
	skipped int
	// cut is the window in seconds of a last sample left out as a sliver
	// (see sliverLast); 0 when none was.
	cut float64
	// truncated is set when there were more series than maxMetricSeries.
	truncated bool
}

// parseMetrics reads a metrics section: a JSON array of objects, each with
// a time "t" in seconds from the start of the run (or, failing that, an
// RFC 3339 "end" or "at" time, placed against start) and numeric fields.
// Nested objects are flattened with dots ("wiredtiger_cache.hit_ratio");
// arrays of objects are keyed by their "name" field when they have one
// ("disks.sda.iops"), by index otherwise. v may be what encoding/json
// decoded or any value that marshals to such an array.
func parseMetrics(v any, start time.Time) (*metricsData, error) {
	rows, ok := v.([]any)
	if ok {
		for _, r := range rows {
			if _, isObj := r.(map[string]any); !isObj {
				ok = false
				break
			}
		}
	}
	if !ok {
		// A round trip through JSON accepts the sampler's own types too,
		// and the same rules then apply to them as to a decoded results
		// file.
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
		if err := json.Unmarshal(b, &rows); err != nil {
			return nil, fmt.Errorf("metrics: want an array of samples: %w", err)
		}
	}
	d := &metricsData{}
	type field struct {
		values  []tsPoint
		numeric bool
	}
	fields := map[string]*field{}
	var order []string
	last, cut := sliverLast(rows, start)
	d.cut = cut
	for i, row := range rows {
		obj, isObj := row.(map[string]any)
		if !isObj {
			d.skipped++
			continue
		}
		t, ok := sampleTime(obj, start)
		if !ok {
			d.skipped++
			continue
		}
		if cut > 0 && i == last {
			continue
		}
		flat := map[string]float64{}
		flatten("", obj, 0, func(name string, v float64, isNum bool) {
			f := fields[name]
			if f == nil {
				if len(order) >= maxMetricSeries {
					d.truncated = true
					return
				}
				f = &field{}
				fields[name] = f
				order = append(order, name)
			}
			if isNum {
				f.numeric = true
				flat[name] = v
			}
		})
		for _, name := range order {
			f := fields[name]
			v, ok := flat[name]
			if !ok {
				v = math.NaN()
			}
			f.values = append(f.values, tsPoint{t: t, v: v})
		}
	}
	groups := map[string]*metricGroup{}
	var groupOrder []string
	for _, name := range order {
		f := fields[name]
		if !f.numeric {
			d.absent = append(d.absent, name)
			continue
		}
		pts := f.values
		prefix, leaf := splitName(name)
		unit := unitOfPath(name)
		key := prefix + "\x00" + unit
		g := groups[key]
		if g == nil {
			g = &metricGroup{prefix: prefix, unit: unit}
			groups[key] = g
			groupOrder = append(groupOrder, key)
		}
		g.series = append(g.series, metricSeries{name: leaf, points: pts})
	}
	for _, key := range groupOrder {
		g := groups[key]
		for i := 0; i < len(g.series); i += maxSeriesPerChart {
			d.groups = append(d.groups, metricGroup{prefix: g.prefix, unit: g.unit, series: g.series[i:min(i+maxSeriesPerChart, len(g.series))]})
		}
	}
	return d, nil
}

// sliverLast finds a last sample taken so soon after the one before it
// (under a tenth of the usual step) that it covers only the run's stop: the
// rates it holds are over a few milliseconds, and charted they drew cliffs
// to 0 or 100% at the end of every chart. It returns the sample's index
// and its window in seconds, or a window of 0 when there is no sliver.
func sliverLast(rows []any, start time.Time) (int, float64) {
	type sample struct {
		i int
		t float64
	}
	var ts []sample
	for i, row := range rows {
		if obj, ok := row.(map[string]any); ok {
			if t, ok := sampleTime(obj, start); ok {
				ts = append(ts, sample{i, t})
			}
		}
	}
	n := len(ts)
	if n < 3 {
		return -1, 0
	}
	step, prev := ts[n-1].t-ts[n-2].t, ts[n-2].t-ts[n-3].t
	if step >= 0 && prev > 0 && step < prev/10 {
		return ts[n-1].i, step
	}
	return -1, 0
}

// sampleTime returns a sample's time in seconds from start.
func sampleTime(obj map[string]any, start time.Time) (float64, bool) {
	if t, ok := toFloat(obj["t"]); ok && isFinite(t) {
		return t, true
	}
	for _, k := range []string{"end", "at"} {
		s, ok := obj[k].(string)
		if !ok || start.IsZero() {
			continue
		}
		if at, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return at.Sub(start).Seconds(), true
		}
	}
	return 0, false
}

// timeKeys are the fields of a sample that say when it was taken.
var timeKeys = map[string]bool{"t": true, "start": true, "end": true, "at": true, "elapsed_s": true}

// flatten calls emit for every number (isNum) and null (!isNum) under v,
// named by its path. Strings and booleans are not series and are left out.
func flatten(prefix string, v any, depth int, emit func(name string, v float64, isNum bool)) {
	if depth > maxMetricDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if depth == 0 && timeKeys[k] {
				continue
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(joinName(prefix, k), x[k], depth+1, emit)
		}
	case []any:
		for i, el := range x {
			key := strconv.Itoa(i)
			if m, ok := el.(map[string]any); ok {
				if n, ok := m["name"].(string); ok && n != "" {
					key = n
				}
			}
			flatten(joinName(prefix, key), el, depth+1, emit)
		}
	case nil:
		if prefix != "" {
			emit(prefix, 0, false)
		}
	case string, bool:
	default:
		if f, ok := toFloat(x); ok {
			if isFinite(f) {
				emit(prefix, f, true)
			} else {
				emit(prefix, 0, false)
			}
			return
		}
		// A Go value (a struct of the sampler's) inside decoded-looking
		// data: read it as its JSON.
		b, err := json.Marshal(x)
		if err != nil {
			return
		}
		var y any
		if json.Unmarshal(b, &y) == nil {
			if _, again := y.(map[string]any); again || isSlice(y) {
				flatten(prefix, y, depth, emit)
			} else if f, ok := y.(float64); ok {
				emit(prefix, f, true)
			}
		}
	}
}

func isSlice(v any) bool {
	_, ok := v.([]any)
	return ok
}

// toFloat returns the value of a number of any of the types a decoder or a
// Go caller may have put in a sample.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func joinName(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// splitName splits "wiredtiger_cache.hit_ratio" into its group prefix and
// its own name.
func splitName(name string) (prefix, leaf string) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

// unitOfPath infers the unit of a field from its own name or, when that
// names none ("opcounters_per_s.query"), from the nearest enclosing name
// that does.
func unitOfPath(name string) string {
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		if u := unitOf(parts[i]); u != "" {
			return u
		}
	}
	return ""
}

// unitOf infers a field's unit from the suffix of its name, as the
// samplers name them ("user_pct", "bytes_in_per_s", "r_await_ms").
func unitOf(leaf string) string {
	l := strings.ToLower(leaf)
	switch {
	case strings.HasSuffix(l, "pct") || strings.HasSuffix(l, "percent"):
		return "%"
	case strings.HasSuffix(l, "ratio"):
		return "ratio"
	case strings.HasSuffix(l, "mb_per_s"):
		return "MB/s"
	case strings.Contains(l, "bytes") && strings.HasSuffix(l, "per_s"):
		return "bytes/s"
	case strings.HasSuffix(l, "per_s") || strings.HasSuffix(l, "_ps") || strings.HasSuffix(l, "iops"):
		return "/s"
	case strings.HasSuffix(l, "_us") || strings.HasSuffix(l, "micros"):
		return "µs"
	case strings.HasSuffix(l, "_ms"):
		return "ms"
	case strings.Contains(l, "bytes"):
		return "bytes"
	}
	return ""
}

// unitTitle is a unit as a chart names it.
func unitTitle(unit string) string {
	switch unit {
	case "":
		return "value"
	case "/s":
		return "per second"
	case "%":
		return "percent"
	}
	return unit
}

// unitTick formats a tick of a metrics chart.
func unitTick(unit string) func(float64) string {
	switch unit {
	case "%":
		return func(v float64) string { return formatCompact(v) + "%" }
	case "bytes", "bytes/s":
		return func(v float64) string {
			if v == 0 {
				return "0"
			}
			return formatBytes(v)
		}
	case "µs":
		return formatLatencyTick
	case "ms":
		return func(v float64) string { return formatLatencyTick(v * 1000) }
	}
	return formatCompact
}

// allValues returns every finite value of the series of g.
func (g *metricGroup) allValues() []float64 {
	var vs []float64
	for _, s := range g.series {
		vs = append(vs, finiteValues(s.points)...)
	}
	return vs
}

// lastTime returns the latest sample time in g.
func (g *metricGroup) lastTime() float64 {
	t := 0.0
	for _, s := range g.series {
		for _, p := range s.points {
			t = math.Max(t, p.t)
		}
	}
	return t
}

// hasValues reports whether any series of g has a value.
func (g *metricGroup) hasValues() bool {
	return slices.ContainsFunc(g.series, func(s metricSeries) bool { return len(finiteValues(s.points)) > 0 })
}
