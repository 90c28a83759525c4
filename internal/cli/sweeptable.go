package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/workload"
)

// sweepOps adds the operations a point's workload issues to the table's
// columns, which are known before anything runs so that rows print as
// they come.
func sweepOps(ops []string, command string, spec *workload.Spec) []string {
	if command == "load" {
		if !slices.Contains(ops, "INSERT") {
			ops = append(ops, "INSERT")
		}
		return ops
	}
	names := [...]string{
		workload.TxRead: "READ", workload.TxUpdate: "UPDATE", workload.TxInsert: "INSERT",
		workload.TxScan: "SCAN", workload.TxReadModifyWrite: "READ-MODIFY-WRITE", workload.TxDelete: "DELETE",
	}
	for tx, p := range spec.Proportions {
		if p > 0 && !slices.Contains(ops, names[tx]) {
			ops = append(ops, names[tx])
		}
	}
	return ops
}

// trialNote is the note column of a trial's row in the sweep's table.
func trialNote(t sweep.Trial, err error) string {
	switch {
	case t.Warmup:
		return "warm-up: not in the mean"
	case t.Results.Partial:
		return "partial: interrupted"
	case err != nil:
		return "failed"
	case t.Results.Extra != nil && diagnosis.ClientBound(t.Results.Extra.Diagnosis):
		// The run's warning is on stderr above; the table keeps it beside
		// the figures it discredits, as its diagnosis has it.
		return "client-bound"
	}
	return ""
}

// knee states the knee of one series over its finished points, or why
// there is none; "" when the sweep varies nothing to find one along.
func knee(x string, opts stats.KneeOptions, sr *sweep.Series, done []sweep.PointResult) string {
	if x == "" {
		return ""
	}
	prefix := ""
	if sr.Label != "" {
		prefix = sr.Label + ": "
	}
	if x == analysis.RateDim {
		// Throughput follows the target by construction: a rate sweep is
		// judged by whether each target was kept.
		return prefix + "rate: " + sweepRate(x, done).Text
	}
	k := analysis.KneeOf(x, sweep.KneePoints(x, done, false), opts)
	if k.Found {
		if b := beyondKnee(x, k, done); b != "" {
			return prefix + k.Text + "; " + b
		}
	}
	return prefix + k.Text
}

// beyondKnee names what limited the runs past the knee: the point after
// it, where the step showed saturation (the knee itself when it is the
// last), by its trials' most frequent verdict.
func beyondKnee(x string, k analysis.Knee, done []sweep.PointResult) string {
	at := k.Result.Next
	if at.X == 0 {
		at = k.Result.Knee
	}
	for _, pr := range done {
		if v, err := strconv.ParseFloat(pr.Point.Values[x], 64); err == nil && v == at.X {
			return diagnosis.BeyondMost(k.Result.Knee.X, analysis.KneeDims[x], countedDiagnoses(pr.Trials))
		}
	}
	return ""
}

// countedDiagnoses are the diagnoses of the trials that count in a
// point's figures.
func countedDiagnoses(trials []sweep.Trial) []*results.Diagnosis {
	var ds []*results.Diagnosis
	for _, t := range trials {
		if t.Counts() {
			ds = append(ds, diagnosis.Of(t.Results))
		}
	}
	return ds
}

// sweepTable prints the sweep's table a row at a time, so its columns are
// sized up front from the headers and the planned values.
type sweepTable struct {
	w      io.Writer
	format tableFormat
	plan   *sweep.Plan
	ops    []string
	head   []string
	widths []int
	rows   int
}

