// Package sweeptext prints what a sweep shows as it goes: its table, a
// row per trial and a mean per point, and a find-max search's steps and
// answer.
package sweeptext

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/sweep"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// TrialNote is the note column of a trial's row in the sweep's table.
func TrialNote(t sweep.Trial, err error) string {
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

// Table prints the sweep's table a row at a time, so its columns are
// sized up front from the headers and the planned values.
type Table struct {
	w      io.Writer
	format tt.Format
	plan   *sweep.Plan
	ops    []string
	head   []string
	widths []int
}

// NewTable is the table of plan's points, with the figures of ops.
func NewTable(w io.Writer, format tt.Format, plan *sweep.Plan, ops []string) *Table {
	t := &Table{w: w, format: format, plan: plan, ops: ops}
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

func (t *Table) add(head string, width int) {
	t.head = append(t.head, head)
	t.widths = append(t.widths, max(width, len(head)))
}

// Header prints the table's head.
func (t *Table) Header() {
	switch t.format {
	case tt.CSV, tt.Markdown:
		left := map[int]bool{len(t.head) - 1: true}
		for i := range t.plan.Dims {
			left[i] = true
		}
		tt.WriteAs(t.w, t.format, t.head, nil, left)
	default:
		fmt.Fprintln(t.w, tt.Row(t.head, t.widths, map[int]bool{len(t.head) - 1: true}))
	}
}

func (t *Table) print(cells []string) {
	switch t.format {
	case tt.CSV:
		cw := csv.NewWriter(t.w)
		_ = cw.Write(cells)
		cw.Flush()
	case tt.Markdown:
		fmt.Fprintln(t.w, tt.MarkdownRow(cells))
	default:
		fmt.Fprintln(t.w, tt.Row(cells, t.widths, map[int]bool{len(cells) - 1: true}))
	}
}

func (t *Table) pointCells(p *sweep.Point) []string {
	cells := make([]string, 0, len(t.head))
	shown := t.plan.Show(p.Values)
	for _, d := range t.plan.Dims {
		cells = append(cells, d.ValueIn(shown))
	}
	return cells
}

// TrialRow prints a trial of point p, with note in the last column.
func (t *Table) TrialRow(p *sweep.Point, tr sweep.Trial, note string) {
	f := tr.Figures
	cells := append(t.pointCells(p), strconv.Itoa(tr.Trial), strconv.FormatFloat(f.RuntimeS, 'f', 2, 64), tt.Figure(f.Throughput, "ops/s"))
	for _, op := range t.ops {
		o := f.Ops[op]
		if o == nil || !o.HasLatency {
			cells = append(cells, "0", "–", "–")
			continue
		}
		cells = append(cells, strconv.FormatInt(o.Count, 10), tt.Figure(o.Avg, "us"), tt.Figure(o.Pct["99"], "us"))
	}
	limit := "–"
	if tr.Results != nil {
		limit = diagnosis.Verdict(diagnosis.Of(tr.Results))
	}
	cells = append(cells, strconv.FormatInt(f.NotOK, 10), limit, note)
	t.print(cells)
}

// MeanRow prints the means of a point's counted trials with their 95%
// confidence intervals, when there are at least two.
func (t *Table) MeanRow(p *sweep.Point, trials []sweep.Trial) {
	fs := sweep.CountedFigures(trials)
	if len(fs) < 2 {
		return
	}
	pf := analysis.Summarize(fs)
	cells := append(t.pointCells(p), "mean", tt.Estimate(pf.Runtime, "s"), tt.Estimate(pf.Throughput, "ops/s"))
	for _, op := range t.ops {
		o := pf.Op(op)
		cells = append(cells, tt.Estimate(o.Count, ""), tt.Estimate(o.Avg, "us"), tt.Estimate(o.P99, "us"))
	}
	cells = append(cells, tt.Estimate(pf.NotOK, ""), diagnosis.Tally(sweep.CountedDiagnoses(trials)), fmt.Sprintf("mean of %d trials, ± 95%% CI", len(fs)))
	t.print(cells)
}
