// Package calibrate measures mongobench's own ceiling: it runs a workload
// against the wire-protocol null server, which answers at once, so that all
// the time and CPU a run takes is the client's. Each point is measured twice
// in the same run on the same machine: through mongobench's whole path
// (workload, runner, binding, measurement) and through a bare loop of the
// official driver, the floor no Go client can go below. The difference is
// mongobench's overhead.
package calibrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/workloads"
)

// Defaults of Options.
const (
	DefaultWorkload    = "workloadc"
	DefaultOperations  = 100_000
	DefaultRecordCount = 20_000
	// RefThreads is the thread count of the reference point: workload a and
	// the load phase are compared with the sweep's figure at this count.
	RefThreads = 16
)

// DefaultThreads are the thread counts of the sweep.
var DefaultThreads = []int{1, 16, 64}

// The goals calibrate checks, from the issue that asked for it.
const (
	// MaxOverhead is the most mongobench's CPU per operation may be, as a
	// multiple of the bare driver loop's, at 1 and at 16 threads.
	MaxOverhead = 1.2
	// MaxVariantRatio is the most workload a and the load phase may cost
	// per operation, as a multiple of the 16-thread sweep figure.
	MaxVariantRatio = 1.5
	// MaxRSSBytes bounds the resident memory at MemoryThreads threads.
	MaxRSSBytes   = 100 << 20
	MemoryThreads = 1000
	// MaxLeanRatio is the most the lean path's CPU per operation may be,
	// as a multiple of the bare driver loop's, at 1 and at 16 threads.
	MaxLeanRatio = 0.5
	// MaxRSSRatio bounds each path's peak resident memory at
	// MemoryThreads threads, as a multiple of the bare driver loop's.
	MaxRSSRatio = 1.1
)

// ServerMode says which null server a calibration used.
type ServerMode string

// The null servers calibrate can use.
const (
	// ServerChild is a child process (mongobench server --null): its CPU is
	// not in the client's getrusage figures.
	ServerChild ServerMode = "child process"
	// ServerInProcess runs in the client's own process: its CPU is counted
	// as the client's, so figures are higher than with ServerChild. For
	// tests, where there is no mongobench executable to start.
	ServerInProcess ServerMode = "in-process"
	// ServerExternal is one the caller started (Options.ServerURI).
	ServerExternal ServerMode = "external"
)

// Options configure a calibration. The zero value calibrates workloadc at
// 1, 16 and 64 threads, 100,000 operations per measurement, against a null
// server in a child process.
type Options struct {
	// Workload names the workload in the report; Properties holds its
	// properties (its -P files, merged). Nil Properties means the built-in
	// workloadc.
	Workload   string
	Properties *workload.Properties
	// Overrides are -p settings. They win over the workload file and the
	// calibration's own sizes, except for threadcount and operationcount,
	// which calibrate sets per measurement from Threads and Operations.
	Overrides map[string]string

	Threads     []int // the sweep; default DefaultThreads
	Operations  int64 // per measurement; default DefaultOperations
	RecordCount int64 // the key space of run phases; default DefaultRecordCount
	// Repeats measures every point this many times; the report gives the
	// medians. Default 1.
	Repeats int
	// SkipExtras leaves out workload a and the load phase at RefThreads.
	SkipExtras bool

	// ServerURI, when set, is the null server to use (ServerExternal).
	ServerURI string
	// Server selects ServerChild (the default) or ServerInProcess when
	// ServerURI is empty.
	Server ServerMode
	// ServerCommand starts the child server; its first line on stdout must
	// be the server's URI. Default: this executable with
	// "server --null --addr 127.0.0.1:0".
	ServerCommand []string
	// URLOptions are connection-string options added to the server's URI
	// for both paths ("compressors=zlib&retryReads=false"), to measure what
	// driver settings cost.
	URLOptions string

	// Progress, when not nil, receives one line per measurement.
	Progress io.Writer
}

