package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
)

// FormatVersion is the version of the results file format this package
// writes. Version 1 files (and journals) still read: version 2 gave the
// "extra" object and the intervals' metrics their types, with the same
// JSON keys, so a version-1 file decodes into the same fields.
const FormatVersion = 2

// oldestFormatVersion is the oldest version the readers accept.
const oldestFormatVersion = 1

// The phases of a run.
const (
	PhaseLoad = "load"
	PhaseRun  = "run"
)

// Results is the results file of one run: everything reports, comparisons
// and merges need, including whole HDR histograms, so that nothing has to be
// measured again to combine or re-analyse runs.
type Results struct {
	FormatVersion int  `json:"format_version"`
	Tool          Tool `json:"tool"`
	// Command is the command line, its passwords already redacted.
	Command []string `json:"command,omitempty"`
	Label   string   `json:"label,omitempty"`
	// RunID is the run_id label its live metrics carried (--metrics-addr),
	// so that its series can be found in Prometheus; absent when it served
	// none.
	RunID string `json:"run_id,omitempty"`
	// Phase is PhaseLoad or PhaseRun.
	Phase string `json:"phase"`
	// Config holds the resolved properties, their secrets already redacted.
	Config map[string]string `json:"config,omitempty"`
	// Start and End are the wall-clock bounds of the measured run, in UTC.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// RuntimeMs and ThroughputOpsSec are the figures of YCSB's [OVERALL]
	// lines.
	RuntimeMs        int64   `json:"runtime_ms"`
	Operations       int64   `json:"operations"`
	ThroughputOpsSec float64 `json:"throughput_ops_sec"`
	// Partial marks a run that was interrupted before its end.
	Partial bool `json:"partial"`
	// RecordStalls counts the operations whose worker waited for the
	// collector; ClampedValues the latencies recorded at a bound of the
	// histogram range.
	RecordStalls  int64 `json:"record_stalls"`
	ClampedValues int64 `json:"clamped_values"`
	// Measurements are cumulative over the run.
	Measurements []MeasurementResult `json:"measurements"`
	// Status counts operations by op name and status name:
	// {"READ": {"OK": 10, "NOT_FOUND": 2}}.
	Status map[string]map[string]int64 `json:"status"`
	// Intervals is the time series of the status intervals.
	Intervals []IntervalResult `json:"intervals"`
	// ScheduleLag is how long after its intended start each operation
	// actually started, with -target: the client's own share of intended
	// latency (see measure.Summary.ScheduleLag). Absent in closed loop.
	ScheduleLag *LatencyResult `json:"schedule_lag,omitempty"`

	// ErrorWindows are the stretches in which operations failed (outages).
	ErrorWindows []ErrorWindowResult `json:"error_windows,omitempty"`
	// ErrorMessages say why operations failed, per operation.
	ErrorMessages []OpErrorsResult `json:"error_messages,omitempty"`
	// Extra holds the sections other parts of the tool add (runner counts,
	// client, topology, sizes, server and host metrics, sweep position,
	// merge provenance).
	Extra *Extra `json:"extra,omitempty"`
}

// Tool names the program that wrote a results file.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// MeasurementResult is one measurement ("READ", "READ-FAILED").
type MeasurementResult struct {
	Name   string `json:"name"`
	Op     string `json:"op"`
	Failed bool   `json:"failed"`
	// Service and Intended are absent when that latency was not recorded.
	Service  *LatencyResult `json:"service,omitempty"`
	Intended *LatencyResult `json:"intended,omitempty"`
}

// LatencyResult describes one latency histogram, in microseconds.
type LatencyResult struct {
	Count  int64   `json:"count"`
	MeanUs float64 `json:"mean_us"`
	MinUs  int64   `json:"min_us"`
	MaxUs  int64   `json:"max_us"`
	// PercentilesUs holds the values at measure.StandardPercentiles, keyed
	// "50" … "99.99"; absent for intervals merged from several files.
	PercentilesUs map[string]int64 `json:"percentiles_us,omitempty"`
	// Histogram is the whole histogram in HdrHistogram's standard
	// compressed V2 encoding, base64: the form HdrHistogram tools read.
	// Intervals carry none.
	Histogram string `json:"histogram,omitempty"`
}

