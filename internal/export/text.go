// Package export writes what a run measured in the formats people and
// other tools read: YCSB's text summary and its JSON exporters, the status
// line and HdrHistogram interval logs. The results file is the results
// package's.
package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/printable"
)

// TextOptions choose what the text summary prints.
type TextOptions struct {
	// Percentiles are printed after MaxLatency (hdrhistogram.percentiles);
	// nil means DefaultPercentiles().
	Percentiles []float64
	// Service prints the service latency sections ("[READ]"); Intended the
	// intended latency sections, named "[Intended-READ]" when both are
	// printed and "[READ]" when only they are, as YCSB names them for
	// measurement.interval=both and =intended. With neither set, Service.
	Service, Intended bool
	// Partial adds "[OVERALL], Partial, true" after the throughput: the run
	// was interrupted and its figures cover only what ran.
	Partial bool
}

// DefaultPercentiles returns the percentiles the text summary prints by
// default: YCSB's 50, 95 and 99, and 99.9 and 99.99, which a tail-latency
// benchmark cannot do without.
func DefaultPercentiles() []float64 { return []float64{50, 95, 99, 99.9, 99.99} }

// WriteText writes the summary in YCSB's text format, line for line as
// YCSB's TextMeasurementsExporter writes it, so that scripts that parse
// YCSB output read it unchanged:
//
//	[OVERALL], RunTime(ms), 42623
//	[OVERALL], Throughput(ops/sec), 7038.453417169134
//	[READ], Operations, 196890
//	[READ], AverageLatency(us), 3573.31
//	...
//	[READ], Return=OK, 196890
//
// Sections come in a fixed order: service latency before intended latency,
// then by operation, then successes before failures. Status counts follow
// the operation's own section, in db.Status order. Percentiles come in
// ascending order, once each, whatever order they are given in. An empty
// section (all of an operation's samples failed) prints as YCSB prints it
// since its HdrHistogram 2.1.12 (YCSB commit ce741d3d, 2024): every figure
// 0, AverageLatency 0.0 — not 0.17.0's NaN and 9223372036854775807.
func WriteText(w io.Writer, s *measure.Summary, opts TextOptions) error {
	if !opts.Service && !opts.Intended {
		opts.Service = true
	}
	ps := opts.Percentiles
	if ps == nil {
		ps = DefaultPercentiles()
	}
	ps = slices.Compact(slices.Sorted(slices.Values(ps)))
	labels := make([]string, len(ps))
	for i, p := range ps {
		labels[i] = ordinal(p) + "PercentileLatency(us)"
	}

	bw := bufio.NewWriter(w)
	runtimeMs := (s.EndNs - s.StartNs) / 1e6
	line(bw, "OVERALL", "RunTime(ms)", strconv.FormatInt(runtimeMs, 10))
	// Java: 1000.0 * opcount / runtime, in this order.
	line(bw, "OVERALL", "Throughput(ops/sec)", JavaDouble(1000.0*float64(s.Operations)/float64(runtimeMs)))
	if opts.Partial {
		line(bw, "OVERALL", "Partial", "true")
	}

	var statusDone [db.MaxOps]bool
	section := func(name string, m *measure.Measurement, h *hdrhistogram.Histogram) {
		writeSection(bw, name, h, ps, labels)
		if !m.Failed && int(m.Op) < db.MaxOps && !statusDone[m.Op] {
			statusDone[m.Op] = true
			writeStatus(bw, name, &s.Status[m.Op])
		}
	}
	if opts.Service {
		for i := range s.Measurements {
			m := &s.Measurements[i]
			if m.Service != nil {
				section(m.Name, m, m.Service)
			}
		}
	}
	if opts.Intended {
		for i := range s.Measurements {
			m := &s.Measurements[i]
			if m.Intended == nil {
				continue
			}
			name := m.Name
			if opts.Service && m.Service != nil {
				name = "Intended-" + name
			}
			section(name, m, m.Intended)
		}
	}
	// Status counts of an operation without a section of its own (a summary
	// not made by measure) still print, under an empty section.
	for op := range db.MaxOps {
		if statusDone[op] || !anyStatus(&s.Status[op]) {
			continue
		}
		name := db.Op(op).String()
		writeSection(bw, name, nil, ps, labels)
		writeStatus(bw, name, &s.Status[op])
	}
	writeErrorMessages(bw, s.ErrorMessages)
	// Where failures happened, as extra lines after YCSB's: seconds from
	// the start of the phase, so an outage can be read off the summary.
	for i, w := range s.ErrorWindows {
		n := strconv.Itoa(i + 1)
		line(bw, "ERRORS", "Window"+n+"Start(s)", strconv.FormatFloat(float64(w.StartNs-s.StartNs)/1e9, 'f', 1, 64))
		line(bw, "ERRORS", "Window"+n+"End(s)", strconv.FormatFloat(float64(w.EndNs-s.StartNs)/1e9, 'f', 1, 64))
		line(bw, "ERRORS", "Window"+n+"FailedOperations", strconv.FormatInt(w.Errors, 10))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write text summary: %w", err)
	}
	return nil
}

