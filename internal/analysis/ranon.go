package analysis

import (
	"slices"

	"github.com/mongobench/mongobench/internal/results"
)

// GroupsRanOn is what each group ran on, over the runs that count, the
// groups named by names, with what the study allowed to differ between
// them (st is nil when there is no study: one group, or groups that ran
// different things).
func GroupsRanOn(names []string, groups [][]Run, st *Study) RanOn {
	rs := make([][]*results.Results, len(groups))
	for i, g := range groups {
		counted, _ := CountedRuns(g)
		for _, r := range counted {
			rs[i] = append(rs[i], r.Res)
		}
	}
	var allowed []Difference
	if st != nil {
		for _, c := range st.Comparisons {
			for _, d := range c.Differences {
				if !slices.ContainsFunc(allowed, func(a Difference) bool { return a.Property == d.Property }) {
					allowed = append(allowed, d)
				}
			}
		}
	}
	return RanOnOf(names, rs, allowed)
}
