package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/outfile"
)

// JournalSuffix is appended to the results file's path to name its journal.
const JournalSuffix = ".intervals.jsonl"

// A journal is the run written as it goes, one JSON object per line and
// flushed at every interval: a header, one line per interval with that
// interval's whole histograms and status counts, one line per interval with
// the server and host metrics sampled over it, and an end line. When a run
// dies (kill -9, power off the client) the journal still holds every
// finished interval, and ReadJournal rebuilds results from it, marked
// partial, for report and compare.
//
// An interval's metrics have their own line because they come later than
// its latencies: both are taken at the same boundary of the run's clock,
// but the collector closes the interval at once while the sample waits on
// serverStatus. Holding the latency line back for them would leave it
// unwritten, for that while, when the run is killed. A Journal's methods
// are safe for concurrent use.
type Journal struct {
	mu    sync.Mutex
	f     *outfile.File
	w     *bufio.Writer
	enc   *json.Encoder
	clock measure.Clock
}

type journalLine struct {
	Type string `json:"type"` // header | interval | metrics | end

	// header
	FormatVersion int               `json:"format_version,omitempty"`
	Tool          *Tool             `json:"tool,omitempty"`
	Command       []string          `json:"command,omitempty"`
	Label         string            `json:"label,omitempty"`
	Phase         string            `json:"phase,omitempty"`
	Config        map[string]string `json:"config,omitempty"`
	Start         *time.Time        `json:"start,omitempty"`
	// Part is the header's: which part of a partitioned run this is, so
	// that the journal of a part killed mid-run can still be merged.
	Part *Part `json:"part,omitempty"`

	// interval: offsets in ns on the run's clock, whose zero is Start.
	// metrics: Index and Metrics.
	Index        int                         `json:"index,omitempty"`
	StartNs      int64                       `json:"start_ns,omitempty"`
	EndNs        int64                       `json:"end_ns,omitempty"`
	Operations   int64                       `json:"operations,omitempty"`
	Measurements []MeasurementResult         `json:"measurements,omitempty"`
	Status       map[string]map[string]int64 `json:"status,omitempty"`
	// Metrics is what the server and the hosts did in interval Index, in
	// the form of a results file's interval metrics.
	Metrics json.RawMessage `json:"metrics,omitempty"`

	// end
	Partial bool `json:"partial,omitempty"`
}

// CreateJournal creates path and writes the header line. Only a regular
// file or nothing may stand at path.
func CreateJournal(path string, meta Meta, clock measure.Clock) (*Journal, error) {
	f, err := outfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("interval journal: %w", err)
	}
	j := &Journal{f: f, w: bufio.NewWriter(f), clock: clock}
	j.enc = json.NewEncoder(j.w)
	start := clock.StartTime().UTC()
	tool := meta.Tool
	var part *Part
	if meta.Extra != nil {
		part = meta.Extra.Part
	}
	if err := j.write(journalLine{Type: "header", FormatVersion: FormatVersion, Tool: &tool, Command: meta.Command,
		Label: meta.Label, Phase: meta.Phase, Config: meta.Config, Start: &start, Part: part}); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

func (j *Journal) write(l journalLine) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.enc.Encode(l); err != nil {
		return fmt.Errorf("interval journal: %w", err)
	}
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("interval journal: %w", err)
	}
	return nil
}

// Interval appends one interval.
func (j *Journal) Interval(iv *measure.Interval) error {
	l := journalLine{Type: "interval", Index: iv.Index, StartNs: iv.StartNs, EndNs: iv.EndNs,
		Operations: iv.Operations, Status: statusMap(&iv.Status)}
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		mr := MeasurementResult{Name: m.Name, Op: m.Op.String(), Failed: m.Failed}
		var err error
		if mr.Service, err = histogramResult(m.Service); err != nil {
			return err
		}
		if mr.Intended, err = histogramResult(m.Intended); err != nil {
			return err
		}
		l.Measurements = append(l.Measurements, mr)
	}
	return j.write(l)
}

// Metrics appends the server and host metrics sampled over interval
// index, before or after that interval's own line.
func (j *Journal) Metrics(index int, m *metrics.IntervalMetrics) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("journal metrics of interval %d: %w", index, err)
	}
	return j.write(journalLine{Type: "metrics", Index: index, Metrics: raw})
}

// Close writes the end line, syncs the file and closes it.
func (j *Journal) Close(partial bool) error {
	err := j.write(journalLine{Type: "end", Partial: partial})
	j.mu.Lock()
	defer j.mu.Unlock()
	if e := j.f.Close(); e != nil && err == nil {
		err = fmt.Errorf("interval journal: %w", e)
	}
	return err
}