// IntervalResult is one status interval.
type IntervalResult struct {
	Index int `json:"index"`
	// StartS and EndS are offsets in seconds from the run's start.
	StartS       float64             `json:"start_s"`
	EndS         float64             `json:"end_s"`
	Operations   int64               `json:"operations"`
	OpsPerSec    float64             `json:"ops_per_sec"`
	Measurements []MeasurementResult `json:"measurements,omitempty"`
	// Metrics is what the server and the hosts did in the same interval
	// (see the metrics package), when they were sampled.
	Metrics *metrics.IntervalMetrics `json:"metrics,omitempty"`
}

// ErrorWindowResult is a stretch of the run with failed operations, in
// seconds from the start of the run.
type ErrorWindowResult struct {
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	Errors int64   `json:"failed_operations"`
}

// OpErrorsResult is what one operation's failures said: its most frequent
// messages (at most measure.MaxErrorMessages), most frequent first, and
// how many failures said something else.
type OpErrorsResult struct {
	Op       string               `json:"op"`
	Messages []ErrorMessageResult `json:"messages"`
	Other    int64                `json:"other,omitempty"`
}

// ErrorMessageResult is one distinct error message, its secrets redacted.
type ErrorMessageResult struct {
	Message string `json:"message"`
	Count   int64  `json:"count"`
}

// Meta is what a results file says about a run besides its measurements.
type Meta struct {
	Tool    Tool
	Command []string
	Label   string
	RunID   string
	Phase   string
	Config  map[string]string
	Partial bool
	Extra   *Extra
}

// NewResults builds the results of a run from its summary.
func NewResults(s *measure.Summary, meta Meta) (*Results, error) {
	if meta.Phase != PhaseLoad && meta.Phase != PhaseRun {
		return nil, fmt.Errorf("results phase %q: want %q or %q", meta.Phase, PhaseLoad, PhaseRun)
	}
	runtimeMs := (s.EndNs - s.StartNs) / 1e6
	r := &Results{
		FormatVersion: FormatVersion,
		Tool:          meta.Tool,
		Command:       meta.Command,
		Label:         meta.Label,
		RunID:         meta.RunID,
		Phase:         meta.Phase,
		Config:        meta.Config,
		Start:         s.Start.UTC(),
		End:           s.End.UTC(),
		RuntimeMs:     runtimeMs,
		Operations:    s.Operations,
		Partial:       meta.Partial,
		RecordStalls:  s.RecordStalls,
		ClampedValues: s.Clamped,
		Measurements:  []MeasurementResult{},
		Status:        map[string]map[string]int64{},
		Intervals:     []IntervalResult{},
		Extra:         meta.Extra,
	}
	if runtimeMs > 0 {
		// As the text summary computes it.
		r.ThroughputOpsSec = 1000.0 * float64(s.Operations) / float64(runtimeMs)
	}
	for i := range s.Measurements {
		m := &s.Measurements[i]
		mr := MeasurementResult{Name: m.Name, Op: m.Op.String(), Failed: m.Failed}
		var err error
		if mr.Service, err = histogramResult(m.Service); err != nil {
			return nil, fmt.Errorf("%s service latency: %w", m.Name, err)
		}
		if mr.Intended, err = histogramResult(m.Intended); err != nil {
			return nil, fmt.Errorf("%s intended latency: %w", m.Name, err)
		}
		r.Measurements = append(r.Measurements, mr)
	}
	for op := range s.Status {
		for st, n := range s.Status[op] {
			if n == 0 {
				continue
			}
			name := db.Op(op).String()
			if r.Status[name] == nil {
				r.Status[name] = map[string]int64{}
			}
			r.Status[name][db.Status(st).String()] = n
		}
	}
	var err error
	if r.ScheduleLag, err = histogramResult(s.ScheduleLag); err != nil {
		return nil, fmt.Errorf("schedule lag: %w", err)
	}
	for _, w := range s.ErrorWindows {
		r.ErrorWindows = append(r.ErrorWindows, ErrorWindowResult{
			StartS: float64(w.StartNs-s.StartNs) / 1e9,
			EndS:   float64(w.EndNs-s.StartNs) / 1e9,
			Errors: w.Errors,
		})
	}
	for _, oe := range s.ErrorMessages {
		or := OpErrorsResult{Op: oe.Op.String(), Messages: []ErrorMessageResult{}, Other: oe.Other}
		for _, m := range oe.Messages {
			or.Messages = append(or.Messages, ErrorMessageResult{Message: m.Message, Count: m.Count})
		}
		r.ErrorMessages = append(r.ErrorMessages, or)
	}
	for _, iv := range s.Intervals {
		ir := IntervalResult{
			Index:      iv.Index,
			StartS:     float64(iv.StartNs-s.StartNs) / 1e9,
			EndS:       float64(iv.EndNs-s.StartNs) / 1e9,
			Operations: iv.Operations,
			OpsPerSec:  iv.OpsPerSec,
		}
		for _, m := range iv.Measurements {
			ir.Measurements = append(ir.Measurements, MeasurementResult{
				Name:     m.Name,
				Op:       m.Op.String(),
				Failed:   m.Failed,
				Service:  summaryResult(m.Service),
				Intended: summaryResult(m.Intended),
			})
		}
		r.Intervals = append(r.Intervals, ir)
	}
	return r, nil
}

