package results

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
)

// Merge adds up the results of the parts of one partitioned run, given in
// any order, into the results of the whole (see Merger).
func Merge(parts ...*Results) (*Results, error) {
	m := NewMerger()
	for i, p := range parts {
		if err := m.Add(fmt.Sprintf("argument %d", i+1), p); err != nil {
			return nil, err
		}
	}
	return m.Results()
}

// Merger combines the results of the parts of one partitioned run (see
// Part), which ran side by side on several client machines, into the
// results of the whole. Histograms are added bucket by bucket, so merged
// percentiles are exact, never averaged; counts add up; the run spans from
// the earliest start to the latest end. Intervals are combined by index,
// on the parts' common start: their counts, rates, minimums, maximums and
// means combine exactly, their percentiles cannot and are left out.
//
// Parts are added one at a time and only their sums are kept, so merging
// a thousand parts holds one part's histograms at a time. Add refuses a
// part of another run, and Results a run with parts missing: a merge of
// what does not belong together would look like a run that never was.
type Merger struct {
	first      *Results // the first part added: what the others must match
	firstFrom  string
	sum        measure.Summary
	byName     map[string]*measure.Measurement
	seen       map[int]string // part index → where it came from
	ivs        []partIntervals
	msgs       [][]measure.OpErrors
	from       []MergedPart
	runner     Runner
	hasRunner  bool
	documents  []OpDocuments
	partial    bool
	minStart   time.Time
	maxStart   time.Time
	sharedConf map[string]string
}

// partIntervals are the intervals of one part, on its own start.
type partIntervals struct {
	start     time.Time
	intervals []measure.IntervalStats
	windows   []measure.ErrorWindow
}

// NewMerger returns an empty Merger.
func NewMerger() *Merger {
	return &Merger{byName: map[string]*measure.Measurement{}, seen: map[int]string{}}
}

// Add adds the results of one part, read from source (a file name, for
// messages). An error names what makes it no part of the run added so far.
func (m *Merger) Add(source string, r *Results) error {
	if r.Extra == nil || r.Extra.Part == nil {
		return fmt.Errorf("merge: %s is not a part of a partitioned run (its results name no part): merge adds up the parts of one run made with --part I/N or --parts N", source)
	}
	p := r.Extra.Part
	if m.first == nil {
		m.first, m.firstFrom = r, source
		m.sharedConf = maps.Clone(r.Config)
	} else if diff := m.differs(r); diff != "" {
		return fmt.Errorf("merge: %s and %s are parts of different runs: %s", m.firstFrom, source, diff)
	}
	if p.Index < 0 || p.Index >= p.Count {
		return fmt.Errorf("merge: %s says it is part %d of %d, which no part is", source, p.Index, p.Count)
	}
	if other, ok := m.seen[p.Index]; ok {
		return fmt.Errorf("merge: %s and %s are both part %d of run %q: give each part once", other, source, p.Index, p.RunID)
	}
	s, err := r.Summary()
	if err != nil {
		return fmt.Errorf("merge: %s: %w", source, err)
	}
	if err := m.addSummary(s); err != nil {
		return fmt.Errorf("merge: %s: %w", source, err)
	}
	m.seen[p.Index] = source
	m.ivs = append(m.ivs, partIntervals{start: s.Start, intervals: s.Intervals, windows: s.ErrorWindows})
	m.msgs = append(m.msgs, s.ErrorMessages)
	m.partial = m.partial || r.Partial
	if r.Extra.Runner != nil {
		m.hasRunner = true
		m.runner.LateStarts += r.Extra.LateStarts
		m.runner.AbandonedAtStop += r.Extra.AbandonedAtStop
		m.runner.StoppedByTime = m.runner.StoppedByTime || r.Extra.StoppedByTime
		m.runner.StoppedBySignal = m.runner.StoppedBySignal || r.Extra.StoppedBySignal
		m.runner.OperationsStarted += r.Extra.OperationsStarted
		m.runner.MeasuredOperations += r.Extra.MeasuredOperations
	}
	m.documents = AddDocuments(m.documents, r.Extra.Documents)
	for k, v := range m.sharedConf {
		if r.Config[k] != v {
			delete(m.sharedConf, k)
		}
	}
	m.from = append(m.from, MergedPart{Part: p.Index, Source: source, Label: r.Label, Start: r.Start.UTC(), End: r.End.UTC(),
		Operations: r.Operations, Partial: r.Partial, Command: r.Command})
	return nil
}

// partOnly are the configuration keys that may differ between the parts
// of one run: the seed, which is each part's own when none was given.
var partOnly = map[string]bool{"seed": true}

