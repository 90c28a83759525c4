package report

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// Options are the choices of a page drawn by FromRuns.
type Options struct {
	// Names name the groups as the page does ("ssd", "run 12"), in the
	// order of the groups, the baseline first.
	Names []string
	// Title and Version are the Input's.
	Title, Version string
	// Alpha is the significance level of the verdicts, the knees and the
	// captions that rank configurations.
	Alpha float64
	// Allowed are the properties the groups may differ in
	// (--allow-different), as for compare.
	Allowed []string
	// Knee holds the thresholds of the knees; its Alpha is set from Alpha.
	Knee stats.KneeOptions
}

// FromRuns draws the page of groups of runs from what analysis says of
// them, so that the page, compare and sweep agree by construction: every
// run once; with two groups or more, their study (analysis.NewStudy, as
// compare builds it), each group after the first compared against it;
// what each group ran on and what its sweeps mixed in; the overlays of
// sweeps in several groups or of two dimensions; and the sweep when one
// group holds the points of a single one.
//
// It starts from the groups rather than from a study because a page of
// one group (a run, a sweep) has no study, and a page of three groups or
// more that ran different things is still drawn, without verdicts. The
// notes say how the page was built (runs of several sweeps charted
// together, groups without verdicts), for the caller to tell the user. Two
// groups that ran different things are refused with the study's
// *analysis.DifferentError.
func FromRuns(groups [][]analysis.Run, o Options) (*Input, []string, error) {
	in := &Input{Title: o.Title, Version: o.Version, Alpha: o.Alpha}
	var notes []string
	seen := map[string]bool{}
	var all []analysis.Run
	for i, g := range groups {
		conf := Configuration{Name: o.Names[i]}
		for _, r := range g {
			conf.Runs = append(conf.Runs, r.Res)
			if key := r.Key(); !seen[key] {
				seen[key] = true
				all = append(all, r)
				in.Runs = append(in.Runs, r.Res)
				in.RunIDs = append(in.RunIDs, r.ID)
			}
		}
		if len(groups) > 1 {
			in.Configurations = append(in.Configurations, conf)
		}
	}
	kind := analysis.ChooseLatency(groups...)
	var study *analysis.Study
	if len(groups) >= 2 {
		st, err := analysis.NewStudy(groups, analysis.StudyOptions{
			Refs: o.Names, Latency: kind, Alpha: o.Alpha, Allowed: o.Allowed,
		})
		study = st
		var different *analysis.DifferentError
		switch {
		case err != nil && len(groups) > 2 && errors.As(err, &different):
			// Several groups that ran different things (an engine's
			// single-thread tasks beside its thread sweeps) are still
			// drawn side by side; only verdicts need like with like.
			why := "no verdicts on the page: " + err.Error()
			notes = append(notes, why)
			in.Caveats = append(in.Caveats, sentence(why))
		case err != nil:
			return nil, nil, err
		default:
			// Every configuration against the first, as compare does.
			for i := range st.Comparisons {
				c := comparisonOf(o.Names, st, i)
				if i == 0 {
					in.Comparison = c
				} else {
					in.Comparisons = append(in.Comparisons, c)
				}
			}
		}
	}
	ro := analysis.GroupsRanOn(o.Names, groups, study)
	in.RanOn = ranOnOf(ro)
	for _, w := range ro.Warnings {
		in.Warnings = append(in.Warnings, sentence(w))
	}
	for _, c := range analysis.Confounders(o.Names, groups) {
		// The group's name is left as it was given.
		w := sentence(c.What)
		if c.Where != "" {
			w = c.Where + ": " + w
		}
		in.Warnings = append(in.Warnings, w)
	}
	knee := o.Knee
	knee.Alpha = o.Alpha
	in.Study = studyOf(o.Names, groups, kind, knee)
	if len(groups) == 1 && in.Study == nil {
		sw, sweepNotes := sweepOf(all, kind, knee)
		in.Sweep = sw
		notes = append(notes, sweepNotes...)
	}
	return in, notes, nil
}