func newSweepTable(w io.Writer, format tableFormat, plan *sweep.Plan, ops []string) *sweepTable {
	t := &sweepTable{w: w, format: format, plan: plan, ops: ops}
	for _, d := range plan.Dims {
		name := strings.Join(d.Names(), sweep.LinkSeparator)
		if name == "threadcount" {
			name = "threads"
		}
		width := len(name)
		for _, v := range d.Values {
			if shown, ok := plan.SecretName(d.Name, v); ok {
				v = shown
			}
			width = max(width, len(v))
		}
		if d.Auto {
			width = max(width, 4)
		}
		t.head = append(t.head, name)
		t.widths = append(t.widths, width)
	}
	t.add("trial", 5)
	t.add("runtime(s)", 10)
	t.add("throughput(ops/s)", 10)
	for _, op := range ops {
		t.add(op+" ops", 9)
		t.add(op+" avg(us)", 10)
		t.add(op+" p99(us)", 10)
	}
	t.add(analysis.NotOKFigure, 6)
	t.add("limit", 10)
	t.add("note", 0)
	return t
}

func (t *sweepTable) add(head string, width int) {
	t.head = append(t.head, head)
	t.widths = append(t.widths, max(width, len(head)))
}

func (t *sweepTable) header() {
	switch t.format {
	case csvFormat, markdownFormat:
		left := map[int]bool{len(t.head) - 1: true}
		for i := range t.plan.Dims {
			left[i] = true
		}
		writeTableAs(t.w, t.format, t.head, nil, left)
	default:
		fmt.Fprintln(t.w, formatRow(t.head, t.widths, map[int]bool{len(t.head) - 1: true}))
	}
}

func (t *sweepTable) print(cells []string) {
	switch t.format {
	case csvFormat:
		cw := csv.NewWriter(t.w)
		_ = cw.Write(cells)
		cw.Flush()
	case markdownFormat:
		fmt.Fprintln(t.w, markdownRow(cells))
	default:
		fmt.Fprintln(t.w, formatRow(cells, t.widths, map[int]bool{len(cells) - 1: true}))
	}
}

func (t *sweepTable) pointCells(p *sweep.Point) []string {
	cells := make([]string, 0, len(t.head))
	shown := t.plan.Show(p.Values)
	for _, d := range t.plan.Dims {
		cells = append(cells, d.ValueIn(shown))
	}
	return cells
}

func (t *sweepTable) trialRow(p *sweep.Point, tr sweep.Trial, note string) {
	t.rows++
	f := tr.Figures
	cells := append(t.pointCells(p), strconv.Itoa(tr.Trial), strconv.FormatFloat(f.RuntimeS, 'f', 2, 64), formatFigure(f.Throughput, "ops/s"))
	for _, op := range t.ops {
		o := f.Ops[op]
		if o == nil || !o.HasLatency {
			cells = append(cells, "0", "–", "–")
			continue
		}
		cells = append(cells, strconv.FormatInt(o.Count, 10), formatFigure(o.Avg, "us"), formatFigure(o.Pct["99"], "us"))
	}
	limit := "–"
	if tr.Results != nil {
		limit = diagnosis.Verdict(diagnosis.Of(tr.Results))
	}
	cells = append(cells, strconv.FormatInt(f.NotOK, 10), limit, note)
	t.print(cells)
}

// meanRow prints the means of a point's counted trials with their 95%
// confidence intervals, when there are at least two.
func (t *sweepTable) meanRow(p *sweep.Point, trials []sweep.Trial) {
	fs := sweep.CountedFigures(trials)
	if len(fs) < 2 {
		return
	}
	pf := analysis.Summarize(fs)
	cells := append(t.pointCells(p), "mean", estimateText(pf.Runtime, "s"), estimateText(pf.Throughput, "ops/s"))
	for _, op := range t.ops {
		o := pf.Op(op)
		cells = append(cells, estimateText(o.Count, ""), estimateText(o.Avg, "us"), estimateText(o.P99, "us"))
	}
	cells = append(cells, estimateText(pf.NotOK, ""), diagnosis.Tally(countedDiagnoses(trials)), fmt.Sprintf("mean of %d trials, ± 95%% CI", len(fs)))
	t.print(cells)
}