// Validate checks the options and fills in defaults.
func (o *Options) Validate() error {
	if o.Workload == "" {
		o.Workload = DefaultWorkload
	}
	if len(o.Threads) == 0 {
		o.Threads = slices.Clone(DefaultThreads)
	}
	for _, n := range o.Threads {
		if n < 1 || n > 1<<20 {
			return fmt.Errorf("threads %d is invalid: expected whole numbers from 1 to %d", n, 1<<20)
		}
	}
	switch {
	case o.Operations == 0:
		o.Operations = DefaultOperations
	case o.Operations < 0:
		return fmt.Errorf("operationcount=%d is invalid: expected a whole number > 0", o.Operations)
	}
	switch {
	case o.RecordCount == 0:
		o.RecordCount = DefaultRecordCount
	case o.RecordCount < 0:
		return fmt.Errorf("recordcount=%d is invalid: expected a whole number > 0", o.RecordCount)
	}
	switch {
	case o.Repeats == 0:
		o.Repeats = 1
	case o.Repeats < 0 || o.Repeats > 1000:
		return fmt.Errorf("repeat %d is invalid: expected a whole number from 1 to 1000", o.Repeats)
	}
	switch o.Server {
	case "":
		o.Server = ServerChild
	case ServerChild, ServerInProcess:
	case ServerExternal:
		if o.ServerURI == "" {
			return errors.New("an external null server needs its URI")
		}
	default:
		return fmt.Errorf("server %q is invalid: expected %q or %q", o.Server, ServerChild, ServerInProcess)
	}
	if o.ServerURI != "" {
		o.Server = ServerExternal
		if err := mongo.ValidateURL(o.ServerURI); err != nil {
			return err
		}
	}
	if strings.ContainsAny(o.URLOptions, "?/ ") {
		return fmt.Errorf("url options %q are invalid: expected name=value pairs joined by &", o.URLOptions)
	}
	// The options are checked on a stand-in address when the server's is
	// not known yet.
	base := o.ServerURI
	if base == "" {
		base = "mongodb://127.0.0.1:1/?directConnection=true"
	}
	if err := mongo.ValidateURL(withOptions(base, o.URLOptions)); err != nil {
		return fmt.Errorf("url options %q: %w", o.URLOptions, err)
	}
	sweep := slices.Clone(o.Threads)
	slices.Sort(sweep)
	o.Threads = slices.Compact(sweep)
	if !o.SkipExtras && !slices.Contains(o.Threads, RefThreads) {
		o.Threads = append(o.Threads, RefThreads)
		slices.Sort(o.Threads)
	}
	// Every point must resolve now, so a bad property fails before anything
	// is started.
	for _, pt := range o.points() {
		if _, err := o.spec(pt, pt.threads); err != nil {
			return err
		}
	}
	return nil
}

// point is one thing to measure.
type point struct {
	name      string
	workload  string // "" = the sweep's own workload
	threads   int
	load      bool
	batchSize int
	bare      bool // measure the bare driver loop beside it
	extra     bool
	// native runs the phase of a native workload in place of the spec's
	// YCSB operations, for a comparison of the two's cost.
	native *native.File
}

func (o *Options) points() []point {
	var pts []point
	for _, n := range o.Threads {
		pts = append(pts, point{name: o.Workload, threads: n, bare: true})
	}
	if o.SkipExtras {
		return pts
	}
	if o.Workload != "workloada" {
		pts = append(pts, point{name: "workloada", workload: "workloada", threads: RefThreads, extra: true})
	}
	for _, bs := range []int{1, 100} {
		pts = append(pts, point{name: "load batchsize=" + strconv.Itoa(bs), threads: RefThreads, load: true, batchSize: bs, extra: true})
	}
	return pts
}

// spec resolves the workload of pt at threads threads.
func (o *Options) spec(pt point, threads int) (*workload.Spec, error) {
	var props *workload.Properties
	if pt.workload == "" && o.Properties != nil {
		props = o.Properties.Clone()
	} else {
		name := pt.workload
		if name == "" {
			name = DefaultWorkload
		}
		data, err := workloads.Files.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("built-in workload %s: %w", name, err)
		}
		if props, err = workload.Parse(strings.NewReader(string(data)), name); err != nil {
			return nil, err
		}
	}
	// The workload file's sizes are for a real database; the calibration
	// has its own, which -p still overrides.
	props.Set("recordcount", strconv.FormatInt(o.RecordCount, 10), "calibrate")
	for _, k := range slices.Sorted(maps.Keys(o.Overrides)) {
		props.Set(k, o.Overrides[k], "-p")
	}
	props.Set("threadcount", strconv.Itoa(threads), "calibrate")
	props.Set("operationcount", strconv.FormatInt(o.Operations, 10), "calibrate")
	if pt.load {
		// A load inserts Operations records, from key 0.
		n := strconv.FormatInt(o.Operations, 10)
		props.Set("recordcount", n, "calibrate")
		props.Set("insertstart", "0", "calibrate")
		props.Set("insertcount", n, "calibrate")
	}
	props.Set("dotransactions", strconv.FormatBool(!pt.load), "calibrate")
	spec, _, err := workload.Resolve(props, !pt.load)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pt.name, err)
	}
	return spec, nil
}