// comparisonOf is the i-th comparison of a study (a configuration against
// the baseline) as the page shows it, the groups named by names.
// Error counts stay in compare's table: the page charts throughputs and
// latencies.
func comparisonOf(names []string, st *analysis.Study, i int) *Comparison {
	cmp := st.Comparisons[i]
	aName, bName := names[st.Baseline], names[cmp.Config]
	c := &Comparison{A: aName, B: bName, Alpha: st.Alpha}
	if cmp.Better+cmp.Worse == 0 {
		c.Sensitivity = analysis.SensitivityText(cmp.Sensitivity)
	}
	if st.Tested > 1 {
		c.Correction = "Holm"
	}
	if t := analysis.DifferencesText(cmp.Differences); t != "" {
		c.Notes = append(c.Notes, fmt.Sprintf("%s differs from %s in %s (allowed by --allow-different).", bName, aName, t))
	}
	if i == 0 {
		// The study's notes are said once, with the first comparison.
		for _, n := range st.Notes {
			c.Notes = append(c.Notes, sentence(n))
		}
	}
	for _, set := range cmp.Sets {
		for _, r := range set.Rows {
			if r.Figure == analysis.NotOKFigure {
				continue
			}
			op := strings.Join(strings.Fields(set.Kind+" "+set.Point+" "+r.Op), " ")
			row := CompareRow{
				Op: op, Figure: r.Figure, HigherIsBetter: r.HigherIsBetter, Verdict: analysis.VerdictText(r, aName, bName),
				RelDiff:     math.NaN(),
				Significant: r.Significant(),
			}
			row.A, row.ALo, row.AHi = analysis.MeanAndCI(r.A)
			row.B, row.BLo, row.BHi = analysis.MeanAndCI(r.B)
			if r.Why == "" && r.Verdict.RelDiffOK {
				row.RelDiff = r.Verdict.RelDiff
			}
			if r.Tested() {
				// The p-value the verdict rests on: corrected for the
				// figures tested with it.
				row.P = r.AdjustedP
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c
}

// ranOnOf is the page's table of what each group ran on.
func ranOnOf(ro analysis.RanOn) *RanOn {
	row := func(r analysis.RanOnRow) RanOnRow {
		out := RanOnRow{Property: r.Property}
		for _, v := range r.Values {
			out.Values = append(out.Values, v.Text())
		}
		return out
	}
	out := &RanOn{Names: ro.Names}
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

// pointOf is the page's point: the means of throughput, p99 and average
// latency with their 95% confidence intervals and each trial's figures
// (which the captions test), each operation's mean latencies, and the
// trials' results (for the regime table).
func pointOf(p analysis.LinePoint) SweepPoint {
	pf := p.Figures
	sp := SweepPoint{X: p.X, Label: p.Label, Trials: pf.Trials, PerOp: map[string]OpFigures{}, Runs: p.Runs}
	sp.Throughput, sp.ThroughputLo, sp.ThroughputHi = pf.Throughput.Bounds()
	sp.P99us, sp.P99Lo, sp.P99Hi = pf.P99.Bounds()
	sp.AvgUs, sp.AvgLo, sp.AvgHi = p.Avg.Bounds()
	sp.ThroughputTrials, sp.P99Trials, sp.AvgTrials = pf.Throughput.Values, pf.P99.Values, p.Avg.Values
	sp.TpmC, sp.TpmCLo, sp.TpmCHi = pf.TpmC.Bounds()
	sp.TpmCTrials = pf.TpmC.Values
	for name, o := range pf.Ops {
		if o.HasLatency() {
			of := OpFigures{AvgUs: o.Avg.Mean()}
			of.P99us, of.P99Lo, of.P99Hi = o.P99.Bounds()
			sp.PerOp[name] = of
		}
	}
	return sp
}

// kneeOf is a knee as the page marks and says it: the sentence names
// what limited the trials past the knee (beyond) by their most frequent
// diagnosis, as the sweep's table does.
func kneeOf(x string, k analysis.Knee, beyond []*results.Results) (*KneeMark, string) {
	text := k.Text
	if !k.Found {
		return nil, sentence(text)
	}
	kp := k.Result.Knee
	if b := diagnosis.BeyondMost(kp.X, analysis.KneeDims[x], diagnosesOf(beyond)); b != "" {
		text += "; " + b
	}
	return &KneeMark{X: kp.X, Throughput: kp.Throughput, P99us: kp.P99}, sentence(text)
}

// diagnosesOf are the runs' diagnoses, made now for runs written before
// runs were diagnosed.
func diagnosesOf(runs []*results.Results) []*results.Diagnosis {
	ds := make([]*results.Diagnosis, len(runs))
	for i, r := range runs {
		ds[i] = diagnosis.Of(r)
	}
	return ds
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = capitalize(s)
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// count is n of a noun, as a note on stderr says it ("3 runs").
func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
