package report

import (
	"fmt"
	"html/template"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
)

// tpmCUnit is what tpmC counts: the committed NewOrders per minute of the
// TPC-C paper's tables, a rate of its own beside throughput's ops/s.
var tpmCUnit = rateUnit{"tpmC", "tpmC (committed NewOrders per minute)"}

// isTpmC reports whether a comparison row is a TPC-C run's tpmC.
func isTpmC(r CompareRow) bool { return r.Figure == analysis.TpmCFigure && !opOf(r.Op) }

// studyHasTpmC reports whether any point of the study has trials with a
// tpmC: a study of TPC-C runs.
func studyHasTpmC(ss []StudySeries) bool {
	for _, s := range ss {
		for _, p := range s.Points {
			if len(p.TpmCTrials) > 0 {
				return true
			}
		}
	}
	return false
}

func tpmCOfPoint(p SweepPoint) (v, lo, hi float64) { return p.TpmC, p.TpmCLo, p.TpmCHi }

func tpmCTrialsOf(p SweepPoint) []float64 { return p.TpmCTrials }

// tpccTable is a TPC-C run's own counts, a row per transaction type:
// what the summary's statuses do not say (retries, aborts, the NewOrders
// rolled back on purpose) and what tpmC leaves out. nil for other runs.
func tpccTable(r *results.Results) *tableView {
	if r.Extra == nil || r.Extra.TPCC == nil {
		return nil
	}
	sec := r.Extra.TPCC
	t := &tableView{
		Title: "TPC-C: " + formatNum(sec.TpmC) + " tpmC",
		Head:  []string{"transaction", "retries", "commit retries", "aborts", "rolled back", "failed"},
	}
	for _, x := range sec.Transactions {
		t.Rows = append(t.Rows, []cell{{V: x.Name}, {V: formatInt(x.Retries)}, {V: formatInt(x.CommitRetries)},
			{V: formatInt(x.Aborts)}, {V: formatInt(x.RolledBack)}, {V: formatInt(x.Failed)}})
	}
	t.Note = fmt.Sprintf("tpmC is the NewOrders committed per minute of the run (those rolled back on purpose left out), on %s", plural(sec.Warehouses, "warehouse"))
	if !sec.Standard {
		t.Note += " with fewer items or customers than TPC-C's: not comparable with published figures"
	}
	t.Note += ". Retries are whole transactions run again after a TransientTransactionError; commit retries, commits sent again after an UnknownTransactionCommitResult."
	if c := checkText(sec.Check); c != "" {
		t.Note += " " + c
	}
	return t
}

// checkText says how the consistency conditions checked after the run
// came out; empty when the run was not checked.
func checkText(conds []results.TPCCCondition) string {
	if len(conds) == 0 {
		return ""
	}
	var broken []string
	for _, c := range conds {
		if c.Failed > 0 {
			broken = append(broken, fmt.Sprintf("condition %d on %s of %s", c.Number, formatInt(c.Failed), formatInt(c.Checked)))
		}
	}
	if len(broken) == 0 {
		return fmt.Sprintf("The %s checked after the run held.", plural(len(conds), "consistency condition"))
	}
	text := "Broken after the run: "
	for i, b := range broken {
		if i > 0 {
			text += "; "
		}
		text += b
	}
	return text + "."
}

// sweepTpmCFigure is a single TPC-C sweep's tpmC against its setting,
// with error bars over the trials; false when its points have no tpmC.
func sweepTpmCFigure(words sweepWords, xAxis axis, pts []SweepPoint) (figureView, bool) {
	s := series{name: analysis.TpmCFigure, color: colorB}
	var vs, los, his []float64
	var with []SweepPoint
	for _, p := range pts {
		if len(p.TpmCTrials) == 0 {
			continue
		}
		with = append(with, p)
		s.points = append(s.points, point{x: p.X, y: p.TpmC, lo: p.TpmCLo, hi: p.TpmCHi, hasErr: p.TpmCHi > p.TpmCLo,
			tip: words.at(p.X) + ": " + tpmCUnit.format(p.TpmC) + ciText(p.TpmCLo, p.TpmCHi, formatNum) + trialsText(p.Trials)})
		vs, los, his = append(vs, p.TpmC), append(los, p.TpmCLo), append(his, p.TpmCHi)
	}
	if len(with) == 0 {
		return figureView{}, false
	}
	_, hi := spanOf(vs, los, his)
	title := analysis.TpmCFigure + " against " + words.axisLabel()
	c := lineChart{title: title, x: xAxis, y: newLinearAxis(0, hi, true, formatCompact),
		xLabel: words.axisLabel(), yLabel: tpmCUnit.long, series: []series{s}}
	return figureView{
		ID: "sweep-tpmc", Title: title,
		Sentence: sweepTpmCCaption(words, with),
		Note:     "Mean tpmC at each point; error bars are 95% confidence intervals over the trials" + c.clippedNote() + ".",
		SVG:      template.HTML(c.render()),
	}, true
}

// sweepTpmCCaption says where tpmC peaked against the first point, and
// whether their intervals tell them apart.
func sweepTpmCCaption(w sweepWords, pts []SweepPoint) string {
	if len(pts) == 1 {
		return "tpmC was " + tpmCUnit.format(pts[0].TpmC) + " at " + w.at(pts[0].X) + "."
	}
	peak := 0
	for i, p := range pts {
		if p.TpmC > pts[peak].TpmC {
			peak = i
		}
	}
	first, last, top := pts[0], pts[len(pts)-1], pts[peak]
	var s string
	if peak == 0 {
		s = "tpmC was highest at " + w.at(first.X) + " (" + tpmCUnit.format(first.TpmC) + ") and fell to " + tpmCUnit.format(last.TpmC) + " at " + w.at(last.X)
		if overlap(first.TpmCLo, first.TpmCHi, last.TpmCLo, last.TpmCHi) {
			s += withinNoise
		}
		return s + "."
	}
	s = "tpmC peaked at " + tpmCUnit.format(top.TpmC) + " at " + w.at(top.X)
	if first.TpmC > 0 {
		s += ", " + formatFactor(top.TpmC/first.TpmC) + " the " + tpmCUnit.format(first.TpmC) + " of " + w.at(first.X)
	}
	if overlap(top.TpmCLo, top.TpmCHi, first.TpmCLo, first.TpmCHi) {
		s += withinNoise
	}
	return s + "."
}