func histogramResult(h *hdrhistogram.Histogram) (*LatencyResult, error) {
	if h == nil {
		return nil, nil
	}
	ls := measure.Summarize(h)
	lr := summaryResult(&ls)
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return nil, fmt.Errorf("encode histogram: %w", err)
	}
	lr.Histogram = string(enc)
	return lr, nil
}

func summaryResult(ls *measure.LatencySummary) *LatencyResult {
	if ls == nil {
		return nil
	}
	lr := &LatencyResult{Count: ls.Count, MeanUs: ls.Mean, MinUs: ls.Min, MaxUs: ls.Max}
	if math.IsNaN(lr.MeanUs) || math.IsInf(lr.MeanUs, 0) {
		lr.MeanUs = 0
	}
	if ls.Percentiles != nil {
		lr.PercentilesUs = make(map[string]int64, len(ls.Percentiles))
		for i, v := range ls.Percentiles {
			lr.PercentilesUs[measure.PercentileKey(measure.StandardPercentiles[i])] = v
		}
	}
	return lr
}

// errorMessages reads the error_messages section back.
func (r *Results) errorMessages() ([]measure.OpErrors, error) {
	var out []measure.OpErrors
	for _, or := range r.ErrorMessages {
		op, ok := parseOp(or.Op)
		if !ok {
			return nil, fmt.Errorf("results error messages: unknown operation %q", or.Op)
		}
		oe := measure.OpErrors{Op: op, Other: or.Other}
		if or.Other < 0 {
			return nil, fmt.Errorf("results error messages of %s: negative count %d", or.Op, or.Other)
		}
		for _, m := range or.Messages {
			if m.Count < 0 {
				return nil, fmt.Errorf("results error messages of %s: negative count %d", or.Op, m.Count)
			}
			oe.Messages = append(oe.Messages, measure.ErrorMessage{Message: m.Message, Count: m.Count})
		}
		out = append(out, oe)
	}
	return out, nil
}

