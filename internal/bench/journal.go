package bench

import (
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// Journal writes the interval journal beside the results file: each
// interval and its metrics as they come, so that a killed run keeps them.
type Journal struct {
	path string
	meta results.Meta
	j    *results.Journal
}

// NewJournal returns a sink writing the journal at path, its header
// saying meta.
func NewJournal(path string, meta results.Meta) *Journal {
	return &Journal{path: path, meta: meta}
}

func (s *Journal) Open(p Phase) error {
	meta := s.meta
	if p.Part != nil {
		extra := results.Extra{}
		if meta.Extra != nil {
			extra = *meta.Extra
		}
		extra.Part = p.Part
		meta.Extra = &extra
	}
	j, err := results.CreateJournal(s.path, meta, p.Clock)
	if err != nil {
		return err
	}
	s.j = j
	return nil
}

func (s *Journal) Interval(u Update) error { return s.j.Interval(u.Interval) }

func (s *Journal) Metrics(index int, m *metrics.IntervalMetrics) error {
	return s.j.Metrics(index, m)
}

func (s *Journal) Close(partial bool) error { return s.j.Close(partial) }
