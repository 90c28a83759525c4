// Package promsink serves what a phase measures as Prometheus metrics
// while it runs. It is a bench.Sink: it is fed each closed interval off
// the collector's goroutine and keeps cumulative figures, so the endpoint
// costs the workers nothing and every scrape sees the run as of its last
// closed interval, all series from the same one.
//
// The latency histograms are HDR histograms added up interval by
// interval and exposed both ways Prometheus reads them: classic buckets
// (a fixed list of bounds, for every Prometheus) and native, exponential
// buckets (for a Prometheus that scrapes them, through the protobuf
// format).
package promsink

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// Options say which run, and which part of it, this process is: every
// series carries them as labels (run_id, label, workload, part), so that
// one Prometheus and one dashboard hold several runs apart.
type Options struct {
	// Part is the index of this process's part, from 0 (as Kubernetes'
	// completion index); Parts is how many parts the run has, 1 when it
	// is not partitioned.
	Part, Parts int
	// RunID names the run (the parts of a distributed run share it);
	// Label is the run's --label; Workload names the workload it runs.
	RunID, Label, Workload string
}

// The labels every series carries, from Options.
const (
	RunIDLabel    = "run_id"
	LabelLabel    = "label"
	WorkloadLabel = "workload"
	PartLabel     = "part"
)

// Labels are the constant labels opts puts on every series.
func (opts Options) Labels() prometheus.Labels {
	return prometheus.Labels{
		PartLabel:     strconv.Itoa(opts.Part),
		RunIDLabel:    opts.RunID,
		LabelLabel:    opts.Label,
		WorkloadLabel: opts.Workload,
	}
}

// The metrics' names, as dashboards and alerts name them.
const (
	OperationsName      = "mongobench_operations_total"
	LatencyName         = "mongobench_operation_latency_seconds"
	IntendedLatencyName = "mongobench_operation_intended_latency_seconds"
	ScheduleLagName     = "mongobench_schedule_lag_seconds"
	InFlightName        = "mongobench_inflight_operations"
	TargetRateName      = "mongobench_target_ops_per_second"
	AchievedRateName    = "mongobench_achieved_ops_per_second"
	RunningName         = "mongobench_phase_running"
	PartName            = "mongobench_part"
	PartsName           = "mongobench_parts"
)

// Sink is the bench.Sink behind the endpoint, and the
// prometheus.Collector that serves what it was fed. One Sink may be fed
// several phases in turn: each command's series go on adding up, so
// that counters never go back.
type Sink struct {
	opts  Options
	descs descs

	mu       sync.Mutex
	progress func() int64 // operations the running phase started
	running  string       // the command of the running phase; "" between phases
	commands map[string]*series
}

var _ bench.Sink = (*Sink)(nil)
var _ prometheus.Collector = (*Sink)(nil)

// series is what the phases of one command measured.
type series struct {
	status [db.MaxOps][db.NumStatuses]int64
	// service and intended are by operation, then successes and failures.
	service, intended [db.MaxOps][2]histogram
	lag               histogram
	done              int64 // operations ended in the running phase
	inFlight          int64
	target, achieved  float64
}

// histogram is an HDR histogram (µs) and its exposed form as of the last
// interval added.
type histogram struct {
	hdr *hdrhistogram.Histogram
	dto *dto.Histogram
}

func (h *histogram) add(from *hdrhistogram.Histogram) {
	if from == nil || from.TotalCount() == 0 {
		return
	}
	if h.hdr == nil {
		h.hdr = measure.NewHistogram()
	}
	// Same geometry on both sides, so nothing is dropped.
	h.hdr.Merge(from)
	h.dto = exposed(h.hdr)
}

type descs struct {
	operations, latency, intended, lag, inFlight, target, achieved, running, part, parts *prometheus.Desc
}