// Report is what a calibration measured. It is written as a table by
// WriteReport and as JSON as it is.
type Report struct {
	Workload    string     `json:"workload"`
	Operations  int64      `json:"operations_per_measurement"`
	RecordCount int64      `json:"recordcount"`
	FieldCount  int        `json:"fieldcount"`
	FieldLength int64      `json:"fieldlength"`
	Repeats     int        `json:"repeats"`
	Server      ServerMode `json:"server"`
	ServerURI   string     `json:"server_uri"`
	URLOptions  string     `json:"url_options,omitempty"`
	Host        Host       `json:"host"`
	Start       time.Time  `json:"start"`
	End         time.Time  `json:"end"`
	// Sweep holds the workload at each thread count, with the bare loop.
	Sweep []Point `json:"sweep"`
	// Extras holds workload a and the load phase at RefThreads.
	Extras []Point `json:"extras,omitempty"`
	// OpenLoop is the open loop beside the closed loop, measured with the
	// extras.
	OpenLoop *OpenLoop `json:"open_loop,omitempty"`
	Goals    []Goal    `json:"goals"`
	// LeanFallbacks names what the lean path left to the driver's under
	// the calibration's options.
	LeanFallbacks []string `json:"lean_fallbacks,omitempty"`
	// Partial is true when the calibration was interrupted: the points
	// present were measured in full, the rest are missing.
	Partial bool `json:"partial,omitempty"`
}

// Host describes the machine and the process that measured.
type Host struct {
	CPUs          int     `json:"cpus"`
	GOMAXPROCS    int     `json:"gomaxprocs"`
	CgroupCPUs    float64 `json:"cgroup_cpus,omitempty"`
	AllowedCPUs   float64 `json:"allowed_cpus"`
	GOGC          string  `json:"gogc,omitempty"`
	GoVersion     string  `json:"go_version"`
	OS            string  `json:"os"`
	Arch          string  `json:"arch"`
	DriverVersion string  `json:"driver_version,omitempty"`
}

// Point is one measured point: medians over the repeats, and every trial.
type Point struct {
	Name      string `json:"name"`
	Phase     string `json:"phase"` // run | load
	Threads   int    `json:"threads"`
	BatchSize int    `json:"batchsize,omitempty"`

	Mongobench Figures  `json:"mongobench"`
	Bare       *Figures `json:"bare,omitempty"`
	// OverheadPct is mongobench's CPU per operation over the bare loop's,
	// minus one, in percent (medians of each).
	OverheadPct *float64 `json:"overhead_pct,omitempty"`
	// VsRef is an extra point's CPU per operation over the sweep's at
	// RefThreads.
	VsRef *float64 `json:"vs_ref,omitempty"`

	// Lean is the same measurement on the lean wire path
	// (mongodb.path=lean); Mongobench is on the driver's.
	Lean *Figures `json:"lean,omitempty"`
	// LeanOverheadPct is the lean path's CPU per operation over the bare
	// loop's, minus one, in percent.
	LeanOverheadPct *float64 `json:"lean_overhead_pct,omitempty"`

	MongobenchTrials []Figures `json:"mongobench_trials"`
	LeanTrials       []Figures `json:"lean_trials,omitempty"`
	BareTrials       []Figures `json:"bare_trials,omitempty"`
}

// Figures are one measurement's results (or the medians of several).
type Figures struct {
	Operations int64   `json:"operations"`
	Failed     int64   `json:"failed"`
	Seconds    float64 `json:"seconds"`
	OpsPerSec  float64 `json:"ops_per_sec"`
	// CPUPerOpUs is the client process's user+system CPU time per
	// operation, in µs: everything the process did, the driver, the
	// runtime and the garbage collector included.
	CPUPerOpUs    float64 `json:"cpu_per_op_us"`
	UserPerOpUs   float64 `json:"user_per_op_us"`
	SystemPerOpUs float64 `json:"system_per_op_us"`
	// ServerCPUPerOpUs is the child server's CPU time per operation (at
	// 10 ms resolution); 0 when the server is not a child process.
	ServerCPUPerOpUs float64 `json:"server_cpu_per_op_us,omitempty"`
	P50Us            int64   `json:"p50_us"`
	P99Us            int64   `json:"p99_us"`
	// LagP50Us and LagP99Us are an open loop's schedule lag: how long
	// after its due time an operation started.
	LagP50Us int64 `json:"schedule_lag_p50_us,omitempty"`
	LagP99Us int64 `json:"schedule_lag_p99_us,omitempty"`
	// PeakRSSBytes is the largest resident set size sampled during the
	// measurement.
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
	// Utilization is the share of the allowed CPUs the client used.
	Utilization float64 `json:"utilization"`
}

