package results

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
)

// Merge combines the results of one phase run by several client machines at
// the same time into the results of the whole. Histograms are added bucket
// by bucket, so merged percentiles are exact, never averaged; counts add up;
// the run spans from the earliest start to the latest end. Intervals are
// combined by index (the clients share a start time): their counts, rates,
// minimums, maximums and means combine exactly, their percentiles cannot
// and are left out. The label and configuration keep what all parts share;
// extra["merged_from"] lists the parts.
func Merge(parts ...*Results) (*Results, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no results")
	}
	phase := parts[0].Phase
	sums := make([]*measure.Summary, len(parts))
	for i, p := range parts {
		if p.FormatVersion != FormatVersion {
			return nil, fmt.Errorf("merge: part %d has format_version %d, want %d", i+1, p.FormatVersion, FormatVersion)
		}
		if p.Phase != phase {
			return nil, fmt.Errorf("merge: part %d is a %q phase, part 1 a %q phase", i+1, p.Phase, phase)
		}
		s, err := p.Summary()
		if err != nil {
			return nil, fmt.Errorf("merge: part %d: %w", i+1, err)
		}
		sums[i] = s
	}

	m := &measure.Summary{Start: sums[0].Start, End: sums[0].End}
	for _, s := range sums {
		if s.Start.Before(m.Start) {
			m.Start = s.Start
		}
		if s.End.After(m.End) {
			m.End = s.End
		}
	}
	m.EndNs = int64(m.End.Sub(m.Start))

	byName := map[string]*measure.Measurement{}
	for i, s := range sums {
		m.Operations += s.Operations
		m.RecordStalls += s.RecordStalls
		m.Clamped += s.Clamped
		if err := mergeHistogram(&m.ScheduleLag, s.ScheduleLag); err != nil {
			return nil, fmt.Errorf("merge: part %d, schedule lag: %w", i+1, err)
		}
		for op := range s.Status {
			for st, n := range s.Status[op] {
				m.Status[op][st] += n
			}
		}
		for _, sm := range s.Measurements {
			acc := byName[sm.Name]
			if acc == nil {
				acc = &measure.Measurement{Name: sm.Name, Op: sm.Op, Failed: sm.Failed}
				byName[sm.Name] = acc
			}
			if err := mergeHistogram(&acc.Service, sm.Service); err != nil {
				return nil, fmt.Errorf("merge: part %d, %s service latency: %w", i+1, sm.Name, err)
			}
			if err := mergeHistogram(&acc.Intended, sm.Intended); err != nil {
				return nil, fmt.Errorf("merge: part %d, %s intended latency: %w", i+1, sm.Name, err)
			}
		}
	}
	for _, acc := range byName {
		m.Measurements = append(m.Measurements, *acc)
	}
	slices.SortFunc(m.Measurements, func(a, b measure.Measurement) int {
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
	m.Intervals = mergeIntervals(sums, m.Start)
	msgSets := make([][]measure.OpErrors, len(sums))
	for i, s := range sums {
		msgSets[i] = s.ErrorMessages
	}
	m.ErrorMessages = measure.MergeErrorMessages(msgSets...)

	meta := Meta{Tool: parts[0].Tool, Phase: phase, Label: parts[0].Label, Config: maps.Clone(parts[0].Config)}
	var from []MergedPart
	for _, p := range parts {
		meta.Partial = meta.Partial || p.Partial
		if p.Label != meta.Label {
			meta.Label = ""
		}
		for k, v := range meta.Config {
			if pv, ok := p.Config[k]; !ok || pv != v {
				delete(meta.Config, k)
			}
		}
		from = append(from, MergedPart{Label: p.Label, Start: p.Start.UTC(), End: p.End.UTC(),
			Operations: p.Operations, Partial: p.Partial, Command: p.Command})
	}
	meta.Extra = &Extra{MergedFrom: from}
	return NewResults(m, meta)
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

// mergeIntervals combines the intervals of the parts by index, on the time
// base of the merged run, which starts at start.
func mergeIntervals(sums []*measure.Summary, start time.Time) []measure.IntervalStats {
	n := 0
	for _, s := range sums {
		n = max(n, len(s.Intervals))
	}
	out := make([]measure.IntervalStats, n)
	for i := range out {
		out[i].Index = i
		first := true
		var ms []measure.MeasurementStats
		for _, s := range sums {
			if i >= len(s.Intervals) {
				continue
			}
			iv := s.Intervals[i]
			shift := int64(s.Start.Sub(start))
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
