package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/sweep"
)

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
	cells = append(cells, estimateText(pf.NotOK, ""), diagnosis.Tally(sweep.CountedDiagnoses(trials)), fmt.Sprintf("mean of %d trials, ± 95%% CI", len(fs)))
	t.print(cells)
}