func statusMap(counts *[db.MaxOps][db.NumStatuses]int64) map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	for op := range counts {
		for st, n := range counts[op] {
			if n == 0 {
				continue
			}
			name := db.Op(op).String()
			if out[name] == nil {
				out[name] = map[string]int64{}
			}
			out[name][db.Status(st).String()] = n
		}
	}
	return out
}

// ReadJournal rebuilds a run's results from its journal: histograms are
// the exact sums of the intervals' histograms, and the server and host
// metrics come back as a results file holds them, on their intervals and as
// the extra section's time series. A journal without its end line (the run
// was killed) gives results marked partial that end with the last interval
// written.
func ReadJournal(r io.Reader) (*Results, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	jr := &journalReader{sum: &measure.Summary{}, byName: map[string]*measure.Measurement{}, firstNs: -1, byIndex: map[int]*metrics.IntervalMetrics{}}
	for sc.Scan() {
		jr.lineNo++
		var l journalLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			// A run killed mid-write leaves a torn last line: keep what
			// came before it.
			if !sc.Scan() {
				break
			}
			return nil, fmt.Errorf("journal line %d: %w", jr.lineNo, err)
		}
		if err := jr.line(&l); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	return jr.results()
}

// journalReader is what ReadJournal has read so far.
type journalReader struct {
	header         *journalLine
	ended, partial bool
	sum            *measure.Summary
	byName         map[string]*measure.Measurement
	order          []string
	lineNo         int
	firstNs        int64
	// byIndex holds the intervals' metrics by index.
	byIndex map[int]*metrics.IntervalMetrics
}

// line takes one line of the journal.
func (jr *journalReader) line(l *journalLine) error {
	switch l.Type {
	case "header":
		if l.FormatVersion < oldestFormatVersion || l.FormatVersion > FormatVersion {
			return fmt.Errorf("journal: format_version %d is not supported (want %d to %d)", l.FormatVersion, oldestFormatVersion, FormatVersion)
		}
		h := *l
		jr.header = &h
	case "interval":
		return jr.interval(l)
	case "metrics":
		var m metrics.IntervalMetrics
		if err := json.Unmarshal(l.Metrics, &m); err != nil {
			return fmt.Errorf("journal line %d: metrics: %w", jr.lineNo, err)
		}
		jr.byIndex[l.Index] = &m
	case "end":
		jr.ended, jr.partial = true, l.Partial
	}
	return nil
}

// interval adds one interval: its figures to the time series, its
// histograms to the run's, its counts to the statuses.
func (jr *journalReader) interval(l *journalLine) error {
	if jr.header == nil {
		return errors.New("journal: interval before the header line")
	}
	if jr.firstNs < 0 {
		jr.firstNs = l.StartNs
	}
	stats := measure.IntervalStats{Index: l.Index, StartNs: l.StartNs, EndNs: l.EndNs, Operations: l.Operations}
	if d := l.EndNs - l.StartNs; d > 0 {
		stats.OpsPerSec = float64(l.Operations) / (float64(d) / 1e9)
	}
	for _, mr := range l.Measurements {
		ms, err := jr.measurement(mr)
		if err != nil {
			return err
		}
		stats.Measurements = append(stats.Measurements, ms)
	}
	for opName, counts := range l.Status {
		op, ok := parseOp(opName)
		if !ok {
			return fmt.Errorf("journal line %d: unknown operation %q", jr.lineNo, opName)
		}
		for stName, n := range counts {
			st, ok := db.ParseStatus(stName)
			if !ok {
				return fmt.Errorf("journal line %d: unknown status %q", jr.lineNo, stName)
			}
			jr.sum.Status[op][st] += n
		}
	}
	jr.sum.Operations += l.Operations
	jr.sum.EndNs = l.EndNs
	jr.sum.Intervals = append(jr.sum.Intervals, stats)
	return nil
}

// measurement adds one operation's histograms of an interval to the
// run's, and returns the interval's figures of it.
func (jr *journalReader) measurement(mr MeasurementResult) (measure.MeasurementStats, error) {
	op, ok := parseOp(mr.Op)
	if !ok {
		return measure.MeasurementStats{}, fmt.Errorf("journal line %d: unknown operation %q", jr.lineNo, mr.Op)
	}
	m := jr.byName[mr.Name]
	if m == nil {
		m = &measure.Measurement{Name: mr.Name, Op: op, Failed: mr.Failed}
		jr.byName[mr.Name] = m
		jr.order = append(jr.order, mr.Name)
	}
	ms := measure.MeasurementStats{Name: mr.Name, Op: op, Failed: mr.Failed}
	var err error
	if ms.Service, err = addJournalHistogram(&m.Service, mr.Service); err != nil {
		return ms, fmt.Errorf("journal line %d: %s: %w", jr.lineNo, mr.Name, err)
	}
	if ms.Intended, err = addJournalHistogram(&m.Intended, mr.Intended); err != nil {
		return ms, fmt.Errorf("journal line %d: %s: %w", jr.lineNo, mr.Name, err)
	}
	return ms, nil
}