// New returns a sink for the part opts names.
func New(opts Options) *Sink {
	if opts.Parts < 1 {
		opts.Parts = 1
	}
	constant := opts.Labels()
	desc := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, constant)
	}
	return &Sink{
		opts:     opts,
		commands: map[string]*series{},
		descs: descs{
			operations: desc(OperationsName, "Operations ended, by type and status, as YCSB's Return= lines count them (the reads and updates of a READ-MODIFY-WRITE are counted under their own types too).", "command", "op", "status"),
			latency:    desc(LatencyName, "Service latency (from the actual start) of the operations ended, by type and outcome.", "command", "op", "outcome"),
			intended:   desc(IntendedLatencyName, "Intended latency (from the start the schedule gave the operation, so counting its wait for a turn), by type and outcome; served when recorded (with -target, or measurement.intended=true).", "command", "op", "outcome"),
			lag:        desc(ScheduleLagName, "How late after its intended start each operation started: the client's own share of intended latency (with -target only).", "command"),
			inFlight:   desc(InFlightName, "Operations started and not yet ended, as of the last status interval.", "command"),
			target:     desc(TargetRateName, "The phase's target rate over all threads (-target); 0 for as fast as possible.", "command"),
			achieved:   desc(AchievedRateName, "Operations ended per second over the last status interval.", "command"),
			running:    desc(RunningName, "1 while a phase of this command runs, 0 once it is over.", "command"),
			part:       desc(PartName, "The index of this process's part of a distributed run, from 0."),
			parts:      desc(PartsName, "How many parts the distributed run has; 1 when it is not partitioned."),
		},
	}
}

// Open starts counting a phase.
func (s *Sink) Open(p bench.Phase) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr := s.commands[p.Command]
	if sr == nil {
		sr = &series{}
		s.commands[p.Command] = sr
	}
	sr.done, sr.inFlight, sr.achieved, sr.target = 0, 0, 0, p.Target
	s.running = p.Command
	s.progress = func() int64 { return 0 }
	if p.Progress != nil {
		s.progress = p.Progress.Started
	}
	return nil
}

// Interval adds u's counts and histograms to the phase's series.
func (s *Sink) Interval(u bench.Update) error {
	iv := u.Interval
	s.mu.Lock()
	defer s.mu.Unlock()
	sr := s.commands[s.running]
	if sr == nil {
		return fmt.Errorf("metrics endpoint: an interval came before its phase was opened")
	}
	for op := range iv.Status {
		for st, n := range iv.Status[op] {
			sr.status[op][st] += n
		}
	}
	for _, m := range iv.Measurements {
		f := 0
		if m.Failed {
			f = 1
		}
		sr.service[m.Op][f].add(m.Service)
		sr.intended[m.Op][f].add(m.Intended)
	}
	sr.lag.add(iv.ScheduleLag)
	sr.done += iv.Operations
	// Started is read now, done as of the interval's end: an operation
	// that ended since is still counted in flight, never one that
	// started since left out.
	sr.inFlight = max(s.progress()-sr.done, 0)
	if d := iv.Duration(); d > 0 {
		sr.achieved = float64(iv.Operations) / d.Seconds()
	}
	return nil
}

// Close marks the phase over: nothing is in flight any more.
func (s *Sink) Close(bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sr := s.commands[s.running]; sr != nil {
		sr.inFlight = 0
	}
	s.running = ""
	return nil
}

// Describe sends every metric's description.
func (s *Sink) Describe(ch chan<- *prometheus.Desc) {
	d := s.descs
	for _, desc := range []*prometheus.Desc{d.operations, d.latency, d.intended, d.lag, d.inFlight, d.target, d.achieved, d.running, d.part, d.parts} {
		ch <- desc
	}
}

// Collect sends the figures as of the last interval.
func (s *Sink) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.descs
	gauge := func(desc *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, v, labels...)
	}
	gauge(d.part, float64(s.opts.Part))
	gauge(d.parts, float64(s.opts.Parts))
	for _, command := range slices.Sorted(maps.Keys(s.commands)) {
		sr := s.commands[command]
		for op := range sr.status {
			for st, n := range sr.status[op] {
				if n > 0 {
					ch <- prometheus.MustNewConstMetric(d.operations, prometheus.CounterValue, float64(n), command, db.Op(op).String(), db.Status(st).String())
				}
			}
		}
		for op := range sr.service {
			for f, outcome := range []string{"ok", "failed"} {
				if h := sr.service[op][f].dto; h != nil {
					ch <- newHistogramMetric(d.latency, h, command, db.Op(op).String(), outcome)
				}
				if h := sr.intended[op][f].dto; h != nil {
					ch <- newHistogramMetric(d.intended, h, command, db.Op(op).String(), outcome)
				}
			}
		}
		if h := sr.lag.dto; h != nil {
			ch <- newHistogramMetric(d.lag, h, command)
		}
		running := 0.0
		if command == s.running {
			running = 1
		}
		gauge(d.running, running, command)
		gauge(d.inFlight, float64(sr.inFlight), command)
		gauge(d.target, sr.target, command)
		gauge(d.achieved, sr.achieved, command)
	}
}