// Goal is one goal and whether the calibration shows it holds.
type Goal struct {
	Name     string  `json:"name"`
	Measured bool    `json:"measured"`
	Holds    bool    `json:"holds"`
	Value    float64 `json:"value,omitempty"`
	Limit    float64 `json:"limit,omitempty"`
	Detail   string  `json:"detail"`
}

// Run calibrates. When ctx is cancelled it returns the report of the points
// measured so far, marked partial, with ctx's error.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	srv, err := startServer(ctx, &opts)
	if err != nil {
		return nil, err
	}
	defer srv.close()
	url := withOptions(srv.uri, opts.URLOptions)
	if err := mongo.ValidateURL(url); err != nil {
		return nil, err
	}

	limits := selfmon.ReadLimits()
	rep := &Report{
		Workload:    opts.Workload,
		Operations:  opts.Operations,
		RecordCount: opts.RecordCount,
		Repeats:     opts.Repeats,
		Server:      srv.mode,
		ServerURI:   redact.URL(srv.uri),
		URLOptions:  redact.URL(opts.URLOptions),
		Host: Host{
			CPUs: limits.NumCPU, GOMAXPROCS: limits.GOMAXPROCS, CgroupCPUs: limits.CgroupCPUs,
			AllowedCPUs: limits.Allowed, GOGC: os.Getenv("GOGC"),
			GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
			DriverVersion: driverVersion(),
		},
		Start: time.Now(),
	}
	if spec, err := opts.spec(point{name: opts.Workload}, 1); err == nil {
		rep.FieldCount, rep.FieldLength = spec.FieldCount, spec.FieldLength
	}
	m := &measurer{url: url, server: srv, progress: opts.Progress}
	partial := func(err error) (*Report, error) {
		rep.Partial = true
		rep.LeanFallbacks = m.leanFallbacks
		rep.finish()
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		return rep, err
	}
	if err := m.warmUp(ctx, &opts); err != nil {
		return partial(err)
	}
	for _, pt := range opts.points() {
		p, err := m.measurePoint(ctx, &opts, pt)
		if err != nil {
			return partial(err)
		}
		if pt.extra {
			rep.Extras = append(rep.Extras, *p)
		} else {
			rep.Sweep = append(rep.Sweep, *p)
		}
	}
	if !opts.SkipExtras {
		if rep.OpenLoop, err = m.measureOpenLoop(ctx, &opts); err != nil {
			return partial(err)
		}
	}
	rep.LeanFallbacks = m.leanFallbacks
	rep.finish()
	return rep, nil
}

// finish compares the extra points with the reference and judges the
// goals.
func (r *Report) finish() {
	r.End = time.Now()
	if ref := r.sweepAt(RefThreads); ref != nil && ref.Mongobench.CPUPerOpUs > 0 {
		for i := range r.Extras {
			v := r.Extras[i].Mongobench.CPUPerOpUs / ref.Mongobench.CPUPerOpUs
			r.Extras[i].VsRef = &v
		}
	}
	r.Goals = goals(r)
}

// withOptions adds connection-string options to uri.
func withOptions(uri, opts string) string {
	opts = strings.Trim(opts, "&")
	if opts == "" {
		return uri
	}
	if strings.Contains(uri, "?") {
		return uri + "&" + opts
	}
	rest := uri[strings.Index(uri, "://")+3:]
	if strings.Contains(rest, "/") {
		return uri + "?" + opts
	}
	return uri + "/?" + opts
}

// driverVersion returns the MongoDB driver's module version from the build
// information.
func driverVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path == "go.mongodb.org/mongo-driver/v2" {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return ""
}

