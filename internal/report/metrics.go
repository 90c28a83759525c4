package report

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// Limits on what a metrics section may hold, so that a results file from a
// sampler gone wrong (or from anyone) cannot make a report of gigabytes.
const (
	maxMetricSeries   = 400
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

// metricsData is one metrics section (server or host) read from its samples.
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

// metricSample is one sample of a metrics series: its time in seconds from
// the run's start, and the figures of its interval (a metrics package
// type) under the name the results file gives them.
type metricSample struct {
	t    float64
	name string
	v    any
}

// serverSamples and hostSamples are a results file's series as the charts
// read them.
func serverSamples(series []results.ServerSample) []metricSample {
	out := make([]metricSample, len(series))
	for i, s := range series {
		out[i] = metricSample{t: s.T, name: "server", v: s.Server}
	}
	return out
}

func hostSamples(series []results.HostSample) []metricSample {
	out := make([]metricSample, len(series))
	for i, s := range series {
		out[i] = metricSample{t: s.T, name: "host", v: s.Host}
	}
	return out
}

// parseMetrics reads a metrics series. Every number in the samples is a
// series named by the path of JSON keys the results file writes it under
// ("server.wiredtiger_cache.hit_ratio"), so that a new figure of the
// metrics package needs no change here; elements of a list are keyed by
// their "name" field when they have one ("host.disks.sda.iops"), by index
// otherwise.
func parseMetrics(rows []metricSample) *metricsData {
	d := &metricsData{}
	type field struct {
		values  []tsPoint
		numeric bool
	}
	fields := map[string]*field{}
	var order []string
	last, cut := sliverLast(rows)
	d.cut = cut
	for i, row := range rows {
		if !isFinite(row.t) {
			d.skipped++
			continue
		}
		if cut > 0 && i == last {
			continue
		}
		flat := map[string]float64{}
		flatten(row.name, reflect.ValueOf(row.v), func(name string, v float64, isNum bool) {
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
			f.values = append(f.values, tsPoint{t: row.t, v: v})
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
	return d
}

// sliverLast finds a last sample taken so soon after the one before it
// (under a tenth of the usual step) that it covers only the run's stop: the
// rates it holds are over a few milliseconds, and charted they drew cliffs
// to 0 or 100% at the end of every chart. It returns the sample's index
// and its window in seconds, or a window of 0 when there is no sliver.
func sliverLast(rows []metricSample) (int, float64) {
	type sample struct {
		i int
		t float64
	}
	var ts []sample
	for i, row := range rows {
		if isFinite(row.t) {
			ts = append(ts, sample{i, row.t})
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

var valueType = reflect.TypeFor[metrics.Value]()

// flatten calls emit for every number (isNum) and every null (!isNum)
// under v, named by its path, as the results file writes v: a field its
// JSON leaves out (omitempty, omitzero) is no series, and an absent
// metrics.Value, a nil pointer or a nil list written as null is one
// without a value. Strings and booleans are not series.
func flatten(name string, v reflect.Value, emit func(name string, v float64, isNum bool)) {
	if !v.IsValid() {
		emit(name, 0, false)
		return
	}
	if v.Type() == valueType {
		if f, ok := v.Interface().(metrics.Value).Get(); ok && isFinite(f) {
			emit(name, f, true)
		} else {
			emit(name, 0, false)
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			emit(name, 0, false)
			return
		}
		flatten(name, v.Elem(), emit)
	case reflect.Struct:
		for _, f := range jsonFields(v) {
			flatten(joinName(name, f.name), f.v, emit)
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			emit(name, 0, false)
			return
		}
		for i := range v.Len() {
			el := v.Index(i)
			key := elementName(el)
			if key == "" {
				key = strconv.Itoa(i)
			}
			flatten(joinName(name, key), el, emit)
		}
	case reflect.Map:
		if v.IsNil() {
			emit(name, 0, false)
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			flatten(joinName(name, fmt.Sprint(k)), v.MapIndex(k), emit)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		emit(name, float64(v.Int()), true)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		emit(name, float64(v.Uint()), true)
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); isFinite(f) {
			emit(name, f, true)
		} else {
			emit(name, 0, false)
		}
	}
}

// namedValue is a struct field under its JSON name.
type namedValue struct {
	name string
	v    reflect.Value
}

// jsonFields returns the fields of struct v that its JSON holds, under
// their keys and in the keys' order, as the charts have always listed them.
func jsonFields(v reflect.Value) []namedValue {
	var out []namedValue
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fv := v.Field(i)
		if omitted(fv, opts) {
			continue
		}
		out = append(out, namedValue{name, fv})
	}
	slices.SortFunc(out, func(a, b namedValue) int { return strings.Compare(a.name, b.name) })
	return out
}

// omitted reports whether encoding/json leaves a field with these tag
// options out.
func omitted(v reflect.Value, opts string) bool {
	for _, o := range strings.Split(opts, ",") {
		switch o {
		case "omitempty":
			switch v.Kind() {
			case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
				if v.Len() == 0 {
					return true
				}
			case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
				reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
				if v.IsZero() {
					return true
				}
			}
		case "omitzero":
			if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
				if z.IsZero() {
					return true
				}
			} else if v.IsZero() {
				return true
			}
		}
	}
	return false
}

// elementName is the "name" field of a list's element, empty when it has
// none.
func elementName(el reflect.Value) string {
	for el.Kind() == reflect.Pointer || el.Kind() == reflect.Interface {
		if el.IsNil() {
			return ""
		}
		el = el.Elem()
	}
	if el.Kind() != reflect.Struct {
		return ""
	}
	for _, f := range jsonFields(el) {
		if f.name == "name" && f.v.Kind() == reflect.String {
			return f.v.String()
		}
	}
	return ""
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
