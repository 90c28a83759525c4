package export

import (
	"bufio"
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/outfile"
)

// HdrLogs writes YCSB's HdrHistogram interval logs
// (hdrhistogram.fileoutput=true): one standard log per measurement, named
// PREFIX + name + ".hdr" as YCSB names them ("READ.hdr", "READ-FAILED.hdr",
// "Intended-READ.hdr"), with one interval histogram per status interval.
// HdrHistogram's own tools (HistogramLogProcessor, the Go log reader) read
// them.
type HdrLogs struct {
	prefix string
	start  time.Time
	files  map[string]*hdrLog
	err    error
}

type hdrLog struct {
	f *outfile.File
	w *bufio.Writer
	l *hdrhistogram.HistogramLogWriter
}

// NewHdrLogs prepares logs under prefix for a run that started at start.
// Files are created when their measurement first has data.
func NewHdrLogs(prefix string, start time.Time) *HdrLogs {
	return &HdrLogs{prefix: prefix, start: start, files: map[string]*hdrLog{}}
}

func (h *HdrLogs) open(name string) (*hdrLog, error) {
	if l, ok := h.files[name]; ok {
		return l, nil
	}
	path := h.prefix + name + ".hdr"
	f, err := outfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("hdrhistogram.output.path: %w", err)
	}
	l := &hdrLog{f: f, w: bufio.NewWriter(f)}
	l.l = hdrhistogram.NewHistogramLogWriter(l.w)
	base := h.start.UnixMilli()
	l.l.SetBaseTime(base)
	for _, err := range []error{
		l.l.OutputComment("[Logging for: " + name + "]"),
		l.l.OutputLogFormatVersion(),
		l.l.OutputStartTime(base),
		l.l.OutputBaseTime(base),
		l.l.OutputLegend(),
	} {
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("hdrhistogram.output.path: %w", err)
		}
	}
	h.files[name] = l
	return l, nil
}

// Interval appends the interval's histograms to their logs and flushes
// them, so a run killed later still has every finished interval on disk.
// The first error is kept and returned by Close too.
func (h *HdrLogs) Interval(iv *measure.Interval, clock measure.Clock) error {
	if h.err != nil {
		return h.err
	}
	startMs := clock.Time(iv.StartNs).UnixMilli()
	endMs := clock.Time(iv.EndNs).UnixMilli()
	write := func(name string, hist *hdrhistogram.Histogram) error {
		if hist == nil || hist.TotalCount() == 0 {
			return nil
		}
		l, err := h.open(name)
		if err != nil {
			return err
		}
		hist.SetStartTimeMs(startMs)
		hist.SetEndTimeMs(endMs)
		if err := l.l.OutputIntervalHistogram(hist); err != nil {
			return fmt.Errorf("hdrhistogram.output.path: %w", err)
		}
		if err := l.w.Flush(); err != nil {
			return fmt.Errorf("hdrhistogram.output.path: %w", err)
		}
		return nil
	}
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		if err := write(m.Name, m.Service); err != nil {
			h.err = err
			return err
		}
		if err := write("Intended-"+m.Name, m.Intended); err != nil {
			h.err = err
			return err
		}
	}
	return nil
}

// Close flushes and closes every log.
func (h *HdrLogs) Close() error {
	err := h.err
	for _, l := range h.files {
		if e := l.w.Flush(); e != nil && err == nil {
			err = fmt.Errorf("hdrhistogram.output.path: %w", e)
		}
		if e := l.f.Close(); e != nil && err == nil {
			err = fmt.Errorf("hdrhistogram.output.path: %w", e)
		}
	}
	return err
}
