package bench

import (
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/measure"
)

// HdrLogs writes each operation's interval histograms as HdrHistogram
// logs (hdrhistogram.fileoutput).
type HdrLogs struct {
	prefix string
	clock  measure.Clock
	logs   *export.HdrLogs
}

// NewHdrLogs returns a sink writing the logs at prefix (hdrhistogram.output.path).
func NewHdrLogs(prefix string) *HdrLogs { return &HdrLogs{prefix: prefix} }

func (s *HdrLogs) Open(p Phase) error {
	s.clock = p.Clock
	s.logs = export.NewHdrLogs(s.prefix, p.Clock.StartTime())
	return nil
}

func (s *HdrLogs) Interval(u Update) error { return s.logs.Interval(u.Interval, s.clock) }

func (s *HdrLogs) Close(bool) error { return s.logs.Close() }
