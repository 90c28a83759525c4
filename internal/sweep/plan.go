// Package sweep runs the same benchmark at every point of a series: it
// plans the points from the properties varied, prepares the data each
// needs (loading it again where a varied property shapes it), runs each
// point's trials through bench, and records every trial's results with
// its place in the sweep. What it has to say comes out as events and
// notices, as values; printing them is its caller's job.
package sweep

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// DataProperties shape the loaded data: varying one of them means each
// point needs its own load.
var DataProperties = analysis.DataProperties

// Dim is one varied property and its values, or several properties
// varied together (linked: readproportion and insertproportion, 0.95 with
// 0.05 then 0.9 with 0.1).
type Dim struct {
	Name   string
	Values []string // nil for Auto; for a linked dimension, values joined by LinkSeparator
	// Auto doubles threadcount from 1 until the caller's NextAuto says
	// the series is done.
	Auto bool
	// Linked are the properties set with Name, each value of the
	// dimension holding theirs after Name's.
	Linked []string
	// Unknown are the names that are no YCSB property: each must be a
	// parameter of the sweep's native workload (NewPlanNative).
	Unknown []string
}

// LinkSeparator joins the values of linked properties in one value of a
// dimension: "0.95:0.05".
const LinkSeparator = ":"

// Names are the properties the dimension sets.
func (d Dim) Names() []string { return append([]string{d.Name}, d.Linked...) }

// With returns m with the dimension's properties set to value v.
func (d Dim) With(m map[string]string, v string) map[string]string {
	if len(d.Linked) == 0 {
		return withValue(m, d.Name, v)
	}
	out := m
	for i, part := range strings.Split(v, LinkSeparator) {
		out = withValue(out, d.Names()[i], part)
	}
	return out
}

// ValueIn is the dimension's value in a point's values.
func (d Dim) ValueIn(values map[string]string) string {
	parts := make([]string, 0, 1+len(d.Linked))
	for _, n := range d.Names() {
		parts = append(parts, values[n])
	}
	return strings.Join(parts, LinkSeparator)
}

// Point is one point of the sweep: a value for each varied property.
type Point struct {
	Index    int // 1-based, in running order; 0 until it runs
	Values   map[string]string
	Label    string
	Settings *bench.Settings // the point's resolved configuration
	Warnings []string        // what resolving it said
	// Native is the native workload the point runs, read with the
	// point's values of its parameters; nil for YCSB's.
	Native *native.File
}

// Series is the points of one series: the values of every varied
// property but the fastest are fixed in a series.
type Series struct {
	Fixed  map[string]string
	Label  string
	Points []*Point // nil for an automatic series
}

// Plan is every series and point of a sweep, resolved before anything
// runs so that a wrong value fails first.
type Plan struct {
	Command string // run | load
	Props   *workload.Properties
	EnvURL  string
	Dims    []Dim
	Varied  []string // the dims' names, in command-line order
	X       string   // the dimension the knee is sought along, which varies fastest
	Series  []*Series
	Planned int // points known up front; 0 with auto
	// DataDim is set when a varied property shapes the data.
	DataDim bool
	// NeedServer is set when a point has no URL: the embedded server
	// serves it.
	NeedServer bool
	// Kind is the latency the sweep's figures are of: intended when
	// every point records it (a -target run), else service.
	Kind analysis.LatencyKind
	// Points lists every planned point (with auto, the first of each
	// series), for what must be known before anything runs.
	Points []*Point
	// Native is the native workload of the sweep, as the command line
	// read it; nil for YCSB's.
	Native *native.File
	shown  map[string]map[string]string
}

// MaxPoints bounds the points of a sweep's matrix. Every point is resolved
// and held before the first runs, so a matrix of a few long --vary lists
// (4 properties of 20 values: 160,000 points) would take gigabytes and
// many seconds before anything ran; 10,000 points of a minute each are
// already a week of measuring.
const MaxPoints = 10_000

// TooManyPointsError is a matrix of more points than MaxPoints.
type TooManyPointsError struct {
	// Points is the matrix's size, or a lower bound of it when Overflow:
	// the product grew past what an int holds.
	Points   int
	Overflow bool
	Dims     []Dim
}

func (e *TooManyPointsError) Error() string {
	sizes := make([]string, 0, len(e.Dims))
	for _, d := range e.Dims {
		if !d.Auto {
			sizes = append(sizes, fmt.Sprint(len(d.Values)))
		}
	}
	count := fmt.Sprint(e.Points)
	if e.Overflow {
		count = "more than " + count
	}
	return fmt.Sprintf("sweep: --vary makes a matrix of %s points (%s values), more than the %d a sweep may plan: vary fewer properties or fewer values",
		count, strings.Join(sizes, " × "), MaxPoints)
}