// differs says how r is not a part of the same run as the first part
// added; "" when it is.
func (m *Merger) differs(r *Results) string {
	a, b := m.first.Extra.Part, r.Extra.Part
	switch {
	case a.RunID != b.RunID:
		return fmt.Sprintf("run id %q, not %q", b.RunID, a.RunID)
	case m.first.Phase != r.Phase:
		return fmt.Sprintf("a %s phase, not a %s phase", r.Phase, m.first.Phase)
	case a.Count != b.Count:
		return fmt.Sprintf("%d parts, not %d", b.Count, a.Count)
	case a.Whole != b.Whole:
		return fmt.Sprintf("the whole run is %+v, not %+v", b.Whole, a.Whole)
	case m.first.Label != r.Label:
		return fmt.Sprintf("label %q, not %q", r.Label, m.first.Label)
	}
	keys := slices.Sorted(maps.Keys(m.first.Config))
	for k := range r.Config {
		if _, ok := m.first.Config[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if partOnly[k] {
			continue
		}
		av, aok := m.first.Config[k]
		bv, bok := r.Config[k]
		switch {
		case !aok:
			return fmt.Sprintf("%s=%s is set, and not in the first", k, bv)
		case !bok:
			return fmt.Sprintf("%s is not set, and is %s in the first", k, av)
		case av != bv:
			return fmt.Sprintf("%s=%s, not %s", k, bv, av)
		}
	}
	return ""
}

// addSummary adds one part's figures to the sums.
func (m *Merger) addSummary(s *measure.Summary) error {
	if len(m.seen) == 0 || s.Start.Before(m.minStart) {
		m.minStart = s.Start
	}
	if len(m.seen) == 0 || s.Start.After(m.maxStart) {
		m.maxStart = s.Start
	}
	if len(m.seen) == 0 || s.End.After(m.sum.End) {
		m.sum.End = s.End
	}
	m.sum.Operations += s.Operations
	m.sum.RecordStalls += s.RecordStalls
	m.sum.Clamped += s.Clamped
	if err := mergeHistogram(&m.sum.ScheduleLag, s.ScheduleLag); err != nil {
		return fmt.Errorf("schedule lag: %w", err)
	}
	for op := range s.Status {
		for st, n := range s.Status[op] {
			m.sum.Status[op][st] += n
		}
	}
	for _, sm := range s.Measurements {
		acc := m.byName[sm.Name]
		if acc == nil {
			acc = &measure.Measurement{Name: sm.Name, Op: sm.Op, Failed: sm.Failed}
			m.byName[sm.Name] = acc
		}
		if err := mergeHistogram(&acc.Service, sm.Service); err != nil {
			return fmt.Errorf("%s service latency: %w", sm.Name, err)
		}
		if err := mergeHistogram(&acc.Intended, sm.Intended); err != nil {
			return fmt.Errorf("%s intended latency: %w", sm.Name, err)
		}
	}
	return nil
}

// Results returns the merged results of the parts added; an error when
// none were, or when some part of the run is missing.
func (m *Merger) Results() (*Results, error) {
	if m.first == nil {
		return nil, fmt.Errorf("merge: no results")
	}
	fp := m.first.Extra.Part
	var missing []string
	for i := range fp.Count {
		if _, ok := m.seen[i]; !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		what := "part " + missing[0] + " is"
		if len(missing) > 1 {
			what = "parts " + strings.Join(missing, ", ") + " are"
		}
		if len(missing) > 20 {
			what = fmt.Sprintf("%d parts (%s, …) are", len(missing), strings.Join(missing[:20], ", "))
		}
		return nil, fmt.Errorf("merge: %s missing of the %d parts of run %q: merge needs every part", what, fp.Count, fp.RunID)
	}
	s := m.sum // the histograms are the Merger's, handed on
	s.Start = m.minStart
	s.EndNs = int64(s.End.Sub(s.Start))
	for _, acc := range m.byName {
		s.Measurements = append(s.Measurements, *acc)
	}
	slices.SortFunc(s.Measurements, func(a, b measure.Measurement) int {
		if a.Op != b.Op {
			return int(a.Op) - int(b.Op)
		}
		if a.Failed != b.Failed {
			if a.Failed {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Name, b.Name)
	})
	s.Intervals = mergeIntervals(m.ivs, s.Start)
	for _, p := range m.ivs {
		shift := int64(p.start.Sub(s.Start))
		for _, w := range p.windows {
			s.ErrorWindows = append(s.ErrorWindows, measure.ErrorWindow{StartNs: w.StartNs + shift, EndNs: w.EndNs + shift, Errors: w.Errors})
		}
	}
	slices.SortStableFunc(s.ErrorWindows, func(a, b measure.ErrorWindow) int { return cmp.Compare(a.StartNs, b.StartNs) })
	s.ErrorMessages = measure.MergeErrorMessages(m.msgs...)

	from := slices.Clone(m.from)
	slices.SortFunc(from, func(a, b MergedPart) int { return cmp.Compare(a.Part, b.Part) })
	extra := &Extra{
		MergedFrom: from,
		Merged: &Merged{RunID: fp.RunID, Parts: fp.Count, StartAt: fp.StartAt,
			StartSkewMs: float64(m.maxStart.Sub(m.minStart).Microseconds()) / 1000},
		Topology:  m.first.Extra.Topology,
		Documents: m.documents,
	}
	if m.hasRunner {
		r := m.runner
		extra.Runner = &r
	}
	meta := Meta{Tool: m.first.Tool, Phase: m.first.Phase, Label: m.first.Label, Config: m.sharedConf,
		Partial: m.partial, Extra: extra}
	return NewResults(&s, meta)
}

// mergeHistogram adds from into *acc, allocating it on first use.
func mergeHistogram(acc **hdrhistogram.Histogram, from *hdrhistogram.Histogram) error {
	if from == nil {
		return nil
	}
	if *acc == nil {
		*acc = measure.NewHistogram()
	}
	if dropped := (*acc).Merge(from); dropped > 0 {
		return fmt.Errorf("%d values outside the histogram range", dropped)
	}
	return nil
}

// mergeIntervals combines the intervals of the parts on the time base of
// the merged run, which starts at start. A part's interval i goes to
// interval i of the whole, shifted by as many whole intervals as the part
// started after start: parts that started together (within half an
// interval) are combined by index, and one that started late, say past
// its --start-at, lands where its intervals were in time.
func mergeIntervals(sums []partIntervals, start time.Time) []measure.IntervalStats {
	offsets := make([]int, len(sums))
	n := 0
	for p, s := range sums {
		var length int64
		for _, iv := range s.intervals {
			length = max(length, iv.EndNs-iv.StartNs)
		}
		if shift := s.start.Sub(start); length > 0 {
			offsets[p] = int(math.Round(float64(shift) / float64(length)))
		}
		n = max(n, offsets[p]+len(s.intervals))
	}
	out := make([]measure.IntervalStats, n)
	for i := range out {
		out[i].Index = i
		first := true
		var ms []measure.MeasurementStats
		for p, s := range sums {
			k := i - offsets[p]
			if k < 0 || k >= len(s.intervals) {
				continue
			}
			iv := s.intervals[k]
			shift := int64(s.start.Sub(start))
			if first || iv.StartNs+shift < out[i].StartNs {
				out[i].StartNs = iv.StartNs + shift
			}
			if first || iv.EndNs+shift > out[i].EndNs {
				out[i].EndNs = iv.EndNs + shift
			}
			first = false
			out[i].Operations += iv.Operations
			// The parts ran side by side: their rates add up.
			out[i].OpsPerSec += iv.OpsPerSec
			for _, m := range iv.Measurements {
				j := slices.IndexFunc(ms, func(x measure.MeasurementStats) bool { return x.Name == m.Name })
				if j < 0 {
					ms = append(ms, measure.MeasurementStats{Name: m.Name, Op: m.Op, Failed: m.Failed})
					j = len(ms) - 1
				}
				ms[j].Service = mergeSummary(ms[j].Service, m.Service)
				ms[j].Intended = mergeSummary(ms[j].Intended, m.Intended)
			}
		}
		slices.SortStableFunc(ms, func(a, b measure.MeasurementStats) int {
			if a.Op != b.Op {
				return int(a.Op) - int(b.Op)
			}
			switch {
			case a.Failed == b.Failed:
				return 0
			case a.Failed:
				return 1
			}
			return -1
		})
		out[i].Measurements = ms
	}
	return out
}

// mergeSummary combines what two summaries describe. Percentiles are lost:
// they cannot be combined from summaries.
func mergeSummary(acc, ls *measure.LatencySummary) *measure.LatencySummary {
	if ls == nil {
		return acc
	}
	if acc == nil {
		return &measure.LatencySummary{Count: ls.Count, Mean: ls.Mean, Min: ls.Min, Max: ls.Max}
	}
	if ls.Count == 0 {
		return acc
	}
	if acc.Count == 0 {
		*acc = measure.LatencySummary{Count: ls.Count, Mean: ls.Mean, Min: ls.Min, Max: ls.Max}
		return acc
	}
	total := acc.Count + ls.Count
	acc.Mean = (acc.Mean*float64(acc.Count) + ls.Mean*float64(ls.Count)) / float64(total)
	acc.Min = min(acc.Min, ls.Min)
	acc.Max = max(acc.Max, ls.Max)
	acc.Count = total
	return acc
}
