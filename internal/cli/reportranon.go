package cli

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/results"
)

// groupsRanOn is what each group ran on, the groups named by names, with
// what the study allowed to differ between them (nil without a study).
func groupsRanOn(names []string, groups [][]analysis.Run, st *analysis.Study) analysis.RanOn {
	rs := make([][]*results.Results, len(groups))
	for i, g := range groups {
		counted, _ := analysis.CountedRuns(g)
		for _, r := range counted {
			rs[i] = append(rs[i], r.Res)
		}
	}
	var allowed []analysis.Difference
	if st != nil {
		for _, c := range st.Comparisons {
			for _, d := range c.Differences {
				if !slices.ContainsFunc(allowed, func(a analysis.Difference) bool { return a.Property == d.Property }) {
					allowed = append(allowed, d)
				}
			}
		}
	}
	return analysis.RanOnOf(names, rs, allowed)
}

// reportRanOn is the page's table of what each group ran on.
func reportRanOn(ro analysis.RanOn) *htmlreport.RanOn {
	row := func(r analysis.RanOnRow) htmlreport.RanOnRow {
		out := htmlreport.RanOnRow{Property: r.Property}
		for _, v := range r.Values {
			out.Values = append(out.Values, v.Text())
		}
		return out
	}
	out := &htmlreport.RanOn{Names: ro.Names}
	for _, r := range ro.Rows {
		out.Rows = append(out.Rows, row(r))
	}
	for _, r := range ro.Differing() {
		out.Differ = append(out.Differ, row(r))
	}
	for _, r := range ro.Varied {
		out.Varied = append(out.Varied, row(r))
	}
	return out
}

// confounder is what a line of a group's sweep mixes in: where (the group
// and line, "" for a single group's single line) and what.
type confounder struct{ where, what string }

func (c confounder) String() string {
	if c.where == "" {
		return c.what
	}
	return c.where + ": " + c.what
}

// sentence is the confounder as a sentence of the page, the group's
// name left as it was given.
func (c confounder) sentence() string {
	if c.where == "" {
		return sentence(c.what)
	}
	return c.where + ": " + sentence(c.what)
}

// confounders say, for each line of each group's sweeps, when the data
// size changed along it though nothing varied shapes the data. Lines
// are the values of the varied properties other than the fastest, as
// the report draws them.
func confounders(refs []string, groups [][]analysis.Run) []confounder {
	var out []confounder
	for gi, g := range groups {
		type line struct {
			name string
			byX  map[float64][]*results.Results
		}
		var lines []*line
		var varied []string
		x := ""
		for _, r := range g {
			if r.Mark == nil || r.Mark.Warmup || r.Res.Partial {
				continue
			}
			if x == "" {
				x, varied = analysis.XDim(r.Mark.Varied), r.Mark.Varied
			}
			xv, err := strconv.ParseFloat(r.Mark.Point[x], 64)
			if err != nil {
				continue
			}
			name := lineName(r.Mark, x)
			i := slices.IndexFunc(lines, func(l *line) bool { return l.name == name })
			if i < 0 {
				lines = append(lines, &line{name: name, byX: map[float64][]*results.Results{}})
				i = len(lines) - 1
			}
			lines[i].byX[xv] = append(lines[i].byX[xv], r.Res)
		}
		for _, l := range lines {
			var pts []analysis.SizePoint
			for _, xv := range slices.Sorted(maps.Keys(l.byX)) {
				if b, ok := analysis.PointDataSize(l.byX[xv]); ok {
					pts = append(pts, analysis.SizePoint{Label: x + "=" + strconv.FormatFloat(xv, 'f', -1, 64), X: xv, Bytes: b})
				}
			}
			what := analysis.DataSizeConfounder(varied, pts)
			if what == "" {
				continue
			}
			var where []string
			if len(groups) > 1 {
				where = append(where, refs[gi])
			}
			if l.name != "" {
				where = append(where, l.name)
			}
			out = append(out, confounder{strings.Join(where, " · "), what})
		}
	}
	return out
}

// rateSentence is the verdict of a rate sweep's line from its trials by
// target, as the page says it.
func rateSentence(byTarget map[float64][]*results.Results) string {
	var pts []analysis.RatePoint
	for _, t := range slices.Sorted(maps.Keys(byTarget)) {
		pts = append(pts, analysis.RatePointOf(t, byTarget[t]))
	}
	return sentence(analysis.RateVerdictOf(pts).Text)
}