// goals judges the report against the goals.
func goals(r *Report) []Goal {
	var out []Goal
	for _, threads := range []int{RefThreads, 1} {
		name := fmt.Sprintf("CPU/op at %d thread%s ≤ %.1f× the bare driver loop", threads, plural(threads), MaxOverhead)
		p := r.sweepAt(threads)
		if p == nil || p.Bare == nil || p.Bare.CPUPerOpUs <= 0 {
			out = append(out, Goal{Name: name, Detail: fmt.Sprintf("add %d to -threads", threads)})
			continue
		}
		ratio := p.Mongobench.CPUPerOpUs / p.Bare.CPUPerOpUs
		out = append(out, Goal{
			Name: name, Measured: true, Holds: ratio <= MaxOverhead, Value: ratio, Limit: MaxOverhead,
			Detail: fmt.Sprintf("%s: mongobench %.1f µs/op, bare %.1f µs/op: %.2f×", p.Name, p.Mongobench.CPUPerOpUs, p.Bare.CPUPerOpUs, ratio),
		})
	}
	for _, threads := range []int{RefThreads, 1} {
		name := fmt.Sprintf("lean path CPU/op at %d thread%s ≤ %.1f× the bare driver loop", threads, plural(threads), MaxLeanRatio)
		p := r.sweepAt(threads)
		if p == nil || p.Bare == nil || p.Bare.CPUPerOpUs <= 0 || p.Lean == nil {
			out = append(out, Goal{Name: name, Detail: fmt.Sprintf("add %d to -threads", threads)})
			continue
		}
		ratio := p.Lean.CPUPerOpUs / p.Bare.CPUPerOpUs
		out = append(out, Goal{
			Name: name, Measured: true, Holds: ratio <= MaxLeanRatio, Value: ratio, Limit: MaxLeanRatio,
			Detail: fmt.Sprintf("%s: lean %.1f µs/op, bare %.1f µs/op: %.2f×", p.Name, p.Lean.CPUPerOpUs, p.Bare.CPUPerOpUs, ratio),
		})
	}
	ref := r.sweepAt(RefThreads)
	for _, e := range r.Extras {
		name := fmt.Sprintf("%s CPU/op at %d threads ≤ %.1f× the %d-thread %s figure", e.Name, RefThreads, MaxVariantRatio, RefThreads, r.Workload)
		if ref == nil || ref.Mongobench.CPUPerOpUs <= 0 || e.VsRef == nil {
			out = append(out, Goal{Name: name, Detail: fmt.Sprintf("no %d-thread point to compare with", RefThreads)})
			continue
		}
		out = append(out, Goal{
			Name: name, Measured: true, Holds: *e.VsRef <= MaxVariantRatio, Value: *e.VsRef, Limit: MaxVariantRatio,
			Detail: fmt.Sprintf("%.1f µs/op vs %.1f µs/op: %.2f×", e.Mongobench.CPUPerOpUs, ref.Mongobench.CPUPerOpUs, *e.VsRef),
		})
	}
	memName := fmt.Sprintf("peak RSS ≤ %d MiB at %d threads", MaxRSSBytes>>20, MemoryThreads)
	var mem *Point
	for i := range r.Sweep {
		if r.Sweep[i].Threads >= MemoryThreads {
			mem = &r.Sweep[i]
			break
		}
	}
	if mem == nil {
		out = append(out, Goal{Name: memName, Detail: fmt.Sprintf("add %d to -threads", MemoryThreads)})
	} else {
		mib := float64(mem.Mongobench.PeakRSSBytes) / (1 << 20)
		out = append(out, Goal{
			Name: memName, Measured: true, Holds: mem.Mongobench.PeakRSSBytes <= MaxRSSBytes,
			Value: mib, Limit: MaxRSSBytes >> 20,
			Detail: fmt.Sprintf("%d threads: %.1f MiB", mem.Threads, mib),
		})
	}
	for _, path := range []string{"driver", "lean"} {
		name := fmt.Sprintf("%s path peak RSS at %d threads ≤ %.1f× the bare driver loop's", path, MemoryThreads, MaxRSSRatio)
		if mem == nil || mem.Bare == nil || mem.Bare.PeakRSSBytes <= 0 || (path == "lean" && mem.Lean == nil) {
			out = append(out, Goal{Name: name, Detail: fmt.Sprintf("add %d to -threads", MemoryThreads)})
			continue
		}
		f := mem.Mongobench
		if path == "lean" {
			f = *mem.Lean
		}
		ratio := float64(f.PeakRSSBytes) / float64(mem.Bare.PeakRSSBytes)
		out = append(out, Goal{
			Name: name, Measured: true, Holds: ratio <= MaxRSSRatio, Value: ratio, Limit: MaxRSSRatio,
			Detail: fmt.Sprintf("%.1f MiB, bare %.1f MiB: %.2f×", float64(f.PeakRSSBytes)/(1<<20), float64(mem.Bare.PeakRSSBytes)/(1<<20), ratio),
		})
	}
	out = append(out, openLoopGoals(r.OpenLoop)...)
	out = append(out, Goal{
		Name:   "memory flat (±10%) from 10^5 to 10^7 operations",
		Detail: "beyond calibrate's runs: scripts/memory.sh compares the peak RSS of runs of growing -operationcount",
	})
	return out
}

func (r *Report) sweepAt(threads int) *Point {
	for i := range r.Sweep {
		if r.Sweep[i].Threads == threads {
			return &r.Sweep[i]
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