// CountPoints is the number of points of the matrix dims make (the
// product of their numbers of values; an automatic dimension counts its
// first point only), from the dimensions' sizes alone, so that a matrix
// too large is refused before any point is built: a *TooManyPointsError
// past MaxPoints.
func CountPoints(dims []Dim) (int, error) {
	const maxInt = int(^uint(0) >> 1)
	n, overflow := 1, false
	for _, d := range dims {
		if d.Auto || len(d.Values) == 0 {
			continue
		}
		if len(d.Values) > maxInt/n {
			overflow = true
			break
		}
		n *= len(d.Values)
	}
	if overflow || n > MaxPoints {
		return 0, &TooManyPointsError{Points: n, Overflow: overflow, Dims: dims}
	}
	return n, nil
}

// NewPlan lists the series and points of a sweep of command over props
// (the sweep's own properties, before any point's values), in running
// order, and resolves every point. envURL stands in for a missing
// mongodb.url, as $MONGOBENCH_URL does. Errors are bench.InputErrors
// naming the point, a *TooManyPointsError before any point is built, or
// ctx's error when it ends first (planning thousands of points takes
// seconds).
func NewPlan(ctx context.Context, command string, props *workload.Properties, envURL string, dims []Dim) (*Plan, error) {
	return NewPlanNative(ctx, command, props, envURL, dims, nil)
}

// NewPlanNative is NewPlan for a sweep of the native workload nf (nil for
// YCSB's): a varied name that is no property must be a parameter of nf,
// and each point runs nf read with its values of them. A varied parameter
// counts as shaping the data, since it may size or fill a collection: its
// points each load their own.
func NewPlanNative(ctx context.Context, command string, props *workload.Properties, envURL string, dims []Dim, nf *native.File) (*Plan, error) {
	if _, err := CountPoints(dims); err != nil {
		return nil, err
	}
	pl := &Plan{Command: command, Props: props, EnvURL: envURL, Dims: dims, Native: nf}
	for _, d := range dims {
		for _, n := range d.Unknown {
			if nf == nil || !nf.HasParameter(n) {
				e := &UnknownPropertyError{Name: n}
				if nf != nil {
					for _, p := range nf.Parameters {
						e.Parameters = append(e.Parameters, p.Name)
					}
				}
				return nil, fmt.Errorf("sweep: %w", e)
			}
		}
		for _, n := range d.Names() {
			pl.Varied = append(pl.Varied, n)
			pl.DataDim = pl.DataDim || slices.Contains(DataProperties, n) || slices.Contains(d.Unknown, n)
		}
	}
	pl.X = analysis.XDim(pl.Varied)
	pl.shown = secretNames(dims)
	var outer []Dim
	var inner *Dim
	for i := range dims {
		if slices.Contains(dims[i].Names(), pl.X) {
			inner = &dims[i]
		} else {
			outer = append(outer, dims[i])
		}
	}
	combos := []map[string]string{{}}
	for _, d := range outer {
		var next []map[string]string
		for _, c := range combos {
			for _, v := range d.Values {
				next = append(next, d.With(c, v))
			}
		}
		combos = next
	}
	n := 0
	for _, c := range combos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sr := &Series{Fixed: c, Label: pl.label(c)}
		switch {
		case inner == nil:
			p, err := pl.Point(c)
			if err != nil {
				return nil, err
			}
			sr.Points = append(sr.Points, p)
		case inner.Auto:
			// Later points differ only in threads, which cannot make a
			// valid configuration invalid below the thread limit.
			p, err := pl.Point(withValue(c, inner.Name, "1"))
			if err != nil {
				return nil, err
			}
			pl.Points = append(pl.Points, p)
		default:
			for _, v := range inner.Values {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				p, err := pl.Point(inner.With(c, v))
				if err != nil {
					return nil, err
				}
				sr.Points = append(sr.Points, p)
			}
		}
		n += len(sr.Points)
		pl.Points = append(pl.Points, sr.Points...)
		pl.Series = append(pl.Series, sr)
	}
	if inner == nil || !inner.Auto {
		pl.Planned = n
	}
	pl.Kind = analysis.IntendedLatency
	for _, p := range pl.Points {
		pl.NeedServer = pl.NeedServer || p.Settings.URL == ""
		if !p.Settings.Spec.RecordIntended() {
			pl.Kind = analysis.ServiceLatency
		}
	}
	return pl, nil
}