// results are the run's results from what was read.
func (jr *journalReader) results() (*Results, error) {
	header, sum := jr.header, jr.sum
	if header == nil {
		return nil, errors.New("journal: no header line")
	}
	if header.Start == nil {
		return nil, errors.New("journal: the header line has no start time")
	}
	if len(sum.Intervals) == 0 {
		// Figures made of nothing would read as a run that did nothing.
		return nil, errors.New("journal: the header but no interval: the run ended before its first interval was written, so there is nothing to read")
	}
	sum.StartNs = jr.firstNs
	sum.Start = header.Start.Add(time.Duration(jr.firstNs))
	sum.End = header.Start.Add(time.Duration(sum.EndNs))
	if sum.EndNs < sum.StartNs {
		sum.EndNs = sum.StartNs
	}
	for _, name := range jr.order {
		sum.Measurements = append(sum.Measurements, *jr.byName[name])
	}
	sortMeasurements(sum.Measurements)
	meta := Meta{Command: header.Command, Label: header.Label, Phase: header.Phase, Config: header.Config, Partial: !jr.ended || jr.partial}
	if header.Tool != nil {
		meta.Tool = *header.Tool
	}
	meta.Extra = metricsSeries(jr.byIndex, sum.Intervals, *header.Start)
	if header.Part != nil {
		if meta.Extra == nil {
			meta.Extra = &Extra{}
		}
		meta.Extra.Part = header.Part
	}
	res, err := NewResults(sum, meta)
	if err != nil {
		return nil, err
	}
	for i := range res.Intervals {
		if m, ok := jr.byIndex[res.Intervals[i].Index]; ok {
			res.Intervals[i].Metrics = m
		}
	}
	return res, nil
}

// metricsSeries rebuilds the extra section's server and host time series
// from the intervals' metrics, as the run writes them into the results
// file: in interval order, each sample placed at its own end time, failing
// that at the end of its latency interval. It returns nil when the journal
// has no metrics.
func metricsSeries(byIndex map[int]*metrics.IntervalMetrics, intervals []measure.IntervalStats, start time.Time) *Extra {
	endNs := make(map[int]int64, len(intervals))
	for _, iv := range intervals {
		endNs[iv.Index] = iv.EndNs
	}
	indexes := make([]int, 0, len(byIndex))
	for i := range byIndex {
		indexes = append(indexes, i)
	}
	slices.Sort(indexes)
	var server []ServerSample
	var host []HostSample
	for _, i := range indexes {
		m := byIndex[i]
		t, placed := 0.0, false
		if !m.End.IsZero() {
			t, placed = m.End.Sub(start).Seconds(), true
		}
		if ns, ok := endNs[i]; ok && !placed {
			t, placed = float64(ns)/1e9, true
		}
		if !placed {
			continue
		}
		if m.Server != nil {
			server = append(server, ServerSample{T: t, Server: m.Server})
		}
		if m.Host != nil {
			host = append(host, HostSample{T: t, Host: m.Host})
		}
	}
	if server == nil && host == nil {
		return nil
	}
	return &Extra{ServerMetrics: server, HostMetrics: host}
}

func addJournalHistogram(acc **hdrhistogram.Histogram, lr *LatencyResult) (*measure.LatencySummary, error) {
	if lr == nil {
		return nil, nil
	}
	h, err := decodeHistogram(lr)
	if err != nil {
		return nil, err
	}
	if h == nil {
		return nil, nil
	}
	if *acc == nil {
		*acc = measure.NewHistogram()
	}
	(*acc).Merge(h)
	ls := measure.Summarize(h)
	return &ls, nil
}

// sortMeasurements puts measurements in the summary's order: by operation,
// successes before failures.
func sortMeasurements(ms []measure.Measurement) {
	slices.SortStableFunc(ms, func(a, b measure.Measurement) int {
		if a.Op != b.Op {
			return int(a.Op) - int(b.Op)
		}
		switch {
		case a.Failed == b.Failed:
			return 0
		case !a.Failed:
			return -1
		}
		return 1
	})
}