// writeErrorMessages writes what failed operations said, under the
// failures' own measurement, in YCSB's line shape: the count on one line,
// the message on the next, so that every line has three fields and a
// parser reads a number where it expects one:
//
//	[READ-FAILED], Error1, 996
//	[READ-FAILED], Error1.Message, (Unauthorized) command find requires authentication
//	[READ-FAILED], OtherErrors, 4
//
// Messages are already redacted; control characters are escaped and
// commas become semicolons here, so each stays one field of one line.
func writeErrorMessages(w *bufio.Writer, ops []measure.OpErrors) {
	for _, oe := range ops {
		name := measure.MeasurementName(oe.Op, true)
		for i, m := range oe.Messages {
			n := "Error" + strconv.Itoa(i+1)
			line(w, name, n, strconv.FormatInt(m.Count, 10))
			line(w, name, n+".Message", printable.Field(m.Message))
		}
		if oe.Other > 0 {
			line(w, name, "OtherErrors", strconv.FormatInt(oe.Other, 10))
		}
	}
}

func line(w *bufio.Writer, metric, measurement, value string) {
	w.WriteString("[")
	w.WriteString(metric)
	w.WriteString("], ")
	w.WriteString(measurement)
	w.WriteString(", ")
	w.WriteString(value)
	w.WriteString("\n")
}

// writeSection writes the lines of OneMeasurementHdrHistogram.exportMeasurements
// for h; a nil h is an empty histogram.
func writeSection(w *bufio.Writer, name string, h *hdrhistogram.Histogram, ps []float64, labels []string) {
	var count, minV, maxV int64
	values := make([]int64, len(ps))
	if h != nil && h.TotalCount() > 0 {
		count, minV, maxV = h.TotalCount(), h.Min(), h.Max()
		values = measure.Percentiles(h, ps)
	}
	line(w, name, "Operations", strconv.FormatInt(count, 10))
	line(w, name, "AverageLatency(us)", JavaDouble(measure.Mean(h)))
	line(w, name, "MinLatency(us)", strconv.FormatInt(minV, 10))
	line(w, name, "MaxLatency(us)", strconv.FormatInt(maxV, 10))
	for i, v := range values {
		line(w, name, labels[i], strconv.FormatInt(v, 10))
	}
}

func writeStatus(w *bufio.Writer, name string, counts *[db.NumStatuses]int64) {
	for st, n := range counts {
		if n > 0 {
			line(w, name, "Return="+db.Status(st).String(), strconv.FormatInt(n, 10))
		}
	}
}

func anyStatus(counts *[db.NumStatuses]int64) bool {
	for _, n := range counts {
		if n > 0 {
			return true
		}
	}
	return false
}

// ScheduleLagLines are the summary's lines of the schedule lag (how long
// after their intended start operations started), in µs, so that a reader
// sees how much of the intended latency is the client's own; none when the
// lag was not recorded (closed loop):
//
//	[CLIENT], ScheduleLagP50(us), 12
//	[CLIENT], ScheduleLagP99(us), 95
//	[CLIENT], ScheduleLagMax(us), 1203
func ScheduleLagLines(s *measure.Summary) []string {
	h := s.ScheduleLag
	if h == nil {
		return nil
	}
	p := measure.Percentiles(h, []float64{50, 99})
	return []string{
		"[CLIENT], ScheduleLagP50(us), " + strconv.FormatInt(p[0], 10),
		"[CLIENT], ScheduleLagP99(us), " + strconv.FormatInt(p[1], 10),
		"[CLIENT], ScheduleLagMax(us), " + strconv.FormatInt(h.Max(), 10),
	}
}