// Point resolves the point of the given values: the sweep's properties
// with the point's values set over them.
func (pl *Plan) Point(values map[string]string) (*Point, error) {
	p := &Point{Values: values, Label: pl.label(values)}
	props := pl.Props.Clone()
	params := map[string]string{}
	for _, name := range pl.Varied {
		v, ok := values[name]
		switch {
		case !ok:
		case pl.Native != nil && !workload.IsKnown(name):
			params[name] = v
		default:
			props.Set(name, v, "-p")
		}
	}
	err := pl.pointNative(p, props, params)
	var s *bench.Settings
	var warnings []string
	if err == nil {
		s, warnings, err = resolve(pl.Command, props, pl.EnvURL)
	}
	if err != nil {
		if p.Label == "" {
			return nil, fmt.Errorf("sweep: %w", err)
		}
		return nil, fmt.Errorf("sweep point %s: %w", p.Label, err)
	}
	p.Settings, p.Warnings = s, warnings
	return p, nil
}

// pointNative reads the sweep's native workload with the point's values
// of its parameters, and sets what its phase stands for (threads, rate,
// length, table) over props where they still hold the file's values: the
// command line's -threads, -target and -p, and the point's own values,
// win over the file's, as they do for a load or run.
func (pl *Plan) pointNative(p *Point, props *workload.Properties, params map[string]string) error {
	nf := pl.Native
	if nf == nil {
		return nil
	}
	if len(params) > 0 {
		var err error
		if nf, err = nf.WithParameters(params); err != nil {
			return err
		}
	}
	p.Native = nf
	phase, err := native.PhaseProperties(nf, pl.Command)
	if err != nil {
		return err
	}
	for _, kv := range phase {
		if o := props.Origin(kv.Key); o == "" || o == pl.Native.Path {
			props.Set(kv.Key, kv.Value, nf.Path)
		}
	}
	return nil
}

// resolve resolves a phase's settings from props.
func resolve(command string, props *workload.Properties, envURL string) (*bench.Settings, []string, error) {
	spec, warnings, err := bench.ResolveSpec(command, props)
	if err != nil {
		return nil, warnings, err
	}
	s, more, err := bench.ResolveSettings(command, props, spec, envURL)
	return s, append(warnings, more...), err
}

func withValue(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for mk, mv := range m {
		out[mk] = mv
	}
	out[k] = v
	return out
}

// label names a point by its values in command-line order.
func (pl *Plan) label(values map[string]string) string {
	m := results.SweepMark{Varied: pl.Varied, Point: pl.Show(values)}
	return m.Label()
}

// secretNames gives the values of a dimension that carry a secret (a URL
// with a password) the names url1, url2, ... (value1, ... for other
// properties), in the order given. A point's values name it in progress
// lines, the table, results files, the store and file names; the redacted
// URLs could not stand in, as two URLs that differ only in their passwords
// would name two points alike.
func secretNames(dims []Dim) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, d := range dims {
		if !slices.ContainsFunc(d.Values, redact.Changed) {
			continue
		}
		prefix := "value"
		if d.Name == "mongodb.url" {
			prefix = "url"
		}
		names := make(map[string]string, len(d.Values))
		for i, v := range d.Values {
			names[v] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		out[d.Name] = names
	}
	return out
}

// SecretName is the name a varied value that carries a secret is shown
// by; ok is false for the others, which are shown as they are.
func (pl *Plan) SecretName(dim, value string) (name string, ok bool) {
	name, ok = pl.shown[dim][value]
	return name, ok
}

// Show returns a point's values as they may be shown and written: those
// that carry a secret replaced by their names.
func (pl *Plan) Show(values map[string]string) map[string]string {
	if len(pl.shown) == 0 {
		return values
	}
	out := make(map[string]string, len(values))
	for k, v := range values {
		if name, ok := pl.shown[k][v]; ok {
			v = name
		}
		out[k] = v
	}
	return out
}

// NoReloadWarning says, when reload=false keeps a run sweep from loading
// the data its varied properties shape, that every point runs on the data
// loaded for the first: the user asked for it (to keep a large data set
// between points, say), but the table would otherwise look like a series
// over data sizes it never measured. "" when nothing needs saying.
func NoReloadWarning(pl *Plan, reload *bool) string {
	if pl.Command != "run" || reload == nil || *reload {
		return ""
	}
	// table and mongodb.url pick where the data lives, and a sweep still
	// loads each empty collection once: they get data of their own.
	perLocation := false
	var names, first []string
	for _, d := range pl.Dims {
		switch {
		case d.Name == "table" || d.Name == "mongodb.url":
			perLocation = perLocation || len(d.Values) > 1
		case slices.Contains(DataProperties, d.Name) && len(d.Values) > 1:
			// The first point to run takes every property's first value.
			names = append(names, d.Name)
			first = append(first, d.Name+"="+d.Values[0])
		}
	}
	if len(names) == 0 {
		return ""
	}
	which := "the first point"
	if perLocation {
		which = "the first point on its collection"
	}
	return fmt.Sprintf("--no-reload with --vary %s: every point runs on the data loaded for %s (%s)",
		strings.Join(names, ", "), which, strings.Join(first, " "))
}