// WriteJSON writes r as indented JSON.
func WriteJSON(w io.Writer, r *Results) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// ReadJSON reads a results file written by WriteJSON.
func ReadJSON(r io.Reader) (*Results, error) {
	var res Results
	dec := json.NewDecoder(r)
	if err := dec.Decode(&res); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	if res.FormatVersion < oldestFormatVersion || res.FormatVersion > FormatVersion {
		return nil, fmt.Errorf("read results: format_version %d is not supported (want %d to %d)", res.FormatVersion, oldestFormatVersion, FormatVersion)
	}
	// Read, the file is the current model: a version-1 file's extra
	// sections decoded into the same typed fields.
	res.FormatVersion = FormatVersion
	if err := res.check(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return &res, nil
}

// check refuses results whose figures cannot be trusted: every reader
// works from the summary figures beside the histograms, so a histogram
// that does not decode, or disagrees with its figures, means the file was
// damaged or edited, and nothing read from it would be the run.
func (r *Results) check() error {
	if r.Operations < 0 || r.RuntimeMs < 0 {
		return fmt.Errorf("negative operations (%d) or runtime (%d ms)", r.Operations, r.RuntimeMs)
	}
	s, err := r.Summary()
	if err != nil {
		return err
	}
	// Summary decoded the histograms, one measurement for each of r's, in
	// order.
	for i, mr := range r.Measurements {
		sm := s.Measurements[i]
		for j, lr := range []*LatencyResult{mr.Service, mr.Intended} {
			if lr == nil {
				continue
			}
			h := sm.Service
			if j == 1 {
				h = sm.Intended
			}
			ls := measure.Summarize(h)
			if ls.Min != lr.MinUs || ls.Max != lr.MaxUs {
				return fmt.Errorf("measurement %q: its histogram spans %d..%d µs, its figures say %d..%d", mr.Name, ls.Min, ls.Max, lr.MinUs, lr.MaxUs)
			}
			for i, p := range measure.StandardPercentiles {
				key := measure.PercentileKey(p)
				if v, ok := lr.PercentilesUs[key]; ok && v != ls.Percentiles[i] {
					return fmt.Errorf("measurement %q: its histogram's p%s is %d µs, its figures say %d", mr.Name, key, ls.Percentiles[i], v)
				}
			}
		}
	}
	return nil
}

// Summary rebuilds the measure.Summary the results were made from, whole
// histograms included, so that the text summary of a results file (or of a
// merge of several) prints as that of a live run. The run starts at 0 on
// the summary's clock.
func (r *Results) Summary() (*measure.Summary, error) {
	s := &measure.Summary{
		Start:        r.Start,
		End:          r.End,
		EndNs:        int64(r.End.Sub(r.Start)),
		Operations:   r.Operations,
		RecordStalls: r.RecordStalls,
		Clamped:      r.ClampedValues,
	}
	var err error
	if s.ScheduleLag, err = decodeHistogram(r.ScheduleLag); err != nil {
		return nil, fmt.Errorf("results schedule lag: %w", err)
	}
	for _, w := range r.ErrorWindows {
		s.ErrorWindows = append(s.ErrorWindows, measure.ErrorWindow{
			StartNs: int64(w.StartS * 1e9), EndNs: int64(w.EndS * 1e9), Errors: w.Errors,
		})
	}
	errs, err := r.errorMessages()
	if err != nil {
		return nil, err
	}
	s.ErrorMessages = errs
	for opName, counts := range r.Status {
		op, ok := parseOp(opName)
		if !ok {
			return nil, fmt.Errorf("results status: unknown operation %q", opName)
		}
		for stName, n := range counts {
			st, ok := db.ParseStatus(stName)
			if !ok {
				return nil, fmt.Errorf("results status of %s: unknown status %q", opName, stName)
			}
			if n < 0 {
				return nil, fmt.Errorf("results status of %s: negative count %d for %s", opName, n, stName)
			}
			s.Status[op][st] = n
		}
	}
	for _, mr := range r.Measurements {
		op, ok := parseOp(mr.Op)
		if !ok {
			return nil, fmt.Errorf("results measurement %q: unknown operation %q", mr.Name, mr.Op)
		}
		m := measure.Measurement{Name: mr.Name, Op: op, Failed: mr.Failed}
		var err error
		if m.Service, err = decodeHistogram(mr.Service); err != nil {
			return nil, fmt.Errorf("results measurement %q service latency: %w", mr.Name, err)
		}
		if m.Intended, err = decodeHistogram(mr.Intended); err != nil {
			return nil, fmt.Errorf("results measurement %q intended latency: %w", mr.Name, err)
		}
		s.Measurements = append(s.Measurements, m)
	}
	for _, ir := range r.Intervals {
		is := measure.IntervalStats{
			Index:      ir.Index,
			StartNs:    int64(math.Round(ir.StartS * 1e9)),
			EndNs:      int64(math.Round(ir.EndS * 1e9)),
			Operations: ir.Operations,
			OpsPerSec:  ir.OpsPerSec,
		}
		for _, mr := range ir.Measurements {
			op, ok := parseOp(mr.Op)
			if !ok {
				return nil, fmt.Errorf("results interval %d measurement %q: unknown operation %q", ir.Index, mr.Name, mr.Op)
			}
			is.Measurements = append(is.Measurements, measure.MeasurementStats{
				Name:     mr.Name,
				Op:       op,
				Failed:   mr.Failed,
				Service:  latencySummary(mr.Service),
				Intended: latencySummary(mr.Intended),
			})
		}
		s.Intervals = append(s.Intervals, is)
	}
	return s, nil
}

var errNoHistogram = errors.New("no histogram")

func decodeHistogram(lr *LatencyResult) (*hdrhistogram.Histogram, error) {
	if lr == nil {
		return nil, nil
	}
	if lr.Histogram == "" {
		return nil, errNoHistogram
	}
	h, err := decodeSafely(lr.Histogram)
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	// Other geometries would not merge exactly with ours, and a hostile
	// one could ask for gigabytes.
	if h.LowestTrackableValue() != measure.LowestTrackableUs || h.HighestTrackableValue() != measure.HighestTrackableUs ||
		h.SignificantFigures() != measure.SignificantFigures {
		return nil, fmt.Errorf("histogram covers %d..%d µs with %d significant figures, want %d..%d with %d",
			h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures(),
			measure.LowestTrackableUs, measure.HighestTrackableUs, measure.SignificantFigures)
	}
	if h.TotalCount() != lr.Count {
		return nil, fmt.Errorf("histogram holds %d values, count says %d", h.TotalCount(), lr.Count)
	}
	return h, nil
}

// decodeSafely decodes an encoded histogram; the decoder indexes by
// what the bytes say, and damaged bytes make it panic.
func decodeSafely(enc string) (h *hdrhistogram.Histogram, err error) {
	defer func() {
		if p := recover(); p != nil {
			h, err = nil, fmt.Errorf("damaged encoding (%v)", p)
		}
	}()
	return hdrhistogram.Decode([]byte(enc))
}

func latencySummary(lr *LatencyResult) *measure.LatencySummary {
	if lr == nil {
		return nil
	}
	ls := &measure.LatencySummary{Count: lr.Count, Mean: lr.MeanUs, Min: lr.MinUs, Max: lr.MaxUs}
	if lr.PercentilesUs != nil {
		ls.Percentiles = make([]int64, measure.NumStandardPercentiles)
		for i, p := range measure.StandardPercentiles {
			ls.Percentiles[i] = lr.PercentilesUs[measure.PercentileKey(p)]
		}
	}
	return ls
}

// parseOp reads an operation's name from a results file or journal:
// YCSB's, or a native workload's named operation, registered the first
// time so that every reader in the process agrees on its code.
func parseOp(name string) (db.Op, bool) {
	op, err := db.NamedOp(name)
	return op, err == nil
}
